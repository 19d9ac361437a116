package app

import (
	"context"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// extractionReply answers the memory extraction request (structured output) with one fact.
func extractionReply(req api.ChatRequest) (llmtest.Reply, bool) {
	if !strings.Contains(string(req.Format), `"facts"`) {
		return llmtest.Reply{}, false
	}
	return llmtest.Reply{Chunks: []string{`{"facts":[{"text":"I am allergic to peanuts","key":"allergy.peanuts","value":"peanuts",`,
		`"category":"health","scope":"lasting","asserted":"stated","confidence":0.95}]}`}}, true
}

func TestRememberThenRecallWithSource(t *testing.T) {
	a, core, fake, ev := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if r, ok := extractionReply(req); ok {
			return r
		}
		return llmtest.Echo(0, 0)(req)
	}
	ctx := context.Background()
	res, err := a.SendMessage("r1", "", "Please remember that I'm allergic to peanuts.")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := core.RunMemoryJobs(ctx); err != nil || n == 0 {
		t.Fatalf("jobs = %d, %v", n, err)
	}
	list, err := a.MemoryList(`{"statuses":["active"]}`)
	if err != nil || len(list) != 1 || list[0].Text != "I am allergic to peanuts" || list[0].SourceMessageIDs[0] != res.User.ID {
		t.Fatalf("memories = %+v, %v", list, err)
	}
	changed := false
	for _, e := range ev.got {
		changed = changed || strings.HasPrefix(e, "memory:changed ")
	}
	if !changed {
		t.Fatal("no memory:changed event")
	}
	// A recall turn offers it to the model with its source.
	if _, err := a.SendMessage("r2", "", "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	var sawMemory bool
	for _, m := range reqs[len(reqs)-1].Messages {
		sawMemory = sawMemory || (strings.Contains(m.Content, "allergic to peanuts") && strings.Contains(m.Content, "you told me on"))
	}
	if !sawMemory {
		t.Fatalf("the memory was not offered: %+v", reqs[len(reqs)-1].Messages)
	}
	// Incognito: nothing read.
	a.SetIncognito("true")
	if _, err := a.SendMessage("r3", "", "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	reqs = fake.ChatRequests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "you told me on") {
			t.Fatal("incognito turn read memory")
		}
	}
	// Forget with a receipt proving it is gone.
	r, err := a.MemoryForget(`["` + list[0].ID + `"]`)
	if err != nil || r.Count != 1 || r.LexicalMatches != 0 || r.VectorMatches != 0 {
		t.Fatalf("receipt = %+v, %v", r, err)
	}
	if hits, _ := a.MemorySearch("peanuts", "5"); len(hits) != 0 {
		t.Fatalf("still found: %+v", hits)
	}
}

func TestHypotheticalIsNeverRemembered(t *testing.T) {
	a, core, fake, _ := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if r, ok := extractionReply(req); ok {
			return r
		}
		return llmtest.Echo(0, 0)(req)
	}
	if _, err := a.SendMessage("r1", "", "What if I were allergic to peanuts? Just imagine."); err != nil {
		t.Fatal(err)
	}
	core.RunMemoryJobs(context.Background())
	if list, _ := a.MemoryList(""); len(list) != 0 {
		t.Fatalf("a hypothetical was written to memory: %+v", list)
	}
}
