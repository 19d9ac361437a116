package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/mcp"
)

// everythingConfig is server-everything from the pinned npm install (go tool task setup:mcp).
func everythingConfig(t *testing.T) mcp.ServerConfig {
	t.Helper()
	script, _ := filepath.Abs("../backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("server-everything is not installed (%v): run `go tool task setup:mcp`", err)
	}
	return mcp.ServerConfig{Command: "node", Args: []string{script, "stdio"}}
}

func waitMCP(t *testing.T, a *App, name string, want mcp.State) mcp.Status {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		list, _ := a.MCP.MCPServers()
		for _, s := range list {
			if s.Name == name && s.State == want {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	list, _ := a.MCP.MCPServers()
	t.Fatalf("server %s never became %s: %+v", name, want, list)
	return mcp.Status{}
}

func TestAgentCallsAnMCPTool(t *testing.T) {
	a, core, fake, _ := newTestApp(t, nil)
	if err := core.StartMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := a.MCP.MCPAddServer("everything", everythingConfig(t))
	if err != nil || st.Approved {
		t.Fatalf("add = %+v, %v (a new server must wait for approval)", st, err)
	}
	cmd, _ := a.MCP.MCPCommandLine(everythingConfig(t))
	if !strings.HasPrefix(cmd, "node ") || !strings.Contains(cmd, "server-everything") {
		t.Fatalf("command line = %q", cmd)
	}
	if _, err := a.MCP.MCPApprove("everything"); err != nil {
		t.Fatal(err)
	}
	st = waitMCP(t, a, "everything", mcp.StateReady)
	echo := ""
	for _, tool := range st.Tools {
		if tool.Remote == "echo" {
			echo = tool.Name
		}
	}
	if echo != "everything__echo" {
		t.Fatalf("echo tool = %q in %+v", echo, st.Tools)
	}

	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if n, last := toolRounds(req); n > 0 {
			return llmtest.Reply{Chunks: []string{"The server said: " + last}}
		}
		return llmtest.Reply{ToolCalls: []api.ToolCall{call(echo, map[string]any{"message": "hi from hermes"})}}
	}
	offered := func(req api.ChatRequest) bool {
		for _, tl := range req.Tools {
			if tl.Function.Name == echo {
				return true
			}
		}
		return false
	}
	res, err := a.Chat.SendMessage("req-mcp", "", "please run the echo tool with hi from hermes")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Assistant.Content, "Echo: hi from hermes") || len(res.Tools) != 1 {
		t.Fatalf("reply = %q, tools = %+v", res.Assistant.Content, res.Tools)
	}
	reqs := fake.ChatRequests()
	if !offered(reqs[0]) {
		t.Fatal("the MCP tool was not offered to the model")
	}
	// Switched off, it is no longer offered.
	if _, err := a.MCP.MCPSetToolEnabled("everything", "echo", false); err != nil {
		t.Fatal(err)
	}
	fake.Chat = llmtest.Echo(0, 0)
	if _, err := a.Chat.SendMessage("req-mcp2", res.Session.ID, "please run the echo tool again"); err != nil {
		t.Fatal(err)
	}
	reqs = fake.ChatRequests()
	if offered(reqs[len(reqs)-1]) {
		t.Fatal("a tool switched off was still offered")
	}
	// The Settings switch goes through the server too, so both views agree.
	if err := a.Tools.SetToolEnabled(echo, true); err != nil {
		t.Fatal(err)
	}
	echoStatus := func() mcp.ToolStatus {
		st, _ := a.core.mcp.Server("everything")
		for _, tool := range st.Tools {
			if tool.Name == echo {
				return tool
			}
		}
		return mcp.ToolStatus{}
	}
	if ts := echoStatus(); !ts.Enabled || ts.UserOff {
		t.Fatalf("after Settings on: %+v", ts)
	}
	if err := a.Tools.SetToolEnabled(echo, false); err != nil {
		t.Fatal(err)
	}
	if ts := echoStatus(); ts.Enabled || !ts.UserOff {
		t.Fatalf("after Settings off: %+v", ts)
	}
	if in, _ := a.core.tools.reg.Info(echo); in.Enabled {
		t.Fatal("the registry still offers the tool")
	}
}
