package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// thinkingApp is an app whose chat model, qwen3, thinks before it answers
// (and answers extraction and summary requests with structured output).
func thinkingApp(t *testing.T) (*App, *Core, *llmtest.Server, *events) {
	t.Helper()
	a, core, fake, ev := newTestApp(t, nil)
	fake.Models = append(fake.Models, llmtest.Model{Name: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "tools", "thinking"}})
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if r, ok := extractionReply(req); ok {
			r.Thinking = []string{"(extraction reasoning)"}
			return r
		}
		if strings.Contains(string(req.Format), `"title"`) {
			return llmtest.Reply{Thinking: []string{"(title reasoning)"}, Chunks: []string{`{"title":"Peanuts","summary":"- allergic"}`}}
		}
		return llmtest.Reply{Thinking: []string{"The user", " states a", " fact."}, Chunks: []string{"Noted", "."}}
	}
	if _, err := a.Settings.SetSetting("chat_model", "qwen3"); err != nil {
		t.Fatal(err)
	}
	return a, core, fake, ev
}

func TestThinkingStreamsIsStoredAndNeverSentBack(t *testing.T) {
	a, core, fake, ev := thinkingApp(t)
	res, err := a.Chat.SendMessage("r1", "", "Please remember that I'm allergic to peanuts.")
	if err != nil {
		t.Fatal(err)
	}
	var thinking, text strings.Builder
	for _, e := range ev.got {
		name, payload, _ := strings.Cut(e, " ")
		if name != "chat:delta:r1" {
			continue
		}
		var d Delta
		if err := json.Unmarshal([]byte(payload), &d); err != nil {
			t.Fatal(err)
		}
		if text.Len() > 0 && d.Thinking != "" {
			t.Errorf("reasoning streamed after the answer began: %q", d.Thinking)
		}
		thinking.WriteString(d.Thinking)
		text.WriteString(d.Text)
	}
	if thinking.String() != "The user states a fact." || text.String() != "Noted." {
		t.Fatalf("streamed reasoning %q, answer %q", thinking.String(), text.String())
	}
	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Messages[len(d.Messages)-1]
	if got.Thinking != "The user states a fact." || got.Content != "Noted." {
		t.Fatalf("stored reply: thinking %q, content %q", got.Thinking, got.Content)
	}
	if f := got.Figures; f == nil || f.ThinkingTokens != 3 || f.CompletionTokens < 3 {
		t.Errorf("figures = %+v; want 3 thinking tokens counted", f)
	}
	// Exported with the reply.
	md, err := core.sessions.ExportMarkdown(context.Background(), res.Session.ID)
	if err != nil || !strings.Contains(md, "<summary>Thinking</summary>") || !strings.Contains(md, "The user states a fact.") {
		t.Errorf("the Markdown export lacks the reasoning: %v\n%s", err, md)
	}
	// The next turn carries the answer, not the reasoning.
	if _, err := a.Chat.SendMessage("r2", res.Session.ID, "And what else?"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	last := reqs[len(reqs)-1]
	carried := false
	for _, m := range last.Messages {
		if strings.Contains(m.Content, "states a fact") || strings.Contains(m.Thinking, "states a fact") {
			t.Errorf("the reasoning went back to the model in a %s message", m.Role)
		}
		carried = carried || (m.Role == "assistant" && m.Content == "Noted.")
	}
	if !carried {
		t.Error("the earlier answer is not in the next request")
	}
	if last.Think != nil {
		t.Errorf("a chat with the default Think sent think=%v; want it left to the model", last.Think)
	}
}

func TestBackgroundCallsDoNotThink(t *testing.T) {
	a, core, fake, _ := thinkingApp(t)
	res, err := a.Chat.SendMessage("r1", "", "Please remember that I'm allergic to peanuts.")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := core.RunMemoryJobs(context.Background()); err != nil || n == 0 {
		t.Fatalf("memory jobs = %d, %v", n, err)
	}
	core.sessions.Now = func() time.Time { return time.Now().Add(time.Hour) }
	if _, err := core.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, req := range fake.ChatRequests() {
		kind := "turn"
		switch {
		case strings.Contains(string(req.Format), `"facts"`):
			kind = "extraction"
		case strings.Contains(string(req.Format), `"title"`):
			kind = "title and summary"
		}
		kinds[kind] = true
		background := kind != "turn"
		if background && (req.Think == nil || !req.Think.IsBool() || req.Think.Bool()) {
			t.Errorf("%s request sent think=%v; want false", kind, req.Think)
		}
		if !background && req.Think != nil {
			t.Errorf("the chat turn sent think=%v; want the model's own choice", req.Think)
		}
	}
	if !kinds["extraction"] || !kinds["title and summary"] {
		t.Fatalf("requests seen: %v", kinds)
	}
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	if d.Session.Title != "Peanuts" {
		t.Errorf("title = %q", d.Session.Title)
	}
}

func TestThinkSettingReachesTheModel(t *testing.T) {
	a, _, fake, _ := thinkingApp(t)
	s, err := a.Chat.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SetSessionSettings(s.ID, `{"think":"high"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r1", s.ID, "hard question"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	if v := reqs[len(reqs)-1].Think; v == nil || v.String() != "high" {
		t.Errorf("think = %v; want high", v)
	}
	if _, err := a.Chat.SetSessionSettings(s.ID, `{"think":"sometimes"}`); err == nil || !IsBadInput(err) {
		t.Errorf("a bad Think value: %v", err)
	}
	// A model that cannot think, asked to: a clear message, not Ollama's 400.
	if _, err := a.Chat.SetSessionSettings(s.ID, `{"think":"on","model":"llama3.2"}`); err != nil {
		t.Fatal(err)
	}
	_, err = a.Chat.SendMessage("r2", s.ID, "think please")
	var ue *UserError
	if err == nil || !errors.As(err, &ue) || ue.Code != CodeCannotThink || !strings.Contains(ue.Message, "llama3.2") {
		t.Fatalf("thinking asked of llama3.2: %v", err)
	}
}
