package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm/llmtest"
)

func TestCorrectIntent(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	ctx := context.Background()
	// The committed model calls this hypothetical (issue 16); the user says it is a fact to keep.
	res, err := a.SendMessage("r1", "", "我是一名小学老师")
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.CorrectIntent(res.User.ID, "remember")
	if err != nil {
		t.Fatal(err)
	}
	if got.MessageID != res.User.ID || got.Intent != "remember" || got.IntentConfidence != 1 ||
		!got.Plan.MayWriteMemory || got.Plan.ToolGroup != "memory" || !got.Plan.Recall {
		t.Fatalf("CorrectIntent = %+v", got)
	}
	msgs, err := core.sessions.Messages(ctx, res.Session.ID)
	if err != nil || msgs[0].Intent != "remember" || msgs[0].IntentConfidence != 1 {
		t.Fatalf("stored message = %+v, %v", msgs, err)
	}
	// Only the text and its label are kept, in the data dir.
	b, err := os.ReadFile(filepath.Join(core.dataDir, IntentCorrectionsFile))
	if want := "{\"text\":\"我是一名小学老师\",\"label\":\"remember\"}\n"; err != nil || string(b) != want {
		t.Fatalf("corrections file = %q, %v; want %q", b, err, want)
	}

	t.Run("a re-run is planned from the correction", func(t *testing.T) {
		if _, err := a.CorrectIntent(res.User.ID, "task"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.RegenerateReply("r2", res.Session.ID, res.Assistant.ID); err != nil {
			t.Fatal(err)
		}
		rep, err := a.LastContext(res.Session.ID)
		if err != nil || rep.Plan.Intent != "task" || rep.Plan.ToolGroup != "task" {
			t.Fatalf("plan of the re-run = %+v, %v", rep.Plan, err)
		}
		list, err := core.IntentCorrections(ctx)
		if err != nil || len(list) != 1 || list[0].Label != "task" { // the later correction replaces the earlier
			t.Fatalf("corrections = %+v, %v", list, err)
		}
	})
	t.Run("the same text gets the corrected label", func(t *testing.T) {
		r, err := a.SendMessage("r3", "", "我是一名小学老师")
		if err != nil || r.User.Intent != "task" || r.User.IntentConfidence != 1 {
			t.Fatalf("user message = %+v, %v", r.User, err)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		cases := []struct{ name, id, label string }{
			{"unknown label", res.User.ID, "gossip"},
			{"unknown is not a choice", res.User.ID, "unknown"},
			{"assistant message", res.Assistant.ID, "task"},
			{"no such message", "nope", "task"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := a.CorrectIntent(tc.id, tc.label)
				var ue *UserError
				if !errors.As(err, &ue) || ue.Message == "" {
					t.Fatalf("CorrectIntent = %v; want a user error", err)
				}
			})
		}
		if list, _ := core.IntentCorrections(ctx); len(list) != 1 {
			t.Fatalf("a refused correction was stored: %+v", list)
		}
	})
	t.Run("clear", func(t *testing.T) {
		if n, err := core.ClearIntentCorrections(ctx); err != nil || n != 1 {
			t.Fatalf("cleared %d, %v", n, err)
		}
		if list, err := core.IntentCorrections(ctx); err != nil || len(list) != 0 {
			t.Fatalf("after clear: %+v, %v", list, err)
		}
	})
}

func TestCorrectIntentInWebMode(t *testing.T) {
	rig := startWebRig(t)
	res, err := rig.app.SendMessage("r1", "", "我是一名小学老师")
	if err != nil {
		t.Fatal(err)
	}
	got := rig.call(t, "CorrectIntent", "", res.User.ID, "remember")
	if got.status != 200 || got.body["intent"] != "remember" || got.body["messageId"] != res.User.ID {
		t.Fatalf("CorrectIntent over HTTP = %d %+v", got.status, got.body)
	}
	if got = rig.call(t, "CorrectIntent", "", res.User.ID, "gossip"); got.status == 200 {
		t.Fatalf("a bad label was accepted: %+v", got.body)
	}
}
