package summary

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/session"
	"hermes/backend/store"
)

type modelLLM struct{ c *llm.Client }

func (m modelLLM) Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error) {
	req.Models = []string{"llama3.2"}
	return m.c.Chat(ctx, req, fn)
}

func TestSummarizerIsIncremental(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := session.NewStore(db)
	s, _ := st.Create(ctx, "")
	say := func(texts ...string) {
		for i, tx := range texts {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			if _, err := st.Append(ctx, session.Message{SessionID: s.ID, Role: role, Content: tx}); err != nil {
				t.Fatal(err)
			}
		}
	}
	fake := llmtest.New()
	var prompts []string
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		prompts = append(prompts, req.Messages[1].Content)
		return llmtest.Reply{Chunks: []string{"- summary v", string(rune('0' + len(prompts)))}}
	}
	srv := fake.Start()
	defer srv.Close()
	client, _ := llm.New(llm.Config{Host: srv.URL}, nil)
	sum := &Summarizer{LLM: modelLLM{client}, Store: st, KeepTurns: 2, MinMessages: 2}

	say("I adopted a cat named Miso.", "Lovely!", "She is three years old.", "Nice.", "recent one", "ok", "recent two", "ok")
	changed, kind, err := sum.Refresh(ctx, s.ID)
	if err != nil || !changed || kind != "llm" {
		t.Fatalf("refresh: %v %v %v", changed, kind, err)
	}
	got, _ := st.Get(ctx, s.ID)
	if got.Summary != "- summary v1" || got.SummaryUpto != 4 || !strings.Contains(prompts[0], "Miso") || strings.Contains(prompts[0], "recent one") {
		t.Fatalf("after first refresh: %+v; prompt %q", got, prompts[0])
	}
	// Nothing new left the window: no call.
	if changed, _, _ := sum.Refresh(ctx, s.ID); changed || len(prompts) != 1 {
		t.Fatal("refreshed with nothing new")
	}
	say("third", "ok", "fourth", "ok")
	sum.Refresh(ctx, s.ID)
	// The second call sees the previous summary and only the new messages.
	if len(prompts) != 2 || !strings.Contains(prompts[1], "Current summary:\n- summary v1") || strings.Contains(prompts[1], "Miso") || !strings.Contains(prompts[1], "recent one") {
		t.Fatalf("second prompt = %q", prompts[1])
	}

	// Ollama down: the extractive fallback appends to the summary.
	fake.Chat = func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{Status: 500, Error: "boom"} }
	say("I moved to Porto last month.", "ok", "x", "ok", "y", "ok")
	changed, kind, err = sum.Refresh(ctx, s.ID)
	got, _ = st.Get(ctx, s.ID)
	if err != nil || !changed || kind != "extractive" || !strings.HasPrefix(got.Summary, "- summary v2\n- The user said: third") || !strings.Contains(got.Summary, "Porto") {
		t.Fatalf("extractive: %v %v %v %q", changed, kind, err, got.Summary)
	}
}

// The idle close asks the same summariser for a title and a summary as JSON: the
// rolling summary so far and the newest turns only; an answer that is not the JSON
// asked for is an error (the lifecycle then keeps the extractive summary).
func TestCloseTitlesAndSummarises(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := session.NewStore(db)
	s, _ := st.Create(ctx, "")
	for i := range 50 {
		role := map[bool]string{true: "user", false: "assistant"}[i%2 == 0]
		if _, err := st.Append(ctx, session.Message{SessionID: s.ID, Role: role, Content: "turn " + strings.Repeat("x", i) + "|" + string(rune('A'+i%26))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetChannelSummary(ctx, s.ID, session.MainChannel, "- earlier: the user adopted a cat", "llm", 10); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New()
	var got api.ChatRequest
	answer := `{"title":"  Cat care plans  ","summary":" - adopted a cat\n- plans "}`
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		got = req
		return llmtest.Reply{Chunks: []string{answer}}
	}
	srv := fake.Start()
	defer srv.Close()
	client, _ := llm.New(llm.Config{Host: srv.URL}, nil)
	sum := &Summarizer{LLM: modelLLM{client}, Store: st}
	sess, _ := st.Get(ctx, s.ID)
	msgs, _ := st.Messages(ctx, s.ID)
	summary, title, err := sum.Close(ctx, sess, msgs)
	if err != nil || title != "Cat care plans" || summary != "- adopted a cat\n- plans" {
		t.Fatalf("close = %q, %q, %v", summary, title, err)
	}
	prompt := got.Messages[1].Content
	if len(got.Format) == 0 || !strings.HasPrefix(prompt, "Earlier summary:\n- earlier: the user adopted a cat") ||
		strings.Contains(prompt, "turn |A") || !strings.Contains(prompt, msgs[len(msgs)-1].Content) {
		t.Fatalf("format %s; prompt %q", got.Format, prompt)
	}
	answer = "Sure! Here is a title: Cats"
	if _, _, err := sum.Close(ctx, sess, msgs); err == nil || !strings.Contains(err.Error(), "not the JSON asked for") {
		t.Fatalf("a free-text answer: %v", err)
	}
}
