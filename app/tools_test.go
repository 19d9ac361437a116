package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/tools"
)

func call(name string, args map[string]any) api.ToolCall {
	a := api.NewToolCallFunctionArguments()
	for k, v := range args {
		a.Set(k, v)
	}
	return api.ToolCall{Function: api.ToolCallFunction{Name: name, Arguments: a}}
}

// toolRounds counts the tool results the model has been sent in this turn, and
// gives the last one's text without its fence.
func toolRounds(req api.ChatRequest) (int, string) {
	n, last := 0, ""
	for _, m := range req.Messages {
		if m.Role == "tool" {
			n++
			last = unfence(m.Content)
		}
		if m.Role == "user" {
			n, last = 0, ""
		}
	}
	return n, last
}

func TestToolLoopRepairsBadArgumentsAndAnswers(t *testing.T) {
	a, core, fake, ev := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		n, last := toolRounds(req)
		switch n {
		case 0: // a call with a wrong argument name
			return llmtest.Reply{ToolCalls: []api.ToolCall{call("calculator", map[string]any{"expr": "2+3*4"})}}
		case 1:
			if !strings.Contains(last, `"error":"invalid_arguments"`) {
				return llmtest.Reply{Chunks: []string{"wrong: " + last}}
			}
			return llmtest.Reply{ToolCalls: []api.ToolCall{call("calculator", map[string]any{"expression": "2+3*4"})}}
		default:
			return llmtest.Reply{Chunks: llmtest.Words("The answer is 14.")}
		}
	}
	// "what is 2+3*4" is a task: the task tools (and read-only ones) are offered.
	res, err := a.Chat.SendMessage("req-calc", "", "please calculate 2+3*4 for me")
	if err != nil {
		t.Fatal(err)
	}
	if res.Assistant.Content != "The answer is 14." || len(res.Tools) != 2 || res.Tools[0].ErrorKind != "invalid_arguments" || res.Tools[1].Status != "ok" {
		t.Fatalf("result = %+v", res)
	}
	if !strings.Contains(res.Tools[1].Result, "14") {
		t.Fatalf("tool result = %q", res.Tools[1].Result)
	}
	reqs := fake.ChatRequests()
	if len(reqs[0].Tools) == 0 {
		t.Fatal("no tools were offered")
	}
	rows, err := core.toolActivity(context.Background(), tools.AuditFilter{SessionID: res.Session.ID})
	if err != nil || len(rows) != 2 || rows[0].Status != "ok" || rows[1].ErrorKind != "invalid_arguments" || rows[0].RequestID != "req-calc" {
		t.Fatalf("audit = %+v, %v", rows, err)
	}
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	if len(d.Messages) != 4 || d.Messages[1].Role != "tool" || d.Messages[3].Role != "assistant" {
		t.Fatalf("stored = %+v", d.Messages)
	}
	// A reloaded conversation shows the cards the live turn showed.
	for i, live := range res.Tools {
		stored := d.Messages[1+i].Tool
		if stored == nil {
			t.Fatalf("tool message %d kept no details", i)
		}
		if stored.Tool != live.Tool || stored.Args != live.Args || stored.Status != live.Status || stored.ErrorKind != live.ErrorKind ||
			stored.Result != live.Result || stored.LatencyMs != live.LatencyMs {
			t.Fatalf("reloaded card %d = %+v, live = %+v", i, *stored, live)
		}
	}
	if d.Messages[3].Stop != nil || d.Messages[3].Unverified {
		t.Fatalf("reply flags = %+v", d.Messages[3])
	}
	found := false
	for _, e := range ev.got {
		found = found || strings.HasPrefix(e, "chat:tool:req-calc ")
	}
	if !found {
		t.Fatal("no chat:tool event")
	}
}

func TestToolApprovalDialog(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tools.yaml"), []byte(`version: 1
tools:
  - name: shout
    description: Print a message on the console.
    parameters:
      type: object
      properties:
        text: {type: string}
      required: [text]
    command:
      argv: [/bin/echo, "{{text}}"]
`), 0o600)
	fake := llmtest.New()
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL}
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	if errs := core.ToolFileErrors(); len(errs) != 0 {
		t.Fatalf("tools.yaml: %v", errs)
	}
	prompts := make(chan ApprovalPrompt, 4)
	const userTakes = 800 * time.Millisecond
	a := NewApp(core, func(name string, data any) {
		if p, ok := data.(ApprovalPrompt); ok && name == "approval:needed" {
			prompts <- p
		}
	})
	for _, tc := range []struct {
		name  string
		allow bool
		want  string
	}{{"allowed", true, "; rm -rf /tmp/x"}, {"denied", false, "denied_by_user"}} {
		t.Run(tc.name, func(t *testing.T) {
			fake.Chat = func(req api.ChatRequest) llmtest.Reply {
				if n, last := toolRounds(req); n > 0 {
					return llmtest.Reply{Chunks: []string{"tool said: " + last}}
				}
				return llmtest.Reply{ToolCalls: []api.ToolCall{call("shout", map[string]any{"text": "; rm -rf /tmp/x"})}}
			}
			go func() {
				select {
				case p := <-prompts:
					var args map[string]string
					json.Unmarshal(p.Args, &args)
					if p.Tool != "shout" || args["text"] != "; rm -rf /tmp/x" {
						t.Errorf("prompt = %+v", p)
					}
					time.Sleep(userTakes) // the user reads the arguments
					a.Chat.ResolveApproval(p.ID, tc.allow, "once")
				case <-time.After(5 * time.Second):
					t.Error("no approval prompt")
				}
			}()
			res, err := a.Chat.SendMessage("req-"+tc.name, "", "run the shout tool with my text please")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Assistant.Content, tc.want) {
				t.Fatalf("reply = %q; want it to contain %q", res.Assistant.Content, tc.want)
			}
			// The reply's times are Hermes's and the model's: the user's reading is left out.
			if f := res.Assistant.Figures; f == nil || f.FirstTokenMs >= userTakes.Milliseconds() || f.TotalMs >= userTakes.Milliseconds() {
				t.Errorf("figures %+v count the %v the user took to approve", f, userTakes)
			}
		})
	}
}

func TestLoopGuardStopsAndContinueOnce(t *testing.T) {
	a, _, fake, _ := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply { // a model stuck calling the same thing
		return llmtest.Reply{ToolCalls: []api.ToolCall{call("calculator", map[string]any{"expression": "1+1"})}}
	}
	res, err := a.Chat.SendMessage("req-loop", "", "please calculate 1+1 for me")
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop == nil || len(res.Tools) < 4 || res.Tools[3].ErrorKind != "repeated_call" {
		t.Fatalf("guard did not stop the loop: %+v", res)
	}
	// The figures the UI words the stop by (its message is English).
	if res.Stop.Iterations == 0 && res.Stop.Failures == 0 {
		t.Fatalf("stop without its figures: %+v", res.Stop)
	}
	// The stop survives a reload, on the stored reply, with the blocked call's exact status.
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "assistant" || last.Stop == nil || *last.Stop != *res.Stop {
		t.Fatalf("reloaded reply = %+v; live stop = %+v", last, res.Stop)
	}
	if blocked := d.Messages[4].Tool; blocked == nil || blocked.Status != "blocked" || blocked.ErrorKind != "repeated_call" {
		t.Fatalf("reloaded blocked call = %+v", d.Messages[4])
	}
	// Continue once: one more round, then the model answers.
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{"1+1 is 2."}}
	}
	res2, err := a.Chat.ContinueTurn("req-cont", res.Session.ID)
	if err != nil || res2.Assistant.Content != "1+1 is 2." || res2.User.ID != res.User.ID {
		t.Fatalf("continue = %+v, %v", res2, err)
	}
}

func TestUnverifiedClaimIsFlagged(t *testing.T) {
	a, _, fake, _ := newTestApp(t, nil)
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{"I've saved the file to your desktop."}}
	}
	res, err := a.Chat.SendMessage("req-claim", "", "save my notes to a file")
	if err != nil || !res.Unverified {
		t.Fatalf("unverified = %v, %v", res.Unverified, err)
	}
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	if last := d.Messages[len(d.Messages)-1]; !last.Unverified {
		t.Fatalf("the flag did not survive a reload: %+v", last)
	}
}

// tools.yaml is watched like workflows.yaml and agents.yaml: a tool added,
// changed or removed is in the registry within a few seconds, without a
// restart, the window is told (tools:changed), and a new mistake is reported
// while the good tools stay.
func TestToolsFileReloadsLive(t *testing.T) {
	a, c, _, ev := newTestApp(t, llmtest.Echo(0, 0))
	ev.ch = make(chan string, 8)
	file := filepath.Join(c.dataDir, "tools.yaml")
	tool := func(name, word string) string {
		return "  - name: " + name + "\n    description: Print " + word + ".\n" +
			"    parameters: {type: object, properties: {}}\n    command:\n      argv: [/bin/echo, " + word + "]\n"
	}
	names := func() map[string]string {
		list, err := a.Tools.ListTools()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, ti := range list {
			out[ti.Name] = ti.Description
		}
		return out
	}
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte("version: 1\ntools:\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(3 * fileWatchEvery)
		for {
			select {
			case name := <-ev.ch:
				if name == "tools:changed" {
					return
				}
			case <-deadline:
				t.Fatalf("tools.yaml changed, no tools:changed within %v", 3*fileWatchEvery)
			}
		}
	}
	if _, ok := names()["shout"]; ok {
		t.Fatal("shout before tools.yaml has it")
	}
	write(tool("shout", "loud"))
	if got := names(); got["shout"] != "Print loud." {
		t.Fatalf("after adding shout: %v", got)
	}
	write(tool("shout", "louder") + tool("whisper", "soft"))
	if got := names(); got["shout"] != "Print louder." || got["whisper"] != "Print soft." {
		t.Fatalf("after changing shout and adding whisper: %v", got)
	}
	write(tool("whisper", "soft") + tool("calculator", "clash") + "  - name: broken\n")
	got := names()
	if _, ok := got["shout"]; ok || got["whisper"] != "Print soft." {
		t.Fatalf("after removing shout: %v", got)
	}
	var said []string
	for _, e := range c.ToolFileErrors() {
		said = append(said, e.Error())
	}
	if len(said) < 2 || !strings.Contains(said[0], `"broken": description: is missing`) || !strings.Contains(said[len(said)-1], `"calculator": a tool with this name is already registered`) {
		t.Fatalf("mistakes: %q", said)
	}
}
