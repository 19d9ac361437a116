package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/store/storetest"
)

func TestCorrectIntent(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	ctx := context.Background()
	// The committed model calls this hypothetical (issue 16); the user says it is a fact to keep.
	res, err := a.Chat.SendMessage("r1", "", "我是一名小学老师")
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Chat.CorrectIntent(res.User.ID, "remember")
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
		if _, err := a.Chat.CorrectIntent(res.User.ID, "task"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Chat.RegenerateReply("r2", res.Session.ID, res.Assistant.ID); err != nil {
			t.Fatal(err)
		}
		rep, err := a.Sessions.LastContext(res.Session.ID)
		if err != nil || rep.Plan.Intent != "task" || rep.Plan.ToolGroup != "task" {
			t.Fatalf("plan of the re-run = %+v, %v", rep.Plan, err)
		}
		list, err := core.IntentCorrections(ctx)
		if err != nil || len(list) != 1 || list[0].Label != "task" { // the later correction replaces the earlier
			t.Fatalf("corrections = %+v, %v", list, err)
		}
	})
	t.Run("the same text gets the corrected label", func(t *testing.T) {
		r, err := a.Chat.SendMessage("r3", "", "我是一名小学老师")
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
				_, err := a.Chat.CorrectIntent(tc.id, tc.label)
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
	res, err := rig.app.Chat.SendMessage("r1", "", "我是一名小学老师")
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

// TestDeleteSessionErasesItsCorrections: a canary typed in a conversation and
// corrected on the intent chip is, once the conversation is deleted (the door
// the command line and web mode use), in no file of the data dir: not the
// corrections file, the database nor its WAL (read as they are: the delete's
// own checkpoint is what the test relies on, so none is run here). A corrected
// text another conversation also holds stays, with that conversation; deleting
// it too leaves no corrections file.
func TestDeleteSessionErasesItsCorrections(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	ctx := context.Background()
	const canary, shared = "my zqxcanary locker code is 4471", "shared words zqxshared"
	send := func(session, text string) TurnResult {
		t.Helper()
		res, err := a.Chat.SendMessage("r-"+text, session, text)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	correct := func(res TurnResult, label string) {
		t.Helper()
		if _, err := a.Chat.CorrectIntent(res.User.ID, label); err != nil {
			t.Fatal(err)
		}
	}
	a1 := send("", canary)
	correct(a1, "remember")
	correct(send(a1.Session.ID, shared), "task")
	b1 := send("", shared) // labelled by the correction; another conversation's text
	correct(send(b1.Session.ID, "ping the NAS at home"), "task")
	if files := storetest.DirHolds(t, core.dataDir, "zqxcanary"); !slices.Contains(files, IntentCorrectionsFile) {
		t.Fatalf("before the delete the canary is in %v; want the corrections file among them", files)
	}

	r, err := a.Sessions.DeleteSession(a1.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Checkpointed || r.LexicalMatches != 0 {
		t.Fatalf("receipt %+v", r)
	}
	if files := storetest.DirHolds(t, core.dataDir, "zqxcanary"); len(files) > 0 {
		t.Fatalf("the deleted conversation's canary is still in %v", files)
	}
	list, err := core.IntentCorrections(ctx)
	if err != nil || len(list) != 2 || list[0].Text != shared || list[1].Text != "ping the NAS at home" {
		t.Fatalf("corrections left = %+v, %v; want the shared text and the other conversation's", list, err)
	}

	if _, err := a.Sessions.DeleteSession(b1.Session.ID); err != nil {
		t.Fatal(err)
	}
	if files := storetest.DirHolds(t, core.dataDir, "zqxshared"); len(files) > 0 {
		t.Fatalf("the shared text is still in %v after both conversations went", files)
	}
	if _, err := os.Stat(filepath.Join(core.dataDir, IntentCorrectionsFile)); !os.IsNotExist(err) {
		t.Fatalf("the corrections file is still there with nothing in it: %v", err)
	}
}

// TestDeleteSessionRefusesDamagedCorrections: a corrections file that cannot be
// read could hold the conversation's text, so the delete is refused, with the
// file named, and the conversation is still there.
func TestDeleteSessionRefusesDamagedCorrections(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	res, err := a.Chat.SendMessage("r1", "", "a damaged file test")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(core.dataDir, IntentCorrectionsFile), []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = a.Sessions.DeleteSession(res.Session.ID)
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Message, IntentCorrectionsFile) {
		t.Fatalf("DeleteSession = %v; want a user error naming the file", err)
	}
	if _, err := core.Session(context.Background(), res.Session.ID); err != nil {
		t.Fatalf("the conversation went: %v", err)
	}
}
