package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"hermes/backend/llm/llmtest"
)

// networkDir is a data dir with an HTTP tool (tools.yaml) and an MCP server
// over HTTP (mcp.json) at the given URLs.
func networkDir(t *testing.T, toolURL string, mcpServers map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	tools := fmt.Sprintf(`version: 1
tools:
  - name: lookup
    description: Looks a word up.
    parameters:
      type: object
      properties:
        q: {type: string}
      required: [q]
    http: {method: GET, url: "%s/find?q={{q}}"}
`, toolURL)
	servers := map[string]any{}
	for name, url := range mcpServers {
		servers[name] = map[string]string{"url": url}
	}
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": servers})
	for name, body := range map[string][]byte{"tools.yaml": []byte(tools), "mcp.json": mcpJSON} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openNetworkCore opens dir with the fake Ollama at ollamaURL.
func openNetworkCore(t *testing.T, dir, ollamaURL string) *Core {
	t.Helper()
	core, err := Open(context.Background(), Options{DataDir: dir, IntentModel: os.DirFS("../models/intent"),
		Getenv: func(k string) string { return map[string]string{"OLLAMA_HOST": ollamaURL}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if err := core.StartMCP(context.Background()); err != nil { // starts none: no server is approved yet
		t.Fatal(err)
	}
	return core
}

// mcpHTTPServer is an MCP server over Streamable HTTP with one tool.
func mcpHTTPServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := mcpserver.NewMCPServer("notes", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("count", mcpgo.WithDescription("Counts the notes."), mcpgo.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("3 notes"), nil
		})
	srv := httptest.NewServer(mcpserver.NewStreamableHTTPServer(s))
	t.Cleanup(srv.Close)
	return srv
}

func findEntry(list []NetworkEntry, part, outcome string) (NetworkEntry, bool) {
	for _, e := range list {
		if e.Part == part && e.Outcome == outcome {
			return e, true
		}
	}
	return NetworkEntry{}, false
}

// waitMCPError waits for a server's status to carry an error.
func waitMCPError(t *testing.T, core *Core, name string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st, err := core.MCPServer(name); err == nil && st.Error != "" {
			return st.Error
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("MCP server %s shows no error within 10 s", name)
	return ""
}

// TestNetworkActivityRecordsEveryPart: real loopback connections of the three
// parts (the fake Ollama, an HTTP tool reached by the name localhost, an MCP
// server over HTTP) are each listed with the host as named, its address, the
// port and the part, and nothing of what was sent is kept.
func TestNetworkActivityRecordsEveryPart(t *testing.T) {
	const canary = "canary-8c41e7"
	hits := 0
	tool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"found": true}`)
	}))
	defer tool.Close()
	_, toolPort, _ := net.SplitHostPort(tool.Listener.Addr().String())
	mcpSrv := mcpHTTPServer(t)
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(2, 0)
	ollama := fake.Start()
	defer func() { fake.Close(); ollama.Close() }()
	dir := networkDir(t, "http://localhost:"+toolPort, map[string]string{"notes": mcpSrv.URL + "/mcp"})
	core := openNetworkCore(t, dir, ollama.URL)
	a := NewApp(core, (&events{}).emit)

	if _, err := a.Chat.SendMessage("r1", "", "say "+canary); err != nil {
		t.Fatal(err)
	}
	if o := core.CallTool(context.Background(), "lookup", json.RawMessage(`{"q":"`+canary+`"}`)); !o.OK() || hits != 1 {
		t.Fatalf("lookup = %+v (%d hits)", o, hits)
	}
	if err := core.MCPApproveServer(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := core.MCPWaitReady(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	act, err := a.Settings.NetworkActivity()
	if err != nil {
		t.Fatal(err)
	}
	_, ollamaPort, _ := net.SplitHostPort(strings.TrimPrefix(ollama.URL, "http://"))
	_, mcpPort, _ := net.SplitHostPort(strings.TrimPrefix(mcpSrv.URL, "http://"))
	for _, want := range []NetworkEntry{
		{Part: "ollama", Host: "127.0.0.1", Port: ollamaPort, Address: "127.0.0.1"},
		{Part: "tool:lookup", Host: "localhost", Port: toolPort, Address: "127.0.0.1"},
		{Part: "mcp:notes", Host: "127.0.0.1", Port: mcpPort, Address: "127.0.0.1"},
	} {
		got, ok := findEntry(act.Entries, want.Part, "made")
		if !ok || got.Host != want.Host || got.Port != want.Port || got.Address != want.Address || got.Count < 1 || got.Last == "" || got.First > got.Last {
			t.Errorf("%s: entry %+v (found %v); all: %+v", want.Part, got, ok, act.Entries)
		}
	}
	if act.OfflineOnly {
		t.Error("offline_only is on by default")
	}
	var rows string
	if err := core.db.QueryRow(`SELECT group_concat(part || host || port || address || reason, '|') FROM network_log`).Scan(&rows); err != nil || strings.Contains(rows, canary) || strings.Contains(rows, "find") {
		t.Errorf("the log holds %q (%v): no message, argument or path belongs there", rows, err)
	}
}

// TestOfflineOnlyRefusesBeyondThisComputer: offline_only, turned on in a
// running Hermes, refuses the next connection of every part to a LAN address at
// the dialer (quickly, with words that name the host and the setting), lets
// loopback through, and the refusals are listed.
func TestOfflineOnlyRefusesBeyondThisComputer(t *testing.T) {
	const lan = "10.255.255.1"
	dir := networkDir(t, "http://"+lan+":9", map[string]string{"nas": "http://" + lan + ":8080/mcp"})
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(2, 0)
	ollama := fake.Start()
	defer func() { fake.Close(); ollama.Close() }()
	core := openNetworkCore(t, dir, ollama.URL)
	a := NewApp(core, (&events{}).emit)
	for k, v := range map[string]string{"offline_only": "true", "manage_ollama": "never"} {
		if _, err := a.Settings.SetSetting(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Chat.SendMessage("r1", "", "hello"); err != nil {
		t.Fatalf("loopback Ollama with offline_only on: %v", err)
	}

	start := time.Now()
	o := core.CallTool(context.Background(), "lookup", json.RawMessage(`{"q":"x"}`))
	if o.OK() || !strings.Contains(o.Error, "offline_only is on") || !strings.Contains(o.Error, lan) || time.Since(start) > 2*time.Second {
		t.Errorf("HTTP tool to the LAN: %+v after %s", o, time.Since(start))
	}
	if err := core.MCPApproveServer(context.Background(), "nas"); err != nil {
		t.Fatal(err)
	}
	if msg := waitMCPError(t, core, "nas"); !strings.Contains(msg, "offline_only is on") || !strings.Contains(msg, "hermes settings set offline_only false") {
		t.Errorf("MCP server on the LAN: %q", msg)
	}
	if _, err := a.Settings.SetSetting("ollama_host", "http://"+lan+":11434"); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	_, err := a.Chat.SendMessage("r2", "", "hello again")
	var ue *UserError
	if !errors.As(err, &ue) || ue.Code != CodeOfflineRefused || ue.Params["host"] != lan || !strings.Contains(ue.Message, "offline_only is on") || time.Since(start) > 3*time.Second {
		t.Fatalf("Ollama on the LAN: %#v after %s", err, time.Since(start))
	}
	if st, _ := a.Settings.Status(); st.Code != NoticeOfflineRefused || st.Params["host"] != "http://"+lan+":11434" {
		t.Errorf("status = %+v", st)
	}
	act, err := core.NetworkActivity(context.Background())
	if err != nil || !act.OfflineOnly {
		t.Fatalf("activity = %+v, %v", act, err)
	}
	for _, part := range []string{"ollama", "tool:lookup", "mcp:nas"} {
		e, ok := findEntry(act.Entries, part, "refused")
		if !ok || e.Host != lan || e.Address != lan || e.Reason != "offline_only" {
			t.Errorf("%s: refused entry %+v (found %v)", part, e, ok)
		}
	}
	if e, ok := findEntry(act.Entries, "ollama", "made"); !ok || e.Host != "127.0.0.1" {
		t.Errorf("the loopback Ollama is not listed as made: %+v", act.Entries)
	}
}
