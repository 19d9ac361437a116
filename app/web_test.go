package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/tools"
)

// lockedBuffer is the terminal of `hermes serve` in these tests.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var codeLine = regexp.MustCompile(`approval code (\d{3}) (\d{3}) `)

// lastCode is the newest one-time code printed on the terminal.
func (b *lockedBuffer) lastCode(t *testing.T) string {
	t.Helper()
	all := codeLine.FindAllStringSubmatch(b.String(), -1)
	if len(all) == 0 {
		t.Fatalf("no approval code on the terminal: %q", b.String())
	}
	m := all[len(all)-1]
	return m[1] + m[2]
}

type webRig struct {
	web      *Web
	app      *App
	core     *Core
	url      string
	terminal *lockedBuffer
	clock    time.Time
	clockMu  sync.Mutex
}

func (r *webRig) advance(d time.Duration) {
	r.clockMu.Lock()
	r.clock = r.clock.Add(d)
	r.clockMu.Unlock()
}

func startWebRig(t *testing.T) *webRig {
	t.Helper()
	return startWebRigWith(t, llmtest.Echo(3, 0))
}

func startWebRigWith(t *testing.T, script func(api.ChatRequest) llmtest.Reply) *webRig {
	t.Helper()
	a, core, _, _ := newTestApp(t, script)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	assets := fstest.MapFS{
		"index.html":    {Data: []byte("<!doctype html><title>Hermes</title>")},
		"assets/app.js": {Data: []byte("console.log('hermes')")},
	}
	web, err := NewWeb(a, assets, ln)
	if err != nil {
		t.Fatal(err)
	}
	rig := &webRig{web: web, app: a, core: core, terminal: &lockedBuffer{}, clock: time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)}
	web.Notices = rig.terminal
	web.now = func() time.Time {
		rig.clockMu.Lock()
		defer rig.clockMu.Unlock()
		return rig.clock
	}
	srv := httptest.NewUnstartedServer(web)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	rig.url = srv.URL
	return rig
}

type webReply struct {
	status int
	body   map[string]any
	header http.Header
}

// do sends one request; header values of "" are left out.
func (r *webRig) do(t *testing.T, method, path, body string, header map[string]string) webReply {
	t.Helper()
	req, err := http.NewRequest(method, r.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := webReply{status: resp.StatusCode, header: resp.Header}
	_ = json.Unmarshal(b, &out.body)
	return out
}

// call posts a bound method with the token and, when code is set, the one-time code.
func (r *webRig) call(t *testing.T, method, code string, args ...any) webReply {
	t.Helper()
	b, _ := json.Marshal(args)
	return r.do(t, http.MethodPost, "/api/call/"+method, string(b), map[string]string{TokenHeader: r.web.Token(), CodeHeader: code})
}

func TestWebTokenOnlyInHeader(t *testing.T) {
	rig := startWebRig(t)
	tok := rig.web.Token()
	cases := []struct {
		name   string
		method string
		path   string
		header map[string]string
		cookie bool
		want   int
	}{
		{"a call without the token", http.MethodPost, "/api/call/ListSessions", nil, false, http.StatusUnauthorized},
		{"a call with a wrong token", http.MethodPost, "/api/call/ListSessions", map[string]string{TokenHeader: "guess"}, false, http.StatusUnauthorized},
		{"a call with the token in the query string", http.MethodPost, "/api/call/ListSessions?token=" + tok, nil, false, http.StatusUnauthorized},
		{"a call with the token in the old cookie", http.MethodPost, "/api/call/ListSessions", nil, true, http.StatusUnauthorized},
		{"the event stream with the token in the query string", http.MethodGet, "/api/events?token=" + tok, nil, false, http.StatusUnauthorized},
		{"an unknown API path without the token", http.MethodGet, "/api/nothing", nil, false, http.StatusUnauthorized},
		{"an unknown API path with the token", http.MethodGet, "/api/nothing", map[string]string{TokenHeader: tok}, false, http.StatusNotFound},
		{"a call with the token header", http.MethodPost, "/api/call/ListSessions", map[string]string{TokenHeader: tok}, false, http.StatusOK},
		{"a call from another origin", http.MethodPost, "/api/call/ListSessions", map[string]string{TokenHeader: tok, "Origin": "http://127.0.0.1:1"}, false, http.StatusForbidden},
		{"a call from a foreign site", http.MethodPost, "/api/call/ListSessions", map[string]string{TokenHeader: tok, "Origin": "http://evil.example"}, false, http.StatusForbidden},
		{"a foreign Host header (DNS rebinding)", http.MethodGet, "/", map[string]string{"Host": "attacker.example:80"}, false, http.StatusForbidden},
		{"an unknown method", http.MethodPost, "/api/call/DropTables", map[string]string{TokenHeader: tok}, false, http.StatusBadRequest},
		{"an unexported method", http.MethodPost, "/api/call/dispatch", map[string]string{TokenHeader: tok}, false, http.StatusBadRequest},
		{"the page (it holds no secret)", http.MethodGet, "/", nil, false, http.StatusOK},
		{"the page's script", http.MethodGet, "/assets/app.js", nil, false, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, rig.url+tc.path, strings.NewReader("[]"))
			for k, v := range tc.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			if tc.cookie {
				req.AddCookie(&http.Cookie{Name: tokenCookie, Value: tok})
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status = %d; want %d", resp.StatusCode, tc.want)
			}
		})
	}

	t.Run("the URL with the token sets no cookie and deletes an old one", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, rig.url+"/?token="+tok, nil)
		req.AddCookie(&http.Cookie{Name: tokenCookie, Value: tok})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Fatalf("status %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
		}
		for _, c := range resp.Cookies() {
			if strings.Contains(c.Value, tok) || c.MaxAge >= 0 {
				t.Fatalf("a cookie that is not a deletion: %+v", c)
			}
		}
		if len(resp.Cookies()) != 1 {
			t.Fatalf("cookies = %+v; want the old one deleted", resp.Cookies())
		}
		resp, err = http.Get(rig.url + "/?token=" + tok)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if len(resp.Cookies()) != 0 {
			t.Fatalf("cookies = %+v; want none", resp.Cookies())
		}
	})
}

func TestWebEventsWithTheTokenHeader(t *testing.T) {
	rig := startWebRig(t)
	req, _ := http.NewRequest(http.MethodGet, rig.url+"/api/events", nil)
	req.Header.Set(TokenHeader, rig.web.Token())
	evResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer evResp.Body.Close()
	buf := make([]byte, 64)
	if n, _ := evResp.Body.Read(buf); !strings.Contains(string(buf[:n]), "connected") {
		t.Fatalf("no SSE preamble: %q", buf[:n])
	}
	// Subscribed before "connected": an event emitted right after it arrives.
	rig.web.emit("db:waiting", true)
	got := make([]byte, 4096)
	n, _ := evResp.Body.Read(got)
	if !strings.Contains(string(got[:n]), `{"data":true,"name":"db:waiting"}`) {
		t.Fatalf("event stream = %q", got[:n])
	}
	if res := rig.call(t, "SendMessage", "", "req-1", "", "hi web"); res.status != http.StatusOK {
		t.Fatalf("SendMessage = %d %v", res.status, res.body)
	}
	n, _ = evResp.Body.Read(got)
	if !strings.Contains(string(got[:n]), `"name":"chat:delta:req-1"`) {
		t.Fatalf("event stream = %q", got[:n])
	}
}

// addServer adds an MCP entry over the web whose command does not exist (nothing runs).
func (r *webRig) addServer(t *testing.T, name, command string) {
	t.Helper()
	cfg := map[string]any{"command": command, "args": []string{"--stdio"}}
	if res := r.call(t, "MCPAddServer", "", name, cfg); res.status != http.StatusOK || res.body["approved"] != false {
		t.Fatalf("MCPAddServer = %d %v", res.status, res.body)
	}
}

func (r *webRig) approved(t *testing.T, name string) bool {
	t.Helper()
	st, err := r.core.mcpManager().Server(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Approved
}

func TestWebMCPApproveNeedsTheTerminalCode(t *testing.T) {
	rig := startWebRig(t)
	if err := rig.core.StartMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	rig.addServer(t, "files", "/nonexistent/hermes-test-server")

	t.Run("without a code a code is printed and nothing is approved", func(t *testing.T) {
		res := rig.call(t, "MCPApprove", "", "files")
		if res.status != http.StatusPreconditionRequired || res.body["confirm"] != "required" {
			t.Fatalf("MCPApprove = %d %v", res.status, res.body)
		}
		if term := rig.terminal.String(); !strings.Contains(term, `start the MCP server "files": /nonexistent/hermes-test-server --stdio`) {
			t.Fatalf("the terminal does not say what the code approves: %q", term)
		}
		if rig.approved(t, "files") {
			t.Fatal("approved without a code")
		}
	})
	t.Run("a wrong code is refused and says how many tries are left", func(t *testing.T) {
		code := rig.terminal.lastCode(t)
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		res := rig.call(t, "MCPApprove", wrong, "files")
		if res.status != http.StatusForbidden || res.body["confirm"] != "wrong" || res.body["tries_left"] != float64(2) {
			t.Fatalf("MCPApprove = %d %v", res.status, res.body)
		}
		if rig.approved(t, "files") {
			t.Fatal("approved with a wrong code")
		}
	})
	t.Run("the printed code approves, once", func(t *testing.T) {
		code := rig.terminal.lastCode(t)
		res := rig.call(t, "MCPApprove", code[:3]+" "+code[3:], "files") // typed as printed
		if res.status != http.StatusOK || !rig.approved(t, "files") {
			t.Fatalf("MCPApprove = %d %v", res.status, res.body)
		}
		res = rig.call(t, "MCPApprove", code, "files")
		if res.status != http.StatusPreconditionRequired || res.body["confirm"] != "expired" {
			t.Fatalf("the same code again = %d %v; want it used up", res.status, res.body)
		}
	})
	t.Run("a code expires after five minutes", func(t *testing.T) {
		rig.addServer(t, "late", "/nonexistent/late")
		rig.call(t, "MCPApprove", "", "late")
		code := rig.terminal.lastCode(t)
		rig.advance(codeTTL + time.Second)
		res := rig.call(t, "MCPApprove", code, "late")
		if res.status != http.StatusPreconditionRequired || res.body["confirm"] != "expired" || rig.approved(t, "late") {
			t.Fatalf("MCPApprove with an old code = %d %v", res.status, res.body)
		}
	})
	t.Run("a code is void when the entry changed after it was printed", func(t *testing.T) {
		rig.addServer(t, "swap", "/nonexistent/harmless")
		rig.call(t, "MCPApprove", "", "swap")
		code := rig.terminal.lastCode(t)
		rig.addServer(t, "swap", "/nonexistent/evil")
		res := rig.call(t, "MCPApprove", code, "swap")
		if res.status != http.StatusPreconditionRequired || rig.approved(t, "swap") {
			t.Fatalf("MCPApprove after the entry changed = %d %v", res.status, res.body)
		}
		if !strings.Contains(rig.terminal.String(), `start the MCP server "swap": /nonexistent/evil --stdio`) {
			t.Fatalf("the new code does not name the new command: %q", rig.terminal.String())
		}
	})
	t.Run("a code is bound to its server", func(t *testing.T) {
		rig.addServer(t, "one", "/nonexistent/one")
		rig.addServer(t, "two", "/nonexistent/two")
		rig.call(t, "MCPApprove", "", "one")
		code := rig.terminal.lastCode(t)
		if res := rig.call(t, "MCPApprove", code, "two"); res.status == http.StatusOK || rig.approved(t, "two") {
			t.Fatalf("the code of one approved two: %d %v", res.status, res.body)
		}
	})
	t.Run("three wrong tries use a code up", func(t *testing.T) {
		rig.addServer(t, "tries", "/nonexistent/tries")
		rig.call(t, "MCPApprove", "", "tries")
		first := rig.terminal.lastCode(t)
		wrong := "999999"
		if first == wrong {
			wrong = "888888"
		}
		rig.call(t, "MCPApprove", wrong, "tries")
		rig.call(t, "MCPApprove", wrong, "tries")
		res := rig.call(t, "MCPApprove", wrong, "tries")
		if res.status != http.StatusPreconditionRequired || res.body["confirm"] != "wrong" {
			t.Fatalf("third wrong try = %d %v; want a new code", res.status, res.body)
		}
		if res := rig.call(t, "MCPApprove", first, "tries"); res.status == http.StatusOK {
			t.Fatal("a used-up code still approved")
		}
	})
	t.Run("too many wrong codes lock approvals from the browser", func(t *testing.T) {
		rig.addServer(t, "guess", "/nonexistent/guess")
		var res webReply
		for i := 0; i < codeLockAfter*2 && res.body["confirm"] != "locked"; i++ {
			if i%codeTries == 0 {
				rig.call(t, "MCPApprove", "", "guess")
			}
			guess := "123456"
			if rig.terminal.lastCode(t) == guess {
				guess = "654321"
			}
			res = rig.call(t, "MCPApprove", guess, "guess")
		}
		if res.status != http.StatusTooManyRequests || res.body["confirm"] != "locked" {
			t.Fatalf("after many wrong codes = %d %v", res.status, res.body)
		}
		res = rig.call(t, "MCPApprove", "", "guess")
		if res.status != http.StatusTooManyRequests {
			t.Fatalf("a new code after the lock = %d %v", res.status, res.body)
		}
		if !strings.Contains(rig.terminal.String(), "locked until `hermes serve` restarts") {
			t.Fatalf("the terminal was not told: %q", rig.terminal.String())
		}
	})
}

func TestWebCommandToolApprovalNeedsTheTerminalCode(t *testing.T) {
	rig := startWebRig(t)
	// ask starts an approval prompt as a turn's tool call would, and returns its decision.
	ask := func(tool string, ann tools.Annotations) (string, chan tools.Decision) {
		t.Helper()
		rig.web.promptMu.Lock()
		known := map[string]bool{}
		for id := range rig.web.prompts {
			known[id] = true
		}
		rig.web.promptMu.Unlock()
		got := make(chan tools.Decision, 1)
		go func() {
			d, _ := rig.app.Chat.approvals.Approve(context.Background(), tools.ApprovalRequest{Tool: tool, Annotations: ann,
				Args: json.RawMessage(`{"text":"hi"}`), DefinitionHash: "h-" + tool})
			got <- d
		}()
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			rig.web.promptMu.Lock()
			for id := range rig.web.prompts {
				if !known[id] {
					rig.web.promptMu.Unlock()
					return id, got
				}
			}
			rig.web.promptMu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("no approval prompt for %s", tool)
		return "", nil
	}
	decision := func(ch chan tools.Decision) tools.Decision {
		t.Helper()
		select {
		case d := <-ch:
			return d
		case <-time.After(5 * time.Second):
			t.Fatal("the call never got an answer")
			return tools.Decision{}
		}
	}

	t.Run("allowing a command tool needs the code", func(t *testing.T) {
		id, got := ask("shout", tools.Annotations{Command: true})
		res := rig.call(t, "ResolveApproval", "", id, true, "once")
		if res.status != http.StatusPreconditionRequired || res.body["confirm"] != "required" {
			t.Fatalf("ResolveApproval = %d %v", res.status, res.body)
		}
		if !strings.Contains(rig.terminal.String(), `let the tool "shout" run its program with {"text":"hi"}`) {
			t.Fatalf("terminal = %q", rig.terminal.String())
		}
		select {
		case d := <-got:
			t.Fatalf("the call was answered without a code: %+v", d)
		case <-time.After(50 * time.Millisecond):
		}
		res = rig.call(t, "ResolveApproval", rig.terminal.lastCode(t), id, true, "once")
		if res.status != http.StatusOK {
			t.Fatalf("ResolveApproval with the code = %d %v", res.status, res.body)
		}
		if d := decision(got); !d.Allow {
			t.Fatalf("decision = %+v", d)
		}
	})
	t.Run("denying needs no code", func(t *testing.T) {
		id, got := ask("shout", tools.Annotations{Command: true})
		if res := rig.call(t, "ResolveApproval", "", id, false, "once"); res.status != http.StatusOK {
			t.Fatalf("ResolveApproval = %d %v", res.status, res.body)
		}
		if d := decision(got); d.Allow {
			t.Fatalf("decision = %+v", d)
		}
	})
	t.Run("a tool that runs no program needs no code", func(t *testing.T) {
		id, got := ask("delete_note", tools.Annotations{Destructive: true})
		if res := rig.call(t, "ResolveApproval", "", id, true, "session"); res.status != http.StatusOK {
			t.Fatalf("ResolveApproval = %d %v", res.status, res.body)
		}
		if d := decision(got); !d.Allow {
			t.Fatalf("decision = %+v", d)
		}
	})
	t.Run("the code of one prompt does not answer another", func(t *testing.T) {
		id1, got1 := ask("shout", tools.Annotations{Command: true})
		rig.call(t, "ResolveApproval", "", id1, true, "once")
		code := rig.terminal.lastCode(t)
		id2, got2 := ask("shout", tools.Annotations{Command: true})
		if res := rig.call(t, "ResolveApproval", code, id2, true, "once"); res.status == http.StatusOK {
			t.Fatalf("the code of %s answered %s", id1, id2)
		}
		rig.call(t, "ResolveApproval", "", id1, false, "once")
		rig.call(t, "ResolveApproval", "", id2, false, "once")
		decision(got1)
		decision(got2)
	})
	t.Run("an answered prompt is forgotten", func(t *testing.T) {
		rig.web.promptMu.Lock()
		n := len(rig.web.prompts)
		rig.web.promptMu.Unlock()
		if n != 0 {
			t.Fatalf("%d prompts still remembered", n)
		}
	})
}

// TestWebOllamaPathNeedsTheTerminalCode: ollama_path names a program Hermes
// starts, so setting it from the browser needs the printed code; other
// settings do not.
func TestWebOllamaPathNeedsTheTerminalCode(t *testing.T) {
	rig := startWebRig(t)
	if res := rig.call(t, "SetSetting", "", "recent_turns", "5"); res.status != http.StatusOK {
		t.Fatalf("an ordinary setting = %d %v", res.status, res.body)
	}
	res := rig.call(t, "SetSetting", "", "ollama_path", "/tmp/evil")
	if res.status != http.StatusPreconditionRequired || !strings.Contains(rig.terminal.String(), `let Hermes start "/tmp/evil" as Ollama`) {
		t.Fatalf("ollama_path without a code = %d %v", res.status, res.body)
	}
	if v, _ := rig.core.settings.Get(context.Background(), "ollama_path"); v != "" {
		t.Fatalf("ollama_path was set to %q without a code", v)
	}
	code := rig.terminal.lastCode(t)
	if res := rig.call(t, "SetSetting", code, "ollama_path", "/usr/local/bin/ollama"); res.status == http.StatusOK {
		t.Fatal("a code printed for one path set another")
	}
}

// A request over what its method takes is refused in words, with a code the
// page translates and the limit: never a raw status or a method's name.
func TestWebRequestTooBigIsWorded(t *testing.T) {
	rig := startWebRig(t)
	body := `["` + strings.Repeat("x", 2<<20) + `"]`
	req, _ := http.NewRequest(http.MethodPost, rig.url+"/api/call/SendMessage", strings.NewReader(body))
	req.Header.Set(TokenHeader, rig.web.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge || got.Code != CodeRequestTooBig || got.Params["limit"] != "1" ||
		strings.Contains(got.Error, "SendMessage") || !strings.Contains(got.Error, "Attach long text as a file") {
		t.Fatalf("%d %+v", resp.StatusCode, got)
	}
}

// TestWebDecodesArgumentsByType: each argument is decoded into its parameter's
// own type, as the window's binding does: a boolean and a list arrive as JSON
// values, and a value of the wrong type is a bad call that changes nothing.
func TestWebDecodesArgumentsByType(t *testing.T) {
	rig := startWebRig(t)
	s, err := rig.app.Chat.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if res := rig.call(t, "PinSession", "", s.ID, "true"); res.status != http.StatusBadRequest {
		t.Fatalf("a boolean sent as text: %d %v", res.status, res.body)
	}
	if got, _ := rig.app.Sessions.LoadSession(s.ID); got.Session.Pinned {
		t.Fatal("a bad call pinned the chat")
	}
	if res := rig.call(t, "PinSession", "", s.ID, true); res.status != http.StatusOK || res.body["pinned"] != true {
		t.Fatalf("PinSession(id, true) = %d %v", res.status, res.body)
	}
	if res := rig.call(t, "MemoryForget", "", `["x"]`); res.status != http.StatusBadRequest {
		t.Fatalf("a list sent as text: %d %v", res.status, res.body)
	}
	res := rig.call(t, "MemoryForget", "", []string{})
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(res.body["error"]), "at least one memory id") {
		t.Fatalf("MemoryForget([]) = %d %v", res.status, res.body)
	}
	if res := rig.call(t, "ResumeWorkflow", "", "no-such-run", "true"); res.status != http.StatusBadRequest {
		t.Fatalf("a request-bound call with a boolean sent as text: %d %v", res.status, res.body)
	}
}

// TestWebTableHoldsEveryMethod: web mode calls the bound services' methods
// (App's and each domain service's, boundServices) through the table bindgen
// writes (webmethods_gen.go); a method added, removed or given other
// parameters since it was written fails here until `go generate ./app`.
func TestWebTableHoldsEveryMethod(t *testing.T) {
	a, _, _, _ := newTestApp(t, nil)
	table := a.webMethods()
	services := a.boundServices()
	if len(services) < 2 || services[0] != any(a) {
		t.Fatalf("bound services = %T: want App first, then the domain services", services)
	}
	n := 0
	for _, svc := range services {
		typ := reflect.TypeOf(svc)
		if reflect.ValueOf(svc).IsNil() {
			t.Fatalf("%s is bound but NewApp left it nil", typ)
		}
		for i := range typ.NumMethod() {
			m := typ.Method(i)
			n++
			w, ok := table[m.Name]
			if !ok {
				t.Errorf("%s.%s is not in the web table: run go generate ./app", typ.Elem().Name(), m.Name)
			} else if w.args != m.Type.NumIn()-1 {
				t.Errorf("%s takes %d arguments; the web table says %d: run go generate ./app", m.Name, m.Type.NumIn()-1, w.args)
			}
		}
	}
	if len(table) != n {
		t.Errorf("the web table has %d methods, the bound services %d: run go generate ./app", len(table), n)
	}
	// the table calls the domain service, not App
	if _, err := table["KBList"].call(context.Background(), []json.RawMessage{}); err != nil {
		t.Fatalf("KBList through the web table: %v", err)
	}
}
