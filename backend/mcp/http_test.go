package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"hermes/backend/llm"
	"hermes/backend/store"
	"hermes/backend/tools"
)

// freePort finds a loopback port nothing listens on.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startEverythingHTTP runs the real server-everything in a network mode
// ("streamableHttp" or "sse") on port; the returned function kills it.
func startEverythingHTTP(t testing.TB, mode string, port int) (stop func()) {
	t.Helper()
	cmd := exec.Command("node", npmServer(t, "server-everything"), mode)
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return stop
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything %s did not listen on %d: %v", mode, port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func remoteOptions(o *Options) {
	o.InitTimeout, o.RequestTimeout = 20*time.Second, 20*time.Second
	o.PingInterval = 200 * time.Millisecond
}

// TestRemoteEverythingServer: the real server-everything over Streamable HTTP,
// through approval, tools, resources, prompts, list_changed and a restart.
func TestRemoteEverythingServer(t *testing.T) {
	leaks := checkGoroutines(t)
	port := freePort(t)
	stop := startEverythingHTTP(t, "streamableHttp", port)
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	h := newHarness(t, map[string]ServerConfig{"web": {URL: url}}, remoteOptions, true)

	st := h.waitState("web", StateAwaitingApproval, 5*time.Second)
	if st.Transport != TransportHTTP || st.URL != url || st.Approved || !strings.Contains(st.Command, "Streamable HTTP "+url) || st.PID != 0 {
		t.Fatalf("before approval: %+v", st)
	}
	if err := h.m.Approve(context.Background(), "web"); err != nil {
		t.Fatal(err)
	}
	st = h.waitState("web", StateReady, 20*time.Second)
	if st.ServerName != "mcp-servers/everything" || !st.HasResources || len(st.Prompts) == 0 {
		t.Errorf("status = %+v", st)
	}
	// Over HTTP Hermes asks for 2025-06-18 (no priming event on every response
	// stream: see session.protocolVersion), and the server agrees.
	if st.Protocol != "2025-06-18" {
		t.Errorf("protocol over HTTP = %q", st.Protocol)
	}

	t.Run("echo", func(t *testing.T) {
		if got, err := h.call("web__echo", `{"message":"over http"}`); err != nil || got != "Echo: over http" {
			t.Errorf("echo = %q, %v", got, err)
		}
	})
	t.Run("resources are browsable", func(t *testing.T) {
		list, err := h.m.Resources(context.Background(), "web")
		if err != nil || len(list) < 7 {
			t.Fatalf("resources = %+v, %v", list, err)
		}
		var uri string
		for _, r := range list {
			if strings.HasSuffix(r.URI, "architecture.md") {
				uri = r.URI
			}
		}
		rc, err := h.m.ReadResource(context.Background(), "web", uri)
		if err != nil || len(rc.Text) < 100 || rc.Binary {
			t.Errorf("read %s = %+v, %v", uri, rc, err)
		}
		blob, err := h.m.ReadResource(context.Background(), "web", "demo://resource/dynamic/blob/1")
		if err != nil || !blob.Binary || !strings.Contains(blob.Text, "[binary resource") {
			t.Errorf("blob = %+v, %v", blob, err)
		}
	})
	t.Run("prompt", func(t *testing.T) {
		pr, err := h.m.GetPrompt(context.Background(), "web", "args-prompt", map[string]string{"city": "Lisbon"})
		if err != nil || len(pr.Messages) == 0 || !strings.Contains(pr.Messages[0].Text, "Lisbon") {
			t.Errorf("args-prompt = %+v, %v", pr, err)
		}
	})
	t.Run("list changed: tools registered after initialize are seen", func(t *testing.T) {
		h.waitFor("web", "simulate-research-query listed", 10*time.Second, func(st Status) bool {
			for _, ts := range st.Tools {
				if ts.Remote == "simulate-research-query" {
					return true
				}
			}
			return false
		})
	})
	t.Run("server killed and started again: tools come back", func(t *testing.T) {
		stop()
		h.waitFor("web", "not ready after the kill", 10*time.Second, func(st Status) bool { return st.State != StateReady })
		if _, ok := h.reg.Get("web__echo"); ok {
			t.Error("the tools of a lost server stay registered")
		}
		startEverythingHTTP(t, "streamableHttp", port)
		h.waitState("web", StateReady, 20*time.Second)
		if got, err := h.call("web__echo", `{"message":"back"}`); err != nil || got != "Echo: back" {
			t.Errorf("echo after restart = %q, %v", got, err)
		}
	})
	h.m.Close()
	leaks()
}

// TestRemoteLegacySSE: an entry of type sse, and a Streamable HTTP entry whose
// server answers the probe with 4xx, both reach the legacy transport.
func TestRemoteLegacySSE(t *testing.T) {
	port := freePort(t)
	startEverythingHTTP(t, "sse", port)
	url := fmt.Sprintf("http://127.0.0.1:%d/sse", port)
	h := newHarness(t, map[string]ServerConfig{"declared": {URL: url, Type: TransportSSE}, "probed": {URL: url}}, remoteOptions)
	for _, name := range []string{"declared", "probed"} {
		st := h.waitState(name, StateReady, 20*time.Second)
		if got, err := h.call(name+"__echo", `{"message":"legacy"}`); err != nil || got != "Echo: legacy" {
			t.Errorf("%s: echo = %q, %v (status %+v)", name, got, err, st)
		}
	}
}

// bearerServer is an MCP server (mcp-go's Streamable HTTP) that requires
// "Authorization: Bearer <token>"; seen collects every Authorization header.
func bearerServer(t *testing.T, token string, seen *[]string) *httptest.Server {
	var mu sync.Mutex
	s := mcpserver.NewMCPServer("bearer", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("whoami", mcpgo.WithDescription("Says hello."), mcpgo.WithReadOnlyHintAnnotation(true)),
		func(_ context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("hello, token holder"), nil
		})
	h := mcpserver.NewStreamableHTTPServer(s)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*seen = append(*seen, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("WWW-Authenticate", `Bearer realm="test"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRemoteBearerToken(t *testing.T) {
	const token = "tok-7f3a9c2e51d8"
	var seen []string
	srv := bearerServer(t, token, &seen)
	entry := ServerConfig{URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer ${HERMES_MCP_TOKEN}"}, AutoApprove: []string{"whoami"}}
	withEnv := func(env ...string) func(*Options) {
		return func(o *Options) {
			remoteOptions(o)
			o.Environ = func() []string { return env }
		}
	}
	noLeak := func(t *testing.T, h *harness, what string) {
		t.Helper()
		b, _ := json.Marshal(h.m.List())
		stderr, _ := h.m.Stderr("auth")
		if strings.Contains(string(b)+stderr, token) {
			t.Errorf("%s: the token shows in the status or stderr: %s", what, b)
		}
	}

	t.Run("token from the environment works and is never shown", func(t *testing.T) {
		h := newHarness(t, map[string]ServerConfig{"auth": entry}, withEnv("HERMES_MCP_TOKEN="+token))
		st := h.waitState("auth", StateReady, 10*time.Second)
		if st.Config.Headers["Authorization"] != Redacted || strings.Join(st.HeaderNames, ",") != "Authorization" || strings.Contains(st.Command, token) {
			t.Errorf("status shows = %+v", st)
		}
		db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		audit := tools.NewAuditLog(db)
		exec := tools.NewExecutor(h.reg, tools.Config{})
		exec.Audit = audit
		turn := exec.NewTurn(tools.TurnInfo{RequestID: "req-auth", Allow: h.reg.InGroup(tools.GroupTask)})
		o, _ := turn.Run(context.Background(), llm.ToolCall{ID: "c1", Name: "auth__whoami", Arguments: json.RawMessage(`{}`)})
		if !o.OK() || o.Content != "hello, token holder" {
			t.Fatalf("whoami = %+v", o)
		}
		rows, err := audit.Query(context.Background(), tools.AuditFilter{RequestID: "req-auth"})
		b, _ := json.Marshal(rows)
		if err != nil || len(rows) != 1 || strings.Contains(string(b), token) {
			t.Errorf("audit = %s, %v", b, err)
		}
		noLeak(t, h, "ready")
		raw, _ := json.Marshal(h.m.List())
		if !strings.Contains(string(raw), `"Authorization":"[REDACTED]"`) {
			t.Errorf("status JSON does not redact the header: %s", raw)
		}
	})
	t.Run("a missing variable is a clear error", func(t *testing.T) {
		h := newHarness(t, map[string]ServerConfig{"auth": entry}, withEnv())
		st := h.waitState("auth", StateCrashed, 10*time.Second) // no retry can help: it waits for the user
		if !strings.Contains(st.Error, "header Authorization uses ${HERMES_MCP_TOKEN}, which is not set in Hermes's environment") || st.Restarts != 0 {
			t.Errorf("status = %q, %d restarts", st.Error, st.Restarts)
		}
	})
	t.Run("a wrong token names the header", func(t *testing.T) {
		h := newHarness(t, map[string]ServerConfig{"auth": entry}, withEnv("HERMES_MCP_TOKEN=wrong-token-123"))
		st := h.waitFor("auth", "an error", 10*time.Second, func(st Status) bool { return st.Error != "" })
		if !strings.Contains(st.Error, "refused the credentials (HTTP 401); check the value of the header Authorization") || strings.Contains(st.Error, "wrong-token-123") {
			t.Errorf("error = %q", st.Error)
		}
	})
	t.Run("no header at all says which to add", func(t *testing.T) {
		h := newHarness(t, map[string]ServerConfig{"auth": {URL: srv.URL + "/mcp"}}, withEnv())
		st := h.waitFor("auth", "an error", 10*time.Second, func(st Status) bool { return st.Error != "" })
		if !strings.Contains(st.Error, `it needs credentials; add them to the entry in mcp.json as a header, e.g. "headers": {"Authorization": "Bearer ${MCP_TOKEN}"}`) {
			t.Errorf("error = %q", st.Error)
		}
	})
	t.Run("an edit that keeps [REDACTED] keeps the secret", func(t *testing.T) {
		h := newHarness(t, map[string]ServerConfig{"auth": {URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer " + token}}}, withEnv())
		h.waitState("auth", StateReady, 10*time.Second)
		st, _ := h.m.Server("auth")
		cfg := st.Config
		cfg.Timeout = Duration(15 * time.Second)
		if _, err := h.m.UpdateServer(context.Background(), "auth", cfg); err != nil {
			t.Fatal(err)
		}
		cur, err := LoadConfig(filepath.Join(h.dir, "mcp.json"))
		if err != nil || cur.Servers["auth"].Headers["Authorization"] != "Bearer "+token || cur.Servers["auth"].Timeout != Duration(15*time.Second) {
			t.Errorf("mcp.json after the edit = %+v, %v", cur.Servers["auth"], err)
		}
		h.waitState("auth", StateReady, 10*time.Second)
		noLeak(t, h, "after an edit")
	})
}

// TestRemoteRefusals: what the network rules never reach.
func TestRemoteRefusals(t *testing.T) {
	var away atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		away.Add(1)
		http.Error(w, "should not be reached", http.StatusTeapot)
	}))
	defer other.Close()
	// 127.0.0.1 redirects to "localhost": the same machine, another host name.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()

	h := newHarness(t, map[string]ServerConfig{
		"redirect": {URL: redirector.URL + "/mcp", Headers: map[string]string{"X-Api-Key": "key-5150-secret"}},
		"internet": {URL: "https://mcp.example.com/mcp"},
		"metadata": {URL: "http://169.254.169.254/latest/meta-data", AllowInternet: true},
	}, remoteOptions, true)
	for name, want := range map[string]string{
		"internet": "is not a local name",
		"metadata": "link-local and cloud-metadata addresses are never reached",
	} {
		st := h.waitState(name, StateInvalid, 5*time.Second)
		if !strings.Contains(st.Error, want) {
			t.Errorf("%s: error = %q; want %q", name, st.Error, want)
		}
		if err := h.m.Approve(context.Background(), name); err == nil {
			t.Errorf("%s: approved an entry the rules refuse", name)
		}
	}
	if err := h.m.Approve(context.Background(), "redirect"); err != nil {
		t.Fatal(err)
	}
	st := h.waitFor("redirect", "an error", 10*time.Second, func(st Status) bool { return st.Error != "" })
	if !strings.Contains(st.Error, "redirected to "+otherURL) || strings.Contains(st.Error, "key-5150-secret") {
		t.Errorf("redirect error = %q", st.Error)
	}
	if n := away.Load(); n != 0 {
		t.Errorf("the other host received %d request(s)", n)
	}
}

// TestEntryTimeoutBoundsInitialize: a server that never answers initialize
// fails at its entry's own timeout, with a message that says so.
func TestEntryTimeoutBoundsInitialize(t *testing.T) {
	cfg := fake("-mode", "hang-init")
	cfg.Timeout = Duration(300 * time.Millisecond)
	start := time.Now()
	h := newHarness(t, map[string]ServerConfig{"hung": cfg}, func(o *Options) { o.InitTimeout = 20 * time.Second })
	st := h.waitFor("hung", "an error", 5*time.Second, func(st Status) bool { return st.Error != "" })
	if !strings.Contains(st.Error, "did not answer initialize within 300ms") || time.Since(start) > 3*time.Second {
		t.Errorf("after %s: %q", time.Since(start), st.Error)
	}
}
