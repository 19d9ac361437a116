package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/app"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

// frontDoorScript is the model of the front-door test: it echoes through the MCP
// server when asked, saves a memory with memory_save when told to remember,
// answers a tool result with what it said, and "ok" to anything else (a
// closing conversation's summary included).
func frontDoorScript(req api.ChatRequest) llmtest.Reply {
	last := req.Messages[len(req.Messages)-1]
	offered := map[string]bool{}
	for _, tl := range req.Tools {
		offered[tl.Function.Name] = true
	}
	switch {
	case last.Role == "tool":
		return llmtest.Reply{Chunks: []string{"Done: " + last.Content}}
	case strings.Contains(last.Content, "echo") && offered["everything__echo"]:
		return llmtest.Reply{ToolCalls: []api.ToolCall{{ID: "call_echo", Function: api.ToolCallFunction{Name: "everything__echo",
			Arguments: toolArgs(map[string]any{"message": "same from every door"})}}}}
	case strings.Contains(last.Content, "remember") && offered["memory_save"]:
		return llmtest.Reply{ToolCalls: []api.ToolCall{{ID: "call_save", Function: api.ToolCallFunction{Name: "memory_save",
			Arguments: toolArgs(map[string]any{"text": "My locker code is 4411"})}}}}
	}
	return llmtest.Reply{Chunks: []string{"ok"}}
}

var frontDoorTurns = []string{
	"Use the everything server's echo tool to echo a test message",
	"Please remember that my locker code is 4411",
}

// TestSameConversationFromEveryDoor: the same scripted conversation (a tool
// call to an MCP server, a memory write, an idle close) driven through the
// command line and through web mode's API leaves the same stored result.
func TestSameConversationFromEveryDoor(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = frontDoorScript
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	script, _ := filepath.Abs("../../backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("server-everything is not installed (%v): run `go tool task setup:mcp`", err)
	}
	prepare := func() (string, map[string]string) {
		dir := t.TempDir()
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": "node", "args": []string{script, "stdio"}}}})
		os.WriteFile(filepath.Join(dir, "mcp.json"), cfg, 0o600)
		env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_DATA_DIR": dir}
		if r := runCLI(t, env, "", "--yes", "mcp", "approve", "everything"); r.code != 0 {
			t.Fatalf("approve: %+v", r)
		}
		return dir, env
	}

	// The command line.
	cliDir, env := prepare()
	r := runCLI(t, env, "", "--yes", "chat", frontDoorTurns[0])
	sid := strings.TrimSpace(strings.TrimPrefix(r.stderr[strings.Index(r.stderr, "session: "):], "session: "))
	if r.code != 0 {
		t.Fatalf("chat: %+v", r)
	}
	if r = runCLI(t, env, "", "--yes", "chat", "--session", sid, frontDoorTurns[1]); r.code != 0 {
		t.Fatalf("chat: %+v", r)
	}
	goIdle(t, cliDir)
	if r = runCLI(t, env, "", "session", "list"); r.code != 0 { // any door that opens the data dir closes what is due
		t.Fatalf("session list: %+v", r)
	}
	viaCLI := storedResult(t, cliDir)

	// Web mode's API.
	webDir, env := prepare()
	webSession := webTurns(t, webDir, env)
	goIdle(t, webDir)
	core, err := app.Open(context.Background(), app.Options{DataDir: webDir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	core.Close() // what `hermes serve` does when it starts, and stops
	viaWeb := storedResult(t, webDir)

	if viaCLI != viaWeb {
		t.Fatalf("the doors stored different results:\ncommand line:\n%s\nweb (%s):\n%s", viaCLI, webSession, viaWeb)
	}
	for _, want := range []string{"tool everything__echo ok", "Echo: same from every door", "memory My locker code is 4411", "state idle"} {
		if !strings.Contains(viaCLI, want) {
			t.Errorf("the stored result lacks %q:\n%s", want, viaCLI)
		}
	}
}

// webTurns sends the turns through web mode's HTTP API, as the page does.
func webTurns(t *testing.T, dir string, env map[string]string) string {
	core, err := app.Open(context.Background(), app.Options{DataDir: dir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := app.NewApp(core, func(string, any) {})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	web, err := app.NewWeb(a, fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, ln)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(web)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	defer hs.Close()
	sid := ""
	for i, text := range frontDoorTurns {
		b, _ := json.Marshal([]string{fmt.Sprint("req-", i), sid, text})
		req, _ := http.NewRequest(http.MethodPost, hs.URL+"/api/call/SendMessage", strings.NewReader(string(b)))
		req.Header.Set(app.TokenHeader, web.Token())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var tr struct {
			Session struct{ ID string }
		}
		err = json.NewDecoder(resp.Body).Decode(&tr)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("SendMessage: %d %v", resp.StatusCode, err)
		}
		sid = tr.Session.ID
	}
	return sid
}

// goIdle moves the conversations' last activity an hour back, past the idle timeout.
func goIdle(t *testing.T, dir string) {
	db, err := store.Open(context.Background(), filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	if _, err := db.Exec(`UPDATE sessions SET updated_at = ?`, past); err != nil {
		t.Fatal(err)
	}
}

// anyID is a generated id (a memory's, in a tool result).
var anyID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// storedResult is what a data dir keeps of the conversation, without ids and times.
func storedResult(t *testing.T, dir string) string {
	db, err := store.Open(context.Background(), filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	rows, err := db.Query(`SELECT role, tool_name, status, content FROM messages ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var role, tool, status, content string
		rows.Scan(&role, &tool, &status, &content)
		fmt.Fprintf(&b, "%s %s %s: %s\n", role, tool, status, anyID.ReplaceAllString(content, "<id>"))
	}
	rows.Close()
	rows, err = db.Query(`SELECT text FROM memories WHERE status <> 'superseded' ORDER BY text`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var text string
		rows.Scan(&text)
		fmt.Fprintf(&b, "memory %s\n", text)
	}
	rows.Close()
	var state, title string
	if err := db.QueryRow(`SELECT state, title FROM sessions`).Scan(&state, &title); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "state %s\ntitle %s\n", state, title)
	return b.String()
}
