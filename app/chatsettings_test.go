package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// The fake Ollama sees a chat's own system prompt, model, temperature and
// context size on the next turn.
func TestChatSettingsReachTheModel(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	fake.Models = append(fake.Models, llmtest.Model{Name: "qwen2.5", ContextLength: 32768, Capabilities: []string{"completion", "tools"}})
	first, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	sid := first.Session.ID
	def, err := a.Chat.SessionSettings(sid)
	if err != nil || def.System != "" || def.Defaults.Model != "llama3.2" || def.Defaults.NumCtx != 8192 || !strings.HasPrefix(def.Defaults.System, "You are Hermes") {
		t.Fatalf("default settings = %+v, %v", def, err)
	}
	cs, err := a.Chat.SetSessionSettings(sid, `{"system":"You are a pirate. Say arr.","model":"qwen2.5","temperature":0.3,"numCtx":16384}`)
	if err != nil || cs.Model != "qwen2.5" || cs.NumCtx != 16384 || cs.Temperature == nil || *cs.Temperature != 0.3 {
		t.Fatalf("set = %+v, %v", cs, err)
	}
	if _, err := a.Chat.SendMessage("r2", sid, "ahoy"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	req := reqs[len(reqs)-1]
	if req.Model != "qwen2.5" || len(req.Messages) == 0 || req.Messages[0].Role != "system" || withoutFenceRule(req.Messages[0].Content) != "You are a pirate. Say arr." {
		t.Fatalf("request model %q, messages %+v", req.Model, req.Messages)
	}
	if req.Options["temperature"] != 0.3 || req.Options["num_ctx"] != float64(16384) {
		t.Fatalf("options = %#v", req.Options)
	}
	rep, err := a.Sessions.LastContext(sid)
	if err != nil || rep.Settings == nil || !rep.Settings.Custom || rep.Settings.System != "You are a pirate. Say arr." ||
		rep.Settings.Model != "qwen2.5" || rep.Settings.NumCtx != 16384 || rep.Settings.Temperature == nil {
		t.Fatalf("live report settings = %+v, %v", rep.Settings, err)
	}
	a.Chat.contexts.stale() // as after a restart: rebuilt from the stored recipe
	rep, err = a.Sessions.LastContext(sid)
	if err != nil || rep.Settings == nil || rep.Settings.System != "You are a pirate. Say arr." || rep.Settings.NumCtx != 16384 ||
		len(rep.Items) == 0 || !strings.HasPrefix(rep.Items[0].Preview, "You are a pirate. Say arr.") {
		t.Fatalf("stored report = %+v, %v", rep, err)
	}
	// The next turn's window, as the inspector and `session context` show it, is
	// built as the turn builds it: the chat's own system prompt, the chat's model's budget.
	next, err := core.ChannelContext(context.Background(), sid, "main")
	if err != nil || len(next.Items) == 0 || next.Items[0].Content != "You are a pirate. Say arr." || next.Budget != rep.Budget {
		t.Fatalf("next window: budget %d (turn's %d), items %+v, %v", next.Budget, rep.Budget, next.Items, err)
	}

	// A context larger than the model's own is cut to it; other chats keep the defaults.
	if _, err := a.Chat.SetSessionSettings(sid, `{"model":"llama3.2","numCtx":65536}`); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r3", sid, "again"); err != nil {
		t.Fatal(err)
	}
	other, err := a.Chat.SendMessage("r4", "", "elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	reqs = fake.ChatRequests()
	if r := reqs[len(reqs)-2]; r.Options["num_ctx"] != float64(8192) || r.Options["temperature"] != nil || !strings.HasPrefix(r.Messages[0].Content, "You are Hermes") {
		t.Fatalf("clamped request: options %#v, system %q", r.Options, r.Messages[0].Content)
	}
	if r := reqs[len(reqs)-1]; r.Model != "llama3.2" || r.Options["temperature"] != nil || r.Options["num_ctx"] != float64(8192) {
		t.Fatalf("another chat's request: %s %#v", r.Model, r.Options)
	}
	_ = other
}

func TestSetSessionSettingsRefusesBadValues(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	sid := res.Session.ID
	cases := []struct{ name, json, want, code string }{
		// A model is checked against the installed ones, and refused by reason (worded by the UI).
		{"not installed", `{"model":"mistral"}`, "not installed", CodeBadSetting},
		{"embedding model", `{"model":"nomic-embed-text"}`, "cannot chat", CodeBadSetting},
		{"temperature", `{"temperature":2.5}`, "between 0 and 2", CodeInvalidInput},
		{"context", `{"numCtx":100}`, "between 512", CodeInvalidInput},
		{"unknown field", `{"temp":1}`, "not a JSON object", CodeInvalidInput},
		{"unknown preset", `{"preset":"Nope"}`, "no such preset", CodeInvalidInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.Chat.SetSessionSettings(sid, c.json)
			if err == nil || !strings.Contains(err.Error(), c.want) || ErrorCode(err) != c.code || !IsBadInput(err) {
				t.Fatalf("SetSessionSettings(%s) = %v (code %s), want %q", c.json, err, ErrorCode(err), c.want)
			}
		})
	}
	if _, err := a.Chat.SetSessionSettings("no-such-chat", `{}`); ErrorCode(err) != CodeNotFound {
		t.Fatalf("unknown chat: %v", err)
	}
	if cs, _ := a.Chat.SessionSettings(sid); cs.Model != "" || cs.Temperature != nil {
		t.Fatalf("a refused change was kept: %+v", cs)
	}
}

func TestSystemPresetsAPI(t *testing.T) {
	a, _, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	ps, err := a.Chat.SystemPresets()
	if err != nil || len(ps) != 3 {
		t.Fatalf("presets = %+v, %v", ps, err)
	}
	names := []string{}
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if strings.Join(names, "|") != "Concise|Explain like a teacher|Translator EN↔ZH" {
		t.Fatalf("built-in presets = %v", names)
	}
	if ps, err = a.Chat.SaveSystemPreset("Pirate", "You are a pirate."); err != nil || len(ps) != 4 {
		t.Fatalf("after save: %+v, %v", ps, err)
	}
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := a.Chat.SetSessionSettings(res.Session.ID, `{"preset":"pirate"}`); err != nil || cs.System != "You are a pirate." {
		t.Fatalf("from preset: %+v, %v", cs, err)
	}
	if _, err := a.Chat.SendMessage("r2", res.Session.ID, "ahoy"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	if got := withoutFenceRule(reqs[len(reqs)-1].Messages[0].Content); got != "You are a pirate." {
		t.Fatalf("system = %q", got)
	}
	if ps, err = a.Chat.DeleteSystemPreset("Pirate"); err != nil || len(ps) != 3 {
		t.Fatalf("after delete: %+v, %v", ps, err)
	}
	if _, err = a.Chat.SaveSystemPreset("", "x"); ErrorCode(err) != CodeInvalidInput {
		t.Fatalf("nameless preset: %v", err)
	}
	b, _ := json.Marshal(ps[0])
	if !strings.Contains(string(b), `"builtin":true`) {
		t.Fatalf("preset JSON = %s", b)
	}
	var _ = api.ChatRequest{}
}
