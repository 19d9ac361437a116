package cli

import (
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
)

// TestChatThinking: a thinking model's reasoning goes to stderr only when
// asked (a script's stderr is not a terminal), the answer alone to stdout;
// --think is stored as the chat's setting and sent; a model that cannot think
// asked to is refused in words, exit 1 (the request failed, not the input).
func TestChatThinking(t *testing.T) {
	rec := &recorder{}
	url := rec.startWith(t, llmtest.Reply{Thinking: []string{"Weighing", " the options."}, Chunks: []string{"Tea."}},
		llmtest.Model{Name: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "thinking"}})
	env := map[string]string{"OLLAMA_HOST": url, "HERMES_DATA_DIR": t.TempDir()}
	lastThink := func() string {
		if v := rec.last(t).Think; v != nil {
			return v.String()
		}
		return "<nil>"
	}

	r := runCLI(t, env, "", "chat", "--model", "qwen3", "tea or coffee?")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Tea." || strings.Contains(r.stderr, "Weighing") {
		t.Fatalf("a script without --show-thinking: %+v", r)
	}
	r = runCLI(t, env, "", "chat", "--model", "qwen3", "--show-thinking", "--think", "high", "tea or coffee?")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Tea." || !strings.Contains(r.stderr, "Thinking… Weighing the options.\n") {
		t.Fatalf("--show-thinking: %+v", r)
	}
	if strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("escape codes written to a stderr that is not a terminal: %q", r.stderr)
	}
	if got := lastThink(); got != "high" {
		t.Errorf("--think high sent think=%s", got)
	}
	r = runCLI(t, env, "", "chat", "--think", "perhaps", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, "default, on, off, low, medium or high") {
		t.Errorf("--think perhaps: %+v; want exit 2 naming the choices", r)
	}
	r = runCLI(t, env, "", "chat", "--model", "llama3.2", "--think", "on", "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "llama3.2 cannot think") {
		t.Errorf("thinking asked of llama3.2: %+v", r)
	}
}
