package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(Env{
		Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, Assets: fstest.MapFS{}, Started: time.Now(),
		IntentModel: os.DirFS("../../models/intent"),
	})
	return result{code, out.String(), errb.String()}
}

func fakeOllama(t *testing.T) string {
	t.Helper()
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(2, 0)
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	return srv.URL
}

func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestChatAndSessions(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "chat", "hello", "cli")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Echo: hello cli") || !strings.Contains(r.stderr, "session: ") {
		t.Fatalf("chat: %+v", r)
	}
	id := strings.TrimSpace(strings.TrimPrefix(r.stderr[strings.Index(r.stderr, "session: "):], "session: "))

	r = runCLI(t, env, "", "--json", "chat", "--session", id, "again")
	var turn struct {
		Session   struct{ ID string }
		Assistant struct{ Content, Status string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil || turn.Session.ID != id || turn.Assistant.Status != "ok" {
		t.Fatalf("chat --json: %+v", r)
	}

	r = runCLI(t, env, "", "session", "list", "--json")
	var list []struct {
		ID           string
		MessageCount int
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 1 || list[0].MessageCount != 4 {
		t.Fatalf("session list: %+v", r)
	}
	r = runCLI(t, env, "", "session", "show", id)
	if r.code != 0 || !strings.Contains(r.stdout, "user:\nhello cli") || !strings.Contains(r.stdout, "assistant:\nEcho: again") {
		t.Fatalf("session show: %+v", r)
	}
}

func TestREPL(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "first\n\nsecond\n", "chat")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: first") || !strings.Contains(r.stdout, "Echo: second") {
		t.Fatalf("repl: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "list")
	if !strings.Contains(r.stdout, `"messageCount": 4`) {
		t.Fatalf("both REPL turns should share one session: %s", r.stdout)
	}
}

func TestBadInputExitsNonZero(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	cases := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"unknown session", []string{"chat", "--session", "nope", "hi"}, 2, `no session "nope"`},
		{"bad flag", []string{"chat", "--bogus"}, 2, "flag provided but not defined"},
		{"invalid setting names field", []string{"settings", "set", "token_gap_timeout", "soon"}, 2, "token_gap_timeout"},
		{"a value after -- is the value", []string{"settings", "set", "token_gap_timeout", "--", "-5s"}, 2, "token_gap_timeout"},
		{"unknown setting", []string{"settings", "get", "colour"}, 2, `unknown key "colour"`},
		{"serve refuses the network", []string{"serve", "--addr", "0.0.0.0:8080"}, 2, "loopback"},
		{"data dir flag needs a value", []string{"--data-dir"}, 2, "--data-dir needs a directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, env, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.message) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("got %+v; want exit %d and one line with %q", r, tc.code, tc.message)
			}
		})
	}
}

// TestSettingsSetTakesDashDash: -- before the key or the value is taken out,
// as every command does; the value is stored as given.
func TestSettingsSetTakesDashDash(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	for _, args := range [][]string{{"settings", "set", "--", "archive_after", "3h"}, {"settings", "set", "archive_after", "--", "5h"}} {
		if r := runCLI(t, env, "", args...); r.code != 0 {
			t.Fatalf("%q: %+v", args, r)
		}
		if r := runCLI(t, env, "", "settings", "get", "archive_after"); strings.TrimSpace(r.stdout) != args[len(args)-1] {
			t.Errorf("%q stored %q", args, r.stdout)
		}
	}
}

func TestChatWhenOllamaIsDown(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": closedPort(t), "HERMES_DATA_DIR": dir}
	r := runCLI(t, env, "", "chat", "is anyone there")
	if r.code != 1 || !strings.Contains(r.stderr, "not reachable") || !strings.Contains(r.stderr, "ollama serve") {
		t.Fatalf("got %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "list")
	if !strings.Contains(r.stdout, "is anyone there") {
		t.Fatalf("the message typed while Ollama was down was lost: %s", r.stdout)
	}
}

func TestDoctor(t *testing.T) {
	t.Run("healthy", func(t *testing.T) {
		env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
		r := runCLI(t, env, "", "doctor", "--json")
		var rep struct {
			OK     bool
			Checks []Check
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || !rep.OK {
			t.Fatalf("doctor: %+v (%v)", r, err)
		}
		names := map[string]string{}
		for _, c := range rep.Checks {
			names[c.Name] = c.Status
		}
		for _, n := range []string{"data dir", "database", "ollama", "chat model"} {
			if names[n] != "ok" {
				t.Errorf("check %q = %q", n, names[n])
			}
		}
	})
	t.Run("ollama down and model missing say how to fix", func(t *testing.T) {
		env := map[string]string{"OLLAMA_HOST": closedPort(t), "HERMES_DATA_DIR": t.TempDir()}
		r := runCLI(t, env, "", "doctor")
		// The fix is how to install it (or to start the one installed).
		if r.code != 1 || !strings.Contains(r.stdout, "✗ ollama") || !(strings.Contains(r.stdout, "Install Ollama") || strings.Contains(r.stdout, " serve")) {
			t.Fatalf("doctor: %+v", r)
		}
		env["OLLAMA_HOST"] = fakeOllama(t)
		runCLI(t, env, "", "settings", "set", "chat_model", "qwen2.5")
		r = runCLI(t, env, "", "doctor")
		if r.code != 1 || !strings.Contains(r.stdout, "hermes model pull qwen2.5") || !strings.Contains(r.stdout, "installed: llama3.2, nomic-embed-text") ||
			!strings.Contains(r.stdout, "2 installed: llama3.2, nomic-embed-text (embeddings)") {
			t.Fatalf("doctor: %+v", r)
		}
	})
	t.Run("corrupt database is named and kept", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "hermes.db")
		junk := []byte("not a database at all")
		os.WriteFile(file, junk, 0o600)
		env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
		r := runCLI(t, env, "", "doctor")
		if r.code != 1 || !strings.Contains(r.stdout, file) || !strings.Contains(r.stdout, "Move hermes.db aside") {
			t.Fatalf("doctor: %+v", r)
		}
		if got, _ := os.ReadFile(file); !bytes.Equal(got, junk) {
			t.Fatal("doctor changed the corrupt file")
		}
	})
}

func TestIntentClassify(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	r := runCLI(t, env, "", "--json", "intent", "classify", "I'm allergic to peanuts")
	var one struct {
		Label      string
		Confidence float32
		Scores     map[string]float32
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &one) != nil || one.Label != "remember" || len(one.Scores) != 7 {
		t.Fatalf("classify: %+v", r)
	}
	batch := filepath.Join(dir, "batch.jsonl")
	os.WriteFile(batch, []byte(`{"id":"a","text":"what time is it"}
{"id":2,"text":"我对花生过敏吗？"}
{"id":"c","text":"forget my allergy"}
`), 0o600)
	r = runCLI(t, env, "", "intent", "classify", "--batch", batch)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{`{"id":"a","label":"task"`, `{"id":2,"label":"recall"`, `{"id":"c","label":"forget"`}
	if r.code != 0 || len(lines) != 3 {
		t.Fatalf("batch: %+v", r)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) || !strings.Contains(lines[i], `"confidence":`) {
			t.Errorf("line %d = %s; want prefix %s", i, lines[i], w)
		}
	}
	os.WriteFile(batch, []byte("{\"id\":1,\"text\":\"ok\"}\nnot json\n"), 0o600)
	if r = runCLI(t, env, "", "intent", "classify", "--batch", batch); r.code != 2 || !strings.Contains(r.stderr, "line 2") {
		t.Fatalf("bad batch: %+v", r)
	}
}

func TestMissingORTLibraryStillChats(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir(), "HERMES_ORT_LIB": "/nonexistent/libonnxruntime.so.1"}
	r := runCLI(t, env, "", "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "✗ intent") || !strings.Contains(r.stdout, "/nonexistent/libonnxruntime.so.1") || !strings.Contains(r.stdout, "setup:ort") {
		t.Fatalf("doctor: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "chat", "hello without a classifier")
	if r.code != 0 || !strings.Contains(r.stdout, `"status": "ok"`) {
		t.Fatalf("chat: %+v", r)
	}
	r = runCLI(t, env, "", "intent", "classify", "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "setup:ort") {
		t.Fatalf("classify without the library: %+v", r)
	}
}

func TestSessionCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	file := filepath.Join(dir, "import.jsonl")
	os.WriteFile(file, []byte(`{"session":"trip","id":"t1","role":"user","content":"I land in Kyoto on Friday at 9am","created_at":"2026-11-01T09:00:00Z"}
{"session":"trip","id":"t2","role":"assistant","content":"Noted: Friday 9am.","created_at":"2026-11-01T09:00:01Z"}
{"session":"trip","id":"t3","role":"user","content":"What's good ramen?","created_at":"2026-11-01T09:01:00Z"}
{"session":"trip","id":"t4","role":"assistant","content":"Try the station.","created_at":"2026-11-01T09:01:01Z"}
`), 0o600)
	r := runCLI(t, env, "", "session", "import", "--jsonl", file)
	if r.code != 0 || !strings.Contains(r.stdout, "imported 4 messages in 1 new sessions") {
		t.Fatalf("import: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "context", "--session", "trip", "--query", "when do I land in Kyoto?", "--budget", "100")
	var c struct {
		Included []string
		Tokens   int
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &c) != nil || c.Tokens > 100 || len(c.Included) == 0 || c.Included[0] != "t1" {
		t.Fatalf("context: %+v %+v", r, c)
	}
	batch := filepath.Join(dir, "ctx.jsonl")
	os.WriteFile(batch, []byte(`{"id":"q1","session":"trip","query":"ramen","budget":4000}`+"\n"), 0o600)
	r = runCLI(t, env, "", "session", "context", "--batch", batch)
	if r.code != 0 || strings.TrimSpace(r.stdout) != `{"id":"q1","included":["t1","t2","t3","t4"],"tokens":`+strings.TrimSpace(strings.Split(strings.Split(r.stdout, `"tokens":`)[1], "}")[0])+`}` {
		t.Fatalf("batch context: %+v", r)
	}
	r = runCLI(t, env, "", "session", "search", "kyoto")
	if r.code != 0 || !strings.Contains(r.stdout, "[Kyoto]") {
		t.Fatalf("search: %+v", r)
	}
	r = runCLI(t, env, "", "session", "export", "trip", "--format", "md")
	if r.code != 0 || !strings.Contains(r.stdout, "I land in Kyoto") {
		t.Fatalf("export: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "rename", "trip", "Kyoto", "trip"); r.code != 0 {
		t.Fatalf("rename: %+v", r)
	}
	// Deleting needs confirmation; a script must say --yes.
	if r = runCLI(t, env, "", "session", "delete", "trip"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("delete without --yes: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "delete", "trip", "--yes"); r.code != 0 {
		t.Fatalf("delete: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "show", "trip"); r.code != 2 || !strings.Contains(r.stderr, `no session "trip"`) {
		t.Fatalf("show deleted: %+v", r)
	}
	os.WriteFile(file, []byte(`{"session":"x","id":"1","role":"user","content":"ok"}`+"\n"+`{"session":"x","role":"user","content":"no id"}`+"\n"), 0o600)
	if r = runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 2 || !strings.Contains(r.stderr, "line 2") {
		t.Fatalf("bad import: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "session", "list"); strings.Contains(r.stdout, `"x"`) || strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("half-imported: %s", r.stdout)
	}
}

func TestMCPCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	script, _ := filepath.Abs("../../backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("server-everything is not installed (%v): run `go tool task setup:mcp`", err)
	}
	claude := filepath.Join(dir, "claude_desktop_config.json")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": "node", "args": []string{script, "stdio"}}}})
	os.WriteFile(claude, cfg, 0o600)
	if r := runCLI(t, env, "", "mcp", "import", claude); r.code != 0 || !strings.Contains(r.stdout, "added 1") {
		t.Fatalf("import: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "list"); r.code != 0 || !strings.Contains(r.stdout, "awaiting approval") {
		t.Fatalf("list before approval: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "approve", "everything"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("approve without --yes in a script: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "approve", "everything", "--yes"); r.code != 0 || !strings.Contains(r.stderr, "node ") {
		t.Fatalf("approve: %+v", r)
	}
	r := runCLI(t, env, "", "mcp", "call", "everything", "echo", `{"message":"from the cli"}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: from the cli") {
		t.Fatalf("call: %+v", r)
	}
	if r = runCLI(t, env, "", "mcp", "call", "everything", "echo", `{"wrong":1}`); r.code != 1 || !strings.Contains(r.stderr, "invalid_arguments") {
		t.Fatalf("bad args: %+v", r)
	}
	if r = runCLI(t, env, "", "tools", "log", "--tool", "everything__echo", "--json"); !strings.Contains(r.stdout, `"status": "ok"`) || !strings.Contains(r.stdout, `"status": "error"`) {
		t.Fatalf("audit: %+v", r)
	}
	if r = runCLI(t, env, "", "mcp", "tools", "everything"); r.code != 0 || !strings.Contains(r.stdout, "everything__echo") {
		t.Fatalf("tools: %+v", r)
	}
	// Listing starts no server, and says how each one did when last run.
	start := time.Now()
	r = runCLI(t, env, "", "mcp", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "stopped") || !strings.Contains(r.stdout, "ready, ") || time.Since(start) > 3*time.Second {
		t.Fatalf("list after a run: %+v (%s)", r, time.Since(start))
	}
}

func TestMemoryCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	r := runCLI(t, env, "", "--json", "memory", "add", "Remember that my bike is a blue Brompton")
	var added struct {
		ID, Text, Status string
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &added) != nil || added.ID == "" || added.Status != "active" {
		t.Fatalf("add: %+v", r)
	}
	// Text that starts with "-" goes after --, as for every command; without it, it is refused.
	if r = runCLI(t, env, "", "memory", "add", "-x", "marks", "my", "todo", "lists"); r.code != 2 || !strings.Contains(r.stderr, "put -- before") {
		t.Fatalf("add -x without --: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "memory", "add", "--", "-x marks the items on my todo lists"); r.code != 0 || !strings.Contains(r.stdout, `"text": "-x marks the items on my todo lists"`) {
		t.Fatalf("add after --: %+v", r)
	}
	file := filepath.Join(dir, "mem.jsonl")
	os.WriteFile(file, []byte(`{"id":"m1","text":"I live in Lisbon","created_at":"2026-01-02T10:00:00Z"}
{"id":"m2","text":"我喜欢喝绿茶"}
`), 0o600)
	if r = runCLI(t, env, "", "memory", "import", "--jsonl", file); r.code != 0 || !strings.Contains(r.stdout, "added 2") {
		t.Fatalf("import: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "memory", "show", "m1"); r.code != 0 || !strings.Contains(r.stdout, `"ref": "m1"`) || !strings.Contains(r.stdout, "2026-01-02") {
		t.Fatalf("show by ref: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "memory", "search", "Lisbon", "--k", "3"); r.code != 0 || !strings.Contains(r.stdout, `"ref": "m1"`) {
		t.Fatalf("search: %+v", r)
	}
	batch := filepath.Join(dir, "q.jsonl")
	os.WriteFile(batch, []byte(`{"id":"q1","query":"绿茶"}`+"\n"), 0o600)
	if r = runCLI(t, env, "", "memory", "search", "--batch", batch, "--k", "2"); r.code != 0 || !strings.HasPrefix(r.stdout, `{"id":"q1","results":[{"memory_id":`) || !strings.Contains(r.stdout, `"ref":"m2"`) {
		t.Fatalf("batch: %+v", r)
	}
	if r = runCLI(t, env, "", "memory", "edit", "m1", "I live in Porto now"); r.code != 0 {
		t.Fatalf("edit: %+v", r)
	}
	// The key and value are edited with the text, flags anywhere.
	if r = runCLI(t, env, "", "--json", "memory", "edit", "--key", "home city", "m1", "I live in Porto now", "--value", "Porto"); r.code != 0 ||
		!strings.Contains(r.stdout, `"key": "home_city"`) || !strings.Contains(r.stdout, `"value": "Porto"`) {
		t.Fatalf("edit --key --value: %+v", r)
	}
	if r = runCLI(t, env, "", "memory", "edit", "m1"); r.code != 2 || !strings.Contains(r.stderr, "--key K") {
		t.Fatalf("edit without text: %+v", r)
	}
	os.WriteFile(file, []byte(`{"id":"m3","text":"fine"}`+"\n"+`{"text":"no id"}`+"\n"), 0o600)
	if r = runCLI(t, env, "", "memory", "import", "--jsonl", file); r.code != 2 || !strings.Contains(r.stderr, "line 2") {
		t.Fatalf("bad import: %+v", r)
	}
	if r = runCLI(t, env, "", "memory", "forget", "m1"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("forget without --yes: %+v", r)
	}
	if r = runCLI(t, env, "", "memory", "forget", "--yes", "--query", "Porto"); r.code != 0 || !strings.Contains(r.stdout, "0 lexical and 0 vector matches") {
		t.Fatalf("forget: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "memory", "list"); strings.Contains(r.stdout, "Porto") || strings.Contains(r.stdout, "Lisbon") || strings.Contains(r.stdout, `"m3"`) || !strings.Contains(r.stdout, "Brompton") {
		t.Fatalf("list after forget: %+v", r)
	}
	if r = runCLI(t, env, "", "memory", "export"); r.code != 0 || !strings.Contains(r.stdout, "Brompton") {
		t.Fatalf("export: %+v", r)
	}
}

func TestSessionShowListsToolCalls(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			if m.Role == "tool" {
				return llmtest.Reply{Chunks: []string{"It is 14."}}
			}
		}
		args := api.NewToolCallFunctionArguments()
		args.Set("expression", "2+3*4")
		return llmtest.Reply{ToolCalls: []api.ToolCall{{Function: api.ToolCallFunction{Name: "calculator", Arguments: args}}}}
	}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "chat", "please calculate 2+3*4 for me")
	if r.code != 0 || !strings.Contains(r.stdout, "It is 14.") {
		t.Fatalf("chat: %+v", r)
	}
	id := strings.TrimSpace(strings.TrimPrefix(r.stderr[strings.Index(r.stderr, "session: "):], "session: "))
	r = runCLI(t, env, "", "session", "show", id)
	if r.code != 0 || !strings.Contains(r.stdout, `tool calculator {"expression":"2+3*4"} [ok, `) || !strings.Contains(r.stdout, "assistant:\nIt is 14.") {
		t.Fatalf("session show: %+v", r)
	}
}

// TestMCPRemoteCommands: a VS Code style config with a Streamable HTTP server
// (the real server-everything on a loopback port) is imported, listed,
// approved and called from the command line; the header's secret never shows.
func TestMCPRemoteCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	script, _ := filepath.Abs("../../backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	port := closedPort(t)
	_, portNum, _ := net.SplitHostPort(port)
	srv := exec.Command("node", script, "streamableHttp")
	srv.Env = append(os.Environ(), "PORT="+portNum)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", port); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server-everything did not listen")
		}
	}
	t.Setenv("HERMES_TEST_MCP_KEY", "key-31337-secret")
	vscode := filepath.Join(dir, "vscode-mcp.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"remote": map[string]any{
		"type": "http", "url": "http://" + port + "/mcp", "headers": map[string]string{"X-Api-Key": "${env:HERMES_TEST_MCP_KEY}"}}}})
	os.WriteFile(vscode, cfg, 0o600)
	if r := runCLI(t, env, "", "mcp", "import", vscode); r.code != 0 || !strings.Contains(r.stdout, "added 1") {
		t.Fatalf("import: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "list"); r.code != 0 || !strings.Contains(r.stdout, "awaiting approval") || !strings.Contains(r.stdout, "http") || !strings.Contains(r.stdout, "http://"+port+"/mcp") {
		t.Fatalf("list before approval: %+v", r)
	}
	r := runCLI(t, env, "", "mcp", "approve", "remote", "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "connects to:\n    Streamable HTTP http://"+port+"/mcp with headers X-Api-Key") {
		t.Fatalf("approve: %+v", r)
	}
	if r = runCLI(t, env, "", "mcp", "call", "remote", "echo", `{"message":"over the LAN"}`); r.code != 0 || !strings.Contains(r.stdout, "Echo: over the LAN") {
		t.Fatalf("call: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "mcp", "list")
	if r.code != 0 || !strings.Contains(r.stdout, `"X-Api-Key": "[REDACTED]"`) || !strings.Contains(r.stdout, `"transport": "http"`) {
		t.Fatalf("list --json: %+v", r)
	}
	for _, args := range [][]string{{"--json", "mcp", "list"}, {"tools", "log", "--json"}, {"mcp", "tools", "remote"}} {
		if r := runCLI(t, env, "", args...); strings.Contains(r.stdout+r.stderr, "key-31337-secret") {
			t.Errorf("%v shows the secret: %s %s", args, r.stdout, r.stderr)
		}
	}
}

// TestBadInputExitsTwo: an over-long message (one-shot or piped into the REPL)
// and an import with a NUL character or invalid UTF-8 are refused with exit 2
// and a reason; nothing is stored.
func TestBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	long := strings.Repeat("a", 260<<10)
	if r := runCLI(t, env, "", "chat", long); r.code != 2 || !strings.Contains(r.stderr, "the limit is 256 KiB") {
		t.Fatalf("one-shot over-long message: code %d, %q", r.code, r.stderr)
	}
	if r := runCLI(t, env, "hello\n"+long+"\n", "chat"); r.code != 2 || !strings.Contains(r.stderr, "the limit is 256 KiB") {
		t.Fatalf("piped over-long message: code %d, %q", r.code, r.stderr)
	}
	for name, content := range map[string]string{
		"nul.jsonl":  `{"session":"s","id":"1","role":"user","content":"cut\u0000here"}` + "\n",
		"utf8.jsonl": "{\"session\":\"s\",\"id\":\"1\",\"role\":\"user\",\"content\":\"caf\xe9\"}\n",
	} {
		file := filepath.Join(dir, name)
		os.WriteFile(file, []byte(content), 0o600)
		if r := runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 2 || !strings.Contains(r.stderr, "line 1") {
			t.Errorf("%s: code %d, %q", name, r.code, r.stderr)
		}
	}
	r := runCLI(t, env, "", "--json", "session", "list")
	var list []map[string]any
	if json.Unmarshal([]byte(r.stdout), &list); len(list) != 1 { // the piped "hello"
		t.Errorf("sessions after refused input: %s", r.stdout)
	}
}

// TestDamagedDatabaseIsRefusedAndRecovered: damaged pages after an unclean
// stop make every command refuse the file (exit 1, the fix named), doctor
// says so, and `doctor --recover` copies the readable rows into a new file
// that Hermes then uses, searchable. The damage is on pages of messages
// (wherever SQLite put them: the first one included, which once cost the whole
// table); a damaged schema or root page leaves nothing to read, and no file
// layout is chosen here to avoid or hit one.
func TestDamagedDatabaseIsRefusedAndRecovered(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	var lines []string
	for i := range 600 {
		lines = append(lines, fmt.Sprintf(`{"session":"s%d","id":"m%d","role":"user","content":"note %d about the %s orchard, row %d"}`, i/100, i, i, strings.Repeat("apple ", 60), i))
	}
	file := filepath.Join(dir, "in.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	if r := runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	db := filepath.Join(dir, "hermes.db")
	raw, _ := os.ReadFile(db)
	var texts []int // the pages holding messages' text
	for p := 0; (p+1)*4096 <= len(raw); p++ {
		if bytes.Contains(raw[p*4096:(p+1)*4096], []byte("orchard, row ")) { // not in a chat's title
			texts = append(texts, p)
		}
	}
	if len(texts) < 40 {
		t.Fatalf("%d pages of messages' text; want the 600 messages on 40 or more", len(texts))
	}
	f, _ := os.OpenFile(db, os.O_RDWR, 0)
	for _, p := range []int{texts[0], texts[len(texts)/2], texts[len(texts)-1]} {
		f.WriteAt(bytes.Repeat([]byte{0x5A}, 4096), int64(p)*4096)
	}
	f.Close()
	os.WriteFile(db+"-wal", []byte("left by a killed process"), 0o600)

	r := runCLI(t, env, "", "session", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "damaged") {
		t.Fatalf("a command on the damaged file: %+v", r)
	}
	r = runCLI(t, env, "", "doctor")
	if !strings.Contains(r.stdout, "hermes doctor --recover") {
		t.Fatalf("doctor: %+v", r)
	}
	r = runCLI(t, env, "", "doctor", "--recover")
	if r.code != 0 || !strings.Contains(r.stdout, "recovered into") {
		t.Fatalf("recover: %+v", r)
	}
	var kept int // three pages of about ten messages each are lost, no more
	if _, err := fmt.Sscanf(r.stdout[strings.Index(r.stdout, "\nmessages ")+1:], "messages %d rows", &kept); err != nil || kept < 560 || kept >= 600 {
		t.Fatalf("messages recovered: %d of 600 (%v); want all but the damaged pages' own\n%s", kept, err, r.stdout)
	}
	os.Rename(db, filepath.Join(dir, "hermes.damaged.db")) // as doctor says
	for _, side := range []string{"-wal", "-shm", "-check"} {
		os.Remove(db + side)
	}
	os.Rename(filepath.Join(dir, "hermes.recovered.db"), db)
	r = runCLI(t, env, "", "--json", "session", "list")
	var list []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) == 0 {
		t.Fatalf("recovered sessions: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "search", "orchard"); r.code != 0 || !strings.Contains(r.stdout, "orchard") {
		t.Fatalf("search in the recovered file: %+v", r)
	}
}

// TestModelCommands: list with details, pull with progress on stderr, import
// of a GGUF file, refusals (not GGUF, an embedding model as the chat model),
// use and rm.
func TestModelCommands(t *testing.T) {
	fake := llmtest.New()
	fake.Pullable = map[string]llmtest.PullScript{"qwen2.5": {Model: llmtest.Model{Name: "qwen2.5", ContextLength: 32768, Capabilities: []string{"completion", "tools"}},
		Size: 3 << 30, Steps: 4, Delay: 5 * time.Millisecond}}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_DATA_DIR": dir}

	r := runCLI(t, env, "", "model", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "llama3.2") || !strings.Contains(r.stdout, "chat,tools") || !strings.Contains(r.stdout, "embedding") {
		t.Fatalf("list: %+v", r)
	}
	r = runCLI(t, env, "", "model", "pull", "qwen2.5")
	if r.code != 0 || !strings.Contains(r.stdout, "pulled qwen2.5") || !strings.Contains(r.stderr, "100%") {
		t.Fatalf("pull: %+v", r)
	}
	gguf := filepath.Join(dir, "tiny.gguf")
	if err := llmtest.WriteGGUF(gguf, 1<<20); err != nil {
		t.Fatal(err)
	}
	if r = runCLI(t, env, "", "model", "import", gguf, "--name", "tiny"); r.code != 0 || !strings.Contains(r.stdout, "imported tiny") {
		t.Fatalf("import: %+v", r)
	}
	notGGUF := filepath.Join(dir, "notes.txt")
	os.WriteFile(notGGUF, []byte("hello"), 0o600)
	if r = runCLI(t, env, "", "model", "import", notGGUF, "--name", "x"); r.code != 2 || !strings.Contains(r.stderr, "not a GGUF model file") {
		t.Fatalf("import of a text file: %+v", r)
	}
	cut := filepath.Join(dir, "cut.gguf") // the magic and version alone: the 8-byte file
	os.WriteFile(cut, []byte("GGUF\x03\x00\x00\x00"), 0o600)
	if r = runCLI(t, env, "", "model", "import", cut, "--name", "x"); r.code != 2 || !strings.Contains(r.stderr, "cut.gguf is damaged or cut short") {
		t.Fatalf("import of an 8-byte GGUF file: %+v", r)
	}
	if r = runCLI(t, env, "", "model", "import", filepath.Join(dir, "gone.gguf"), "--name", "x"); r.code != 2 || !strings.Contains(r.stderr, "no such file") {
		t.Fatalf("import of a file that is not there: %+v", r)
	}
	badMF := filepath.Join(dir, "Modelfile")
	os.WriteFile(badMF, []byte("PARAMETER temperature 0.2\nADAPTER ./lora.gguf\n"), 0o600)
	if r = runCLI(t, env, "", "model", "import", gguf, "--name", "x", "--modelfile", badMF); r.code != 2 || !strings.Contains(r.stderr, "Modelfile line 2: ADAPTER is not a directive") {
		t.Fatalf("import with a Modelfile it cannot use: %+v", r)
	}
	if r = runCLI(t, env, "", "model", "use", "nomic-embed-text"); r.code != 2 || !strings.Contains(r.stderr, "cannot chat") {
		t.Fatalf("use an embedder for chat: %+v", r)
	}
	if r = runCLI(t, env, "", "model", "use", "qwen2.5"); r.code != 0 {
		t.Fatalf("use: %+v", r)
	}
	if r = runCLI(t, env, "", "settings", "get", "chat_model"); strings.TrimSpace(r.stdout) != "qwen2.5" {
		t.Fatalf("chat_model = %q", r.stdout)
	}
	if r = runCLI(t, env, "", "model", "rm", "tiny"); r.code != 2 {
		t.Fatalf("rm without --yes in a script: %+v", r)
	}
	if r = runCLI(t, env, "", "--yes", "model", "rm", "tiny"); r.code != 0 {
		t.Fatalf("rm: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "model", "list")
	if strings.Contains(r.stdout, `"tiny"`) || !strings.Contains(r.stdout, `"is_chat": true`) {
		t.Fatalf("list after rm: %s", r.stdout)
	}
}

// TestUnknownFlagsExitTwo: every command refuses a flag it does not know.
func TestUnknownFlagsExitTwo(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	for _, args := range [][]string{
		{"session", "list", "--bogus"}, {"session", "search", "x", "--bogus"}, {"mcp", "list", "--bogus"}, {"tools", "list", "--bogus"},
		{"memory", "list", "--bogus"}, {"model", "list", "--bogus"}, {"chat", "--bogus", "hi"}, {"intent", "classify", "hi", "--bogus"},
		{"doctor", "--bogus"}, {"model", "use", "x", "--bogus"},
	} {
		if r := runCLI(t, env, "", args...); r.code != 2 || !strings.Contains(r.stderr, "bogus") {
			t.Errorf("%v: code %d, %q", args, r.code, r.stderr)
		}
	}
	if r := runCLI(t, env, "", "session", "search", "--", "-minus"); r.code != 0 {
		t.Errorf("an argument after -- : %+v", r)
	}
}

// TestMCPAcceptChangedTool: a tool whose definition changed after approval is
// off until `hermes mcp accept NAME TOOL`, from the command line too.
func TestMCPAcceptChangedTool(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	bin := filepath.Join(dir, "fakeserver")
	build := exec.Command("go", "build", "-o", bin, "hermes/backend/mcp/testdata/fakeserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the fake MCP server: %v\n%s", err, out)
	}
	desc := filepath.Join(dir, "desc.txt")
	os.WriteFile(desc, []byte("Echo the text back."), 0o600)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fake": map[string]any{"command": bin, "args": []string{"-desc-file", desc}}}})
	os.WriteFile(filepath.Join(dir, "mcp.json"), cfg, 0o600)
	if r := runCLI(t, env, "", "--yes", "mcp", "approve", "fake"); r.code != 0 {
		t.Fatalf("approve: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "call", "fake", "echo", `{"text":"one"}`); r.code != 0 {
		t.Fatalf("call before the change: %+v", r)
	}
	os.WriteFile(desc, []byte("Echo the text back, and send a copy to a server."), 0o600)
	if r := runCLI(t, env, "", "mcp", "call", "fake", "echo", `{"text":"two"}`); r.code == 0 {
		t.Fatalf("a changed tool ran before it was accepted: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "accept", "fake", "write"); r.code != 2 || !strings.Contains(r.stderr, "no changed tool named write") {
		t.Fatalf("accept of an unchanged tool: %+v", r)
	}
	r := runCLI(t, env, "", "--yes", "mcp", "accept", "fake", "echo")
	if r.code != 0 || !strings.Contains(r.stderr, "send a copy to a server") || !strings.Contains(r.stderr, "accepted echo") {
		t.Fatalf("accept: %+v", r)
	}
	if r := runCLI(t, env, "", "mcp", "call", "fake", "echo", `{"text":"three"}`); r.code != 0 || !strings.Contains(r.stdout, "three") {
		t.Fatalf("call after accepting: %+v", r)
	}
}

// TestReplyContextFromTheCommandLine: what the model saw for a stored reply,
// as the window's Context button shows it.
func TestReplyContextFromTheCommandLine(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "--json", "chat", "What is the capital of Portugal?")
	var turn struct {
		Assistant struct{ ID string } `json:"assistant"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil || turn.Assistant.ID == "" {
		t.Fatalf("chat: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "context", "--reply", turn.Assistant.ID)
	var rep struct {
		MessageID string `json:"messageId"`
		Items     []struct{ Reason, Role, Preview string }
		Tokens    int
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || rep.MessageID != turn.Assistant.ID || rep.Tokens == 0 {
		t.Fatalf("context --reply: %+v", r)
	}
	found := false
	for _, it := range rep.Items {
		found = found || strings.Contains(it.Preview, "capital of Portugal")
	}
	if !found {
		t.Errorf("the user's message is not in what the model saw: %+v", rep.Items)
	}
	if r = runCLI(t, env, "", "session", "context", "--reply", "no-such-message"); r.code != 2 {
		t.Errorf("unknown reply: %+v", r)
	}
}

// TestChatUsesMCPTools: `hermes chat` offers the approved MCP servers' tools,
// starting the servers only when a turn offers tools, as the window does.
func TestChatUsesMCPTools(t *testing.T) {
	dir := t.TempDir()
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			if m.Role == "tool" {
				return llmtest.Reply{Chunks: llmtest.Words("The server said: " + m.Content)}
			}
		}
		for _, tool := range req.Tools {
			if tool.Function.Name == "everything__echo" {
				return llmtest.Reply{ToolCalls: []api.ToolCall{{Function: api.ToolCallFunction{Name: "everything__echo",
					Arguments: toolArgs(map[string]any{"message": "from the command line"})}}}}
			}
		}
		return llmtest.Reply{Chunks: llmtest.Words("no MCP tool was offered")}
	}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_DATA_DIR": dir}
	// The server runs from a path of this test's own (a link to the package), so
	// the check below sees only this chat's server, not another test's.
	pkg, _ := filepath.Abs("../../backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything")
	link := filepath.Join(t.TempDir(), "server-everything")
	if err := os.Symlink(pkg, link); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(link, "dist", "index.js")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": "node", "args": []string{script, "stdio"}}}})
	os.WriteFile(filepath.Join(dir, "mcp.json"), cfg, 0o600)
	if r := runCLI(t, env, "", "--yes", "mcp", "approve", "everything"); r.code != 0 {
		t.Fatalf("approve: %+v", r)
	}
	r := runCLI(t, env, "", "chat", "Use the everything server's echo tool to echo a test message")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: from the command line") {
		t.Fatalf("chat: %+v", r)
	}
	if left := processesMentioning(script); len(left) > 0 {
		t.Errorf("the MCP server outlived the chat: %v", left)
	}
}

func toolArgs(m map[string]any) api.ToolCallFunctionArguments {
	var a api.ToolCallFunctionArguments
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, &a)
	return a
}

// TestLifecycleRunsFromTheCommandLine: a conversation quiet for longer than
// idle_timeout is closed (summarised) and later archived by any command that
// opens the data dir, not only while the window runs; archive_after is a setting.
func TestLifecycleRunsFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": closedPort(t), "HERMES_DATA_DIR": dir}
	runCLI(t, env, "", "settings", "set", "manage_ollama", "never")
	file := filepath.Join(dir, "in.jsonl")
	os.WriteFile(file, []byte(`{"session":"trip","id":"1","role":"user","content":"We plan a trip to Lisbon in May."}`+"\n"), 0o600)
	if r := runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	age := func(what string, d time.Duration) {
		db, err := store.Open(context.Background(), filepath.Join(dir, "hermes.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE sessions SET state = ?, updated_at = ?`, what, time.Now().Add(-d).UTC().Format(time.RFC3339Nano)); err != nil {
			t.Fatal(err)
		}
	}
	state := func() (string, string) {
		r := runCLI(t, env, "", "--json", "session", "list")
		var list []struct{ ID, State string }
		json.Unmarshal([]byte(r.stdout), &list)
		if len(list) != 1 {
			t.Fatalf("sessions: %s", r.stdout)
		}
		r = runCLI(t, env, "", "session", "export", list[0].ID, "--format", "json")
		var exp struct{ Session struct{ Summary string } }
		json.Unmarshal([]byte(r.stdout), &exp)
		return list[0].State, exp.Session.Summary
	}
	age("active", time.Hour)
	runCLI(t, env, "", "settings", "get", "chat_model") // any command sweeps
	if st, sum := state(); st != "idle" || !strings.Contains(sum, "Lisbon") {
		t.Fatalf("after an hour quiet: %s %q", st, sum)
	}
	if r := runCLI(t, env, "", "settings", "set", "archive_after", "2h"); r.code != 0 {
		t.Fatalf("archive_after: %+v", r)
	}
	age("idle", 3*time.Hour)
	runCLI(t, env, "", "settings", "get", "chat_model")
	if st, _ := state(); st != "archived" {
		t.Fatalf("after archive_after: %s", st)
	}
}

// TestMemoryProfiles: profiles are created, switched and deleted from the
// command line; memories and new conversations follow the active one; a
// deleted profile's memories are erased with a receipt.
func TestMemoryProfiles(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	must := func(args ...string) result {
		t.Helper()
		r := runCLI(t, env, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		return r
	}
	must("memory", "add", "I am allergic to peanuts")
	must("memory", "profile", "create", "work")
	if r := runCLI(t, env, "", "memory", "profile", "create", "work"); r.code != 2 {
		t.Errorf("creating it twice: %+v", r)
	}
	if r := runCLI(t, env, "", "memory", "profile", "use", "nowhere"); r.code != 2 || !strings.Contains(r.stderr, "profile create nowhere") {
		t.Errorf("an unknown profile: %+v", r)
	}
	must("memory", "profile", "use", "work")
	must("memory", "add", "My desk is on the third floor")
	r := must("--json", "memory", "profile", "list")
	var list []struct {
		Name     string
		Active   bool
		Memories int
	}
	json.Unmarshal([]byte(r.stdout), &list)
	if len(list) != 2 || list[0].Name != "personal" || list[0].Memories != 1 || list[0].Active || list[1].Name != "work" || !list[1].Active || list[1].Memories != 1 {
		t.Fatalf("profiles = %s", r.stdout)
	}
	must("chat", "hello from work")
	r = must("--json", "session", "list")
	var sessions []struct{ ID string }
	json.Unmarshal([]byte(r.stdout), &sessions)
	r = must("session", "export", sessions[0].ID, "--format", "json")
	if !strings.Contains(r.stdout, `"profile": "work"`) {
		t.Errorf("a new chat is not in the active profile: %s", r.stdout)
	}
	if r := runCLI(t, env, "", "--yes", "memory", "profile", "delete", "work"); r.code != 2 || !strings.Contains(r.stderr, "work is the active profile; switch to another profile first") {
		t.Errorf("deleting the active profile: %+v", r)
	}
	if r := must("memory", "list", "--profile", "work"); !strings.Contains(r.stdout, "third floor") {
		t.Errorf("a refused delete erased memories: %+v", r)
	}
	must("memory", "profile", "use", "personal")
	if r := runCLI(t, env, "", "memory", "profile", "delete", "work"); r.code != 2 || !strings.Contains(r.stderr, "(1 memory would be erased)") {
		t.Errorf("delete without --yes in a script: %+v", r)
	}
	r = must("--yes", "memory", "profile", "delete", "work")
	if !strings.Contains(r.stdout, "forgot 1 memory") || !strings.Contains(r.stdout, "0 lexical and 0 vector matches") {
		t.Errorf("delete receipt: %+v", r)
	}
	r = must("--json", "memory", "profile", "list")
	if strings.Contains(r.stdout, `"work"`) || !strings.Contains(r.stdout, `"active": true`) {
		t.Errorf("after delete: %s", r.stdout)
	}
	if r := runCLI(t, env, "", "--yes", "memory", "profile", "delete", "personal"); r.code != 2 {
		t.Errorf("deleting the default profile: %+v", r)
	}
}

// TestMemoryConfirmAndProfileRename: confirm moves a fact into the profile
// layer; a renamed profile keeps its memories and stays the active one.
func TestMemoryConfirmAndProfileRename(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	must := func(args ...string) result {
		t.Helper()
		r := runCLI(t, env, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		return r
	}
	must("memory", "profile", "create", "work")
	must("memory", "profile", "use", "work")
	r := must("--json", "memory", "add", "My desk is on the third floor")
	var added struct{ ID, Layer string }
	json.Unmarshal([]byte(r.stdout), &added)
	if added.Layer != "fact" {
		t.Fatalf("added = %s", r.stdout)
	}
	r = must("memory", "confirm", added.ID)
	if !strings.Contains(r.stdout, added.ID+"\tprofile\t") {
		t.Errorf("confirm = %+v", r)
	}
	if r := runCLI(t, env, "", "memory", "confirm"); r.code != 2 {
		t.Errorf("confirm without ids: %+v", r)
	}
	must("memory", "profile", "rename", "work", "job")
	r = must("--json", "memory", "profile", "list")
	if strings.Contains(r.stdout, `"work"`) || !strings.Contains(r.stdout, `"name": "job",
    "active": true,
    "memories": 1`) {
		t.Errorf("after rename: %s", r.stdout)
	}
	r = must("--json", "memory", "search", "desk")
	if !strings.Contains(r.stdout, added.ID) {
		t.Errorf("search in the renamed profile: %s", r.stdout)
	}
	for _, args := range [][]string{{"rename", "personal", "me"}, {"rename", "nowhere", "x"}, {"rename", "job"}} {
		if r := runCLI(t, env, "", append([]string{"memory", "profile"}, args...)...); r.code != 2 {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	code := Main(Env{Args: []string{"--version"}, Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }, Version: "v1.2.3-4-gabc"})
	if code != 0 || out.String() != "hermes v1.2.3-4-gabc\n" {
		t.Fatalf("code %d, %q", code, out.String())
	}
}

// TestMemoryDecayCommand: half-lives are listed, set per category (validated,
// exit 2 on bad input) and reset; the settings command sees the same value.
func TestMemoryDecayCommand(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "memory", "decay")
	if r.code != 0 || !strings.Contains(r.stdout, "health") || !regexp.MustCompile(`health\s+180d\s+\(default\)`).MatchString(r.stdout) || !strings.Contains(r.stdout, "never fade") {
		t.Fatalf("list = %+v", r)
	}
	r = runCLI(t, env, "", "memory", "decay", "--category", "health", "--half-life", "90d")
	if r.code != 0 || !regexp.MustCompile(`health\s+90d\s+\(set\)`).MatchString(r.stdout) {
		t.Fatalf("set = %+v", r)
	}
	if r := runCLI(t, env, "", "settings", "get", "memory_half_lives"); strings.TrimSpace(r.stdout) != "health=90d" {
		t.Fatalf("settings get = %+v", r)
	}
	for _, bad := range [][]string{
		{"--category", "mood", "--half-life", "3d"},
		{"--category", "health", "--half-life", "soon"},
		{"--category", "health"},
		{"--half-life", "3d"},
	} {
		if r := runCLI(t, env, "", append([]string{"memory", "decay"}, bad...)...); r.code != 2 || r.stderr == "" {
			t.Errorf("%v: %+v", bad, r)
		}
	}
	if r := runCLI(t, env, "", "settings", "set", "memory_half_lives", "health=0d"); r.code != 2 {
		t.Errorf("settings set accepted a bad half-life: %+v", r)
	}
	r = runCLI(t, env, "", "memory", "decay", "--category", "health", "--half-life", "")
	if r.code != 0 || !regexp.MustCompile(`health\s+180d\s+\(default\)`).MatchString(r.stdout) {
		t.Fatalf("reset = %+v", r)
	}
}

// TestMemoryRecallLogCommand: the recall log of a message lists the candidates
// kept and dropped, each with its scores and reason.
func TestMemoryRecallLogCommand(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	for _, s := range []string{"I am allergic to peanuts", "My sister lives in Lisbon", "I drive a blue bicycle to work", "I am allergic to cats as well"} {
		if r := runCLI(t, env, "", "memory", "add", s); r.code != 0 {
			t.Fatalf("add: %+v", r)
		}
	}
	r := runCLI(t, env, "", "--json", "chat", "what am I allergic to?")
	var turn struct{ User struct{ ID string } }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil || turn.User.ID == "" {
		t.Fatalf("chat: %+v", r)
	}
	r = runCLI(t, env, "", "memory", "recall-log", turn.User.ID)
	if r.code != 0 || !regexp.MustCompile(`(?m)^kept\s+1\s.*allergic.*kept: `).MatchString(r.stdout) || !regexp.MustCompile(`(?m)^dropped\s+\d+\s.*dropped: `).MatchString(r.stdout) {
		t.Fatalf("recall-log: %+v", r)
	}
	if r := runCLI(t, env, "", "memory", "recall-log"); r.code != 2 {
		t.Errorf("without an id: %+v", r)
	}
}

// TestHelpPerCommand: `hermes CMD --help`, `-h` and `hermes help CMD` print that
// command's usage and exit 0 without opening the data dir; after "--", "-h" is
// an argument; an unknown command's help exits 2.
func TestHelpPerCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never-made")
	env := map[string]string{"HERMES_DATA_DIR": dir, "OLLAMA_HOST": "http://" + closedPort(t)}
	for _, args := range [][]string{{"model", "--help"}, {"help", "model"}, {"model", "import", "x.gguf", "-h"}} {
		r := runCLI(t, env, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "hermes model list") || !strings.Contains(r.stdout, "use NAME [--embed]") ||
			strings.Contains(r.stdout, "hermes memory") || !strings.Contains(r.stdout, "Global flags") {
			t.Errorf("%v: %+v", args, r)
		}
	}
	// A command's continuation lines come with it.
	if r := runCLI(t, env, "", "chat", "-h"); r.code != 0 || !strings.Contains(r.stdout, "/attach FILE there") || strings.Contains(r.stdout, "hermes preset") {
		t.Errorf("chat -h: %+v", r)
	}
	for _, tc := range []struct {
		args []string
		name string
	}{{[]string{"help", "nope"}, "nope"}, {[]string{"help", "open"}, "open"}, {[]string{"open", "-h"}, "open"}} { // "open" is a word of the usage, not a command
		if r := runCLI(t, env, "", tc.args...); r.code != 2 || !strings.Contains(r.stderr, fmt.Sprintf("unknown command %q", tc.name)) {
			t.Errorf("%v: %+v", tc.args, r)
		}
	}
	if r := runCLI(t, env, "", "help", "help"); r.code != 0 || !strings.Contains(r.stdout, "hermes help [COMMAND]") {
		t.Errorf("help help: %+v", r)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("help made the data dir: %v", err)
	}
	// -h in the middle is a flag's value, not a request for help.
	if r := runCLI(t, env, "", "chat", "--system", "-h", "hi"); strings.Contains(r.stdout, "Usage:") {
		t.Errorf("chat --system -h hi: %+v", r)
	}
	// After "--" it is text: the search runs (and finds nothing).
	if r := runCLI(t, env, "", "session", "search", "--", "-h"); r.code != 0 || strings.Contains(r.stdout, "Usage:") {
		t.Errorf("search -- -h: %+v", r)
	}
}

// TestConfirmRefusesOnDevNull: </dev/null is a character device but no
// terminal; a command that must confirm refuses at once and names --yes
// instead of waiting for an answer that never comes.
func TestConfirmRefusesOnDevNull(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var errb bytes.Buffer
	ok, err := confirm(Env{Stdin: null, Stderr: &errb}, "Delete it?", "deleting needs confirmation")
	if ok || err == nil || !strings.Contains(err.Error(), "pass --yes in scripts") || errb.Len() != 0 {
		t.Fatalf("confirm on /dev/null = %v, %v (asked %q)", ok, err, errb.String())
	}
}
