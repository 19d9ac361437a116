package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// TestAgentCLI: `hermes chat` offers the sub-agents like the window does; the
// stored conversation shows the delegation's channel; a channel's window is
// built from that channel only; agent list/disable work and mistakes exit 2.
func TestAgentCLI(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case strings.Contains(req.Messages[0].Content, "Hermes' researcher"):
			return llmtest.Reply{Chunks: []string{"Found: the March invoice"}}
		case last.Role == "tool":
			return llmtest.Reply{Chunks: []string{"Done: " + last.Content}}
		}
		var args api.ToolCallFunctionArguments
		_ = json.Unmarshal([]byte(`{"task":"find the invoice"}`), &args)
		return llmtest.Reply{ToolCalls: []api.ToolCall{{ID: "call_1", Function: api.ToolCallFunction{Name: "agent__researcher", Arguments: args}}}}
	}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_DATA_DIR": t.TempDir()}

	r := runCLI(t, env, "", "--json", "chat", "please research what we decided about the invoices")
	var turn struct {
		Session   struct{ ID string }
		Assistant struct{ Content string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil || !strings.Contains(turn.Assistant.Content, "Found: the March invoice") {
		t.Fatalf("chat: %+v", r)
	}
	r = runCLI(t, env, "", "session", "show", turn.Session.ID, "--json")
	var d struct {
		Messages []struct {
			Role, Channel string
			Thread        []struct{ Role, Channel, Content string }
		}
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || len(d.Messages) != 3 || len(d.Messages[1].Thread) != 2 ||
		d.Messages[1].Thread[0].Channel != "researcher" || d.Messages[0].Channel != "main" {
		t.Fatalf("session show: %+v", r)
	}
	r = runCLI(t, env, "", "session", "context", "--session", turn.Session.ID, "--channel", "researcher")
	if r.code != 0 || !strings.Contains(r.stdout, "Hermes' researcher") || !strings.Contains(r.stdout, "find the invoice") ||
		strings.Contains(r.stdout, "please research") {
		t.Fatalf("context --channel: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "context", "--session", turn.Session.ID, "--channel", "nobody"); r.code != 2 {
		t.Fatalf("unknown channel: %+v", r)
	}
	if r = runCLI(t, env, "", "agent", "disable", "editor"); r.code != 0 {
		t.Fatalf("disable: %+v", r)
	}
	r = runCLI(t, env, "", "agent", "list", "--json")
	var list []struct {
		Name     string
		Disabled bool
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 2 || list[0].Name != "editor" || !list[0].Disabled || list[1].Disabled {
		t.Fatalf("agent list: %+v", r)
	}
	if r = runCLI(t, env, "", "agent", "enable", "nobody"); r.code != 2 || !strings.Contains(r.stderr, "nobody") {
		t.Fatalf("unknown agent: %+v", r)
	}
}
