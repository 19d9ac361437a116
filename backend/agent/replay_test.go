package agent

import (
	"context"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/prompt"
)

// What the inspector shows for a stored reply is what the model was sent: the
// replay, from the recipe alone, gives each item's text as it was in the request
// the model received, and says so when a message was deleted since.
func TestReplayShowsWhatTheModelSaw(t *testing.T) {
	f := newFixture(t, llmtest.Echo(2, 0))
	f.agent.Prompt = prompt.NewBuilder()
	f.agent.Budget = func(context.Context, []string, int) (int, int, string, int) { return 4000, 8192, "llama3.2", 4 }
	f.agent.Documents = f.sessions
	ctx := context.Background()
	first, err := f.agent.Turn(ctx, Input{Text: "my cat is called Miso"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.agent.Turn(ctx, Input{SessionID: first.Session.ID, Text: "what is my cat called?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	replay := Replay{Sessions: f.sessions, System: f.agent.SystemPrompt}
	seen, ok, err := replay.Seen(ctx, res.Session.ID, res.Assistant.ID)
	if err != nil || !ok || seen.ReplyID != res.Assistant.ID {
		t.Fatalf("seen: %v %v %+v", ok, err, seen)
	}
	reqs := f.fake.ChatRequests()
	sent := reqs[len(reqs)-1].Messages
	if len(seen.Items) != len(sent) {
		t.Fatalf("%d items, the model got %d messages", len(seen.Items), len(sent))
	}
	for i, it := range seen.Items {
		if it.Role != sent[i].Role || it.Text != sent[i].Content {
			t.Errorf("item %d (%s): %q, the model got %s %q", i, it.Reason, it.Text, sent[i].Role, sent[i].Content)
		}
	}
	// "" is the session's newest reply.
	if newest, _, _ := replay.Seen(ctx, res.Session.ID, ""); newest.ReplyID != res.Assistant.ID {
		t.Fatalf("newest = %q", newest.ReplyID)
	}
	// A message deleted since is named as such, never shown from a stale copy.
	if _, err := f.sessions.DeleteTurn(ctx, res.Session.ID, first.User.ID); err != nil {
		t.Fatal(err)
	}
	seen, _, _ = replay.Seen(ctx, res.Session.ID, res.Assistant.ID)
	var texts []string
	for _, it := range seen.Items {
		texts = append(texts, it.Text)
	}
	if all := strings.Join(texts, "|"); strings.Contains(all, "Miso") || !strings.Contains(all, "(a message deleted since)") {
		t.Fatalf("after deleting the first turn: %q", all)
	}
}
