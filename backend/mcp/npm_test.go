package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/store"
	"hermes/backend/tools"
)

// npmServer is the entry script of an MCP server installed from
// testdata/npm; the tests never skip: a missing install fails them.
func npmServer(t testing.TB, pkg string) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "npm", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("%s is not installed (%v): run `go tool task setup:mcp`", pkg, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH: %v", err)
	}
	return script
}

func everything(t testing.TB) ServerConfig {
	return ServerConfig{Command: "node", Args: []string{npmServer(t, "server-everything"), "stdio"}}
}

func TestEverythingServer(t *testing.T) {
	leaks := checkGoroutines(t)
	var mu sync.Mutex
	var progress []Progress
	h := newHarness(t, map[string]ServerConfig{"everything": everything(t)}, func(o *Options) {
		o.RequestTimeout = 20 * time.Second
		o.InitTimeout = 20 * time.Second
		o.OnProgress = func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }
	})
	st := h.waitState("everything", StateReady, 20*time.Second)
	if st.Protocol != "2025-11-25" { // over stdio: the newest version that still initializes
		t.Errorf("protocol over stdio = %q", st.Protocol)
	}
	if st.ServerName != "mcp-servers/everything" || !st.HasResources || st.Resources < 7 || len(st.Prompts) == 0 {
		t.Errorf("status = %+v", st)
	}

	t.Run("echo", func(t *testing.T) {
		got, err := h.call("everything__echo", `{"message":"hello"}`)
		if err != nil || got != "Echo: hello" {
			t.Errorf("echo = %q, %v", got, err)
		}
	})
	t.Run("sum", func(t *testing.T) {
		got, err := h.call("everything__get-sum", `{"a":2,"b":40}`)
		if err != nil || !strings.Contains(got, "is 42") {
			t.Errorf("get-sum = %q, %v", got, err)
		}
	})
	t.Run("structured content", func(t *testing.T) {
		got, err := h.call("everything__get-structured-content", `{"location":"Chicago"}`)
		var v struct {
			Temperature *float64 `json:"temperature"`
		}
		if err != nil || json.Unmarshal([]byte(got), &v) != nil || v.Temperature == nil {
			t.Errorf("get-structured-content = %q, %v", got, err)
		}
	})
	t.Run("schemas are offered as the server wrote them", func(t *testing.T) {
		in, ok := h.reg.Info("everything__echo")
		if !ok || !strings.Contains(string(in.Parameters), `"$schema"`) || in.NeedsApproval {
			t.Errorf("echo = %+v", in)
		}
		// Validation happens in the engine, before the server is asked.
		for _, in := range h.reg.List() {
			if !tools.ValidName(in.Name) {
				t.Errorf("invalid tool name %q", in.Name)
			}
		}
	})
	t.Run("tools that act ask first", func(t *testing.T) {
		for name, asks := range map[string]bool{"everything__get-env": false, "everything__toggle-simulated-logging": true, "everything__gzip-file-as-resource": true} {
			in, ok := h.reg.Info(name)
			if !ok || in.NeedsApproval != asks {
				t.Errorf("%s: needs approval %v (registered %v); want %v", name, in.NeedsApproval, ok, asks)
			}
		}
	})
	t.Run("resources", func(t *testing.T) {
		got, err := h.call("everything__list_resources", `{}`)
		if err != nil || !strings.Contains(got, "demo://resource/static/document/architecture.md") || !strings.Contains(got, "demo://resource/dynamic/text/{resourceId}") {
			t.Fatalf("list_resources = %q, %v", got, err)
		}
		got, err = h.call("everything__read_resource", `{"uri":"demo://resource/static/document/architecture.md"}`)
		if err != nil || len(got) < 100 {
			t.Errorf("read_resource = %q, %v", got, err)
		}
		got, err = h.call("everything__read_resource", `{"uri":"demo://resource/dynamic/blob/1"}`)
		if err != nil || !strings.Contains(got, "[binary resource") {
			t.Errorf("blob = %q, %v", got, err)
		}
	})
	t.Run("prompts", func(t *testing.T) {
		var names []string
		for _, p := range h.m.Prompts() {
			names = append(names, p.Name)
		}
		if !strings.Contains(strings.Join(names, ","), "simple-prompt") || !strings.Contains(strings.Join(names, ","), "args-prompt") {
			t.Fatalf("prompts = %v", names)
		}
		pr, err := h.m.GetPrompt(context.Background(), "everything", "args-prompt", map[string]string{"city": "Lisbon"})
		if err != nil || len(pr.Messages) == 0 || !strings.Contains(pr.Messages[0].Text, "Lisbon") {
			t.Errorf("args-prompt = %+v, %v", pr, err)
		}
		got, err := h.call("everything__get_prompt", `{"name":"simple-prompt"}`)
		if err != nil || !strings.Contains(got, "[user]") {
			t.Errorf("get_prompt = %q, %v", got, err)
		}
	})
	t.Run("long-running call with progress", func(t *testing.T) {
		got, err := h.call("everything__trigger-long-running-operation", `{"duration":1,"steps":4}`)
		if err != nil || !strings.Contains(got, "completed") {
			t.Fatalf("long-running = %q, %v", got, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(progress) != 4 || progress[3].Progress != 4 || progress[3].Total != 4 || progress[0].Tool != "trigger-long-running-operation" {
			t.Errorf("progress = %+v", progress)
		}
	})
	t.Run("list changed: tools registered after initialize are seen", func(t *testing.T) {
		st := h.waitFor("everything", "simulate-research-query listed", 10*time.Second, func(st Status) bool {
			for _, ts := range st.Tools {
				if ts.Remote == "simulate-research-query" {
					return true
				}
			}
			return false
		})
		for _, ts := range st.Tools {
			if ts.Remote == "simulate-research-query" && !strings.Contains(ts.Skipped, "MCP task") {
				t.Errorf("a task-only tool is offered: %+v", ts)
			}
		}
	})
	t.Run("a call abandoned by the caller is cancelled", func(t *testing.T) {
		tool, _ := h.reg.Get("everything__trigger-long-running-operation")
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := tool.Execute(ctx, json.RawMessage(`{"duration":5,"steps":5}`))
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("error = %v after %s", err, time.Since(start))
		}
		if got, err := h.call("everything__echo", `{"message":"after"}`); err != nil || got != "Echo: after" {
			t.Errorf("echo after cancel = %q, %v", got, err)
		}
	})
	h.m.Close()
	checkNoZombies(t)
	leaks()
}

// TestChildEnvironmentIsMinimal sets a secret in Hermes's environment and
// checks the server cannot see it, while it sees what the entry declares.
func TestChildEnvironmentIsMinimal(t *testing.T) {
	t.Setenv("HERMES_TEST_SECRET", "s3cr3t-value")
	t.Setenv("HERMES_TEST_TOKEN", "declared-token")
	cfg := everything(t)
	cfg.Env = map[string]string{"API_TOKEN": "${HERMES_TEST_TOKEN}", "PLAIN": "yes"}
	h := newHarness(t, map[string]ServerConfig{"everything": cfg}, func(o *Options) { o.InitTimeout = 20 * time.Second })
	h.waitState("everything", StateReady, 20*time.Second)
	got, err := h.call("everything__get-env", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(got), &env); err != nil {
		t.Fatalf("get-env = %q: %v", got, err)
	}
	if strings.Contains(got, "s3cr3t-value") || env["HERMES_TEST_SECRET"] != "" {
		t.Errorf("the server sees the secret: %v", env)
	}
	if env["API_TOKEN"] != "declared-token" || env["PLAIN"] != "yes" || env["PATH"] == "" {
		t.Errorf("declared env = %v", env)
	}
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "TMPDIR": true, "API_TOKEN": true, "PLAIN": true,
		markerVar: true} // Hermes's own marker of its servers' descendants (orphan_linux.go), no secret
	for k := range env {
		if !allowed[k] {
			t.Errorf("the server got %s, which was neither inherited on purpose nor declared", k)
		}
	}
}

func TestFilesystemServer(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("buy milk\n"), 0o600)
	os.Mkdir(filepath.Join(root, "sub"), 0o700)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("top secret"), 0o600)
	h := newHarness(t, map[string]ServerConfig{"fs": {Command: "node", Args: []string{npmServer(t, "server-filesystem"), root}}},
		func(o *Options) { o.InitTimeout = 20 * time.Second })
	h.waitState("fs", StateReady, 20*time.Second)

	t.Run("lists the directory", func(t *testing.T) {
		got, err := h.call("fs__list_directory", `{"path":`+quote(root)+`}`)
		if err != nil || !strings.Contains(got, "[FILE] notes.txt") || !strings.Contains(got, "[DIR] sub") {
			t.Errorf("list_directory = %q, %v", got, err)
		}
	})
	t.Run("reads a file", func(t *testing.T) {
		got, err := h.call("fs__read_text_file", `{"path":`+quote(filepath.Join(root, "notes.txt"))+`}`)
		if err != nil || got != "buy milk\n" {
			t.Errorf("read_text_file = %q, %v", got, err)
		}
	})
	t.Run("refuses a path outside the directory", func(t *testing.T) {
		got, err := h.call("fs__read_text_file", `{"path":`+quote(outside)+`}`)
		var te *ToolError
		if !errors.As(err, &te) || !strings.Contains(te.Text, "Access denied") || strings.Contains(got, "top secret") {
			t.Errorf("outside = %q, %v", got, err)
		}
	})
	t.Run("writing asks first", func(t *testing.T) {
		in, _ := h.reg.Info("fs__write_file")
		if !in.NeedsApproval || !in.Annotations.Destructive {
			t.Errorf("write_file = %+v", in)
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestAgentFlow runs a model's call of an MCP tool through the tools engine:
// validation, breaker, timeout, the server, and the audit row.
func TestAgentFlow(t *testing.T) {
	h := newHarness(t, map[string]ServerConfig{"everything": everything(t)}, func(o *Options) { o.InitTimeout = 20 * time.Second })
	h.waitState("everything", StateReady, 20*time.Second)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	audit := tools.NewAuditLog(db)
	exec := tools.NewExecutor(h.reg, tools.Config{})
	exec.Audit = audit
	exec.OnAuditError = func(err error) { t.Errorf("audit: %v", err) }

	turn := exec.NewTurn(tools.TurnInfo{RequestID: "req-1", Allow: h.reg.InGroup(tools.GroupTask)})
	schemas := h.reg.Schemas(h.reg.InGroup(tools.GroupTask))
	offered := false
	for _, s := range schemas {
		offered = offered || s.Function.Name == "everything__echo"
	}
	if !offered {
		t.Fatal("the model is not offered everything__echo")
	}
	o, stop := turn.Run(context.Background(), llm.ToolCall{ID: "call-1", Name: "everything__echo", Arguments: json.RawMessage(`{"message":"from the model"}`)})
	if stop != nil || !o.OK() || o.Content != "Echo: from the model" {
		t.Fatalf("outcome = %+v, stop %v", o, stop)
	}
	bad, _ := turn.Run(context.Background(), llm.ToolCall{ID: "call-2", Name: "everything__echo", Arguments: json.RawMessage(`{"msg":1}`)})
	if bad.ErrorKind != tools.KindInvalidArguments {
		t.Errorf("invalid call = %+v", bad)
	}
	// A tool that asks, with no one to ask, is refused before the server sees it.
	refused, _ := turn.Run(context.Background(), llm.ToolCall{ID: "call-3", Name: "everything__toggle-simulated-logging", Arguments: json.RawMessage(`{}`)})
	if refused.ErrorKind != tools.KindApprovalFailed {
		t.Errorf("unapproved call = %+v", refused)
	}

	rows, err := audit.Query(context.Background(), tools.AuditFilter{RequestID: "req-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("audit rows = %+v", rows)
	}
	row := rows[2] // newest first
	in, _ := h.reg.Info("everything__echo")
	if row.Tool != "everything__echo" || row.Status != tools.StatusOK || row.CallID != "call-1" || row.DefinitionHash != in.DefinitionHash ||
		row.Arguments != `{"message":"from the model"}` {
		t.Errorf("audit row = %+v", row)
	}
}
