package app

import (
	"context"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// When Ollama counts the whole context (it cut the start of the prompt), the
// reply says so, the report shows Ollama's count beside the estimate, and the
// next turn is built with the corrected count at once.
func TestAFullContextIsSaidAndCorrected(t *testing.T) {
	counts := []int{100000, 0} // the first prompt overflows; then the fake counts as usual
	turn := 0
	a, c, _, _ := newTestApp(t, func(req api.ChatRequest) llmtest.Reply {
		if _, ok := extractionReply(req); ok {
			return llmtest.Reply{Chunks: []string{"[]"}}
		}
		n := counts[min(turn, len(counts)-1)]
		turn++
		return llmtest.Reply{Chunks: []string{"ok"}, PromptTokens: n}
	})
	first, err := a.Chat.SendMessage("r1", "", "hello there, a long message")
	if err != nil {
		t.Fatal(err)
	}
	f := first.Assistant.Figures
	if f == nil || !f.ContextFull || f.ContextSize <= 0 || f.PromptTokens != f.ContextSize {
		t.Fatalf("figures of a cut prompt: %+v", f)
	}
	rep, err := a.Sessions.LastContext(first.Session.ID)
	if err != nil || rep.Counted != f.ContextSize || !rep.Full {
		t.Fatalf("report: counted %d full %v (%v), want %d and full", rep.Counted, rep.Full, err, f.ContextSize)
	}
	// The same, rebuilt from what the reply stored (a restart).
	stored, err := NewApp(c, nil).Chat.ReplyContext(first.Session.ID, first.Assistant.ID)
	if err != nil || stored.Counted != f.ContextSize || !stored.Full {
		t.Fatalf("stored report: counted %d full %v (%v)", stored.Counted, stored.Full, err)
	}
	ratio := c.calib.Ratio(context.Background(), f.Model)
	if ratio < 2 {
		t.Fatalf("the ratio after a full context is %v: the next turn would be cut again", ratio)
	}
	second, err := a.Chat.SendMessage("r2", first.Session.ID, "and again")
	if err != nil {
		t.Fatal(err)
	}
	if s := second.Assistant.Figures; s == nil || s.ContextFull {
		t.Fatalf("the next turn: %+v", s)
	}
	rep2, _ := a.Sessions.LastContext(first.Session.ID)
	if rep2.Tokens < int(float64(rep2.Estimated)*ratio*0.9) {
		t.Fatalf("the next turn's report: %d tokens from an estimate of %d at ratio %v", rep2.Tokens, rep2.Estimated, ratio)
	}
}
