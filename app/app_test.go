package app

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

type events struct {
	mu  sync.Mutex
	got []string
	ch  chan string
}

func (e *events) emit(name string, data any) {
	b, _ := json.Marshal(data)
	e.mu.Lock()
	e.got = append(e.got, name+" "+string(b))
	e.mu.Unlock()
	if e.ch != nil {
		select {
		case e.ch <- name:
		default:
		}
	}
}

func newTestApp(t testing.TB, script func(api.ChatRequest) llmtest.Reply) (*App, *Core, *llmtest.Server, *events) {
	t.Helper()
	fake := llmtest.New()
	fake.Chat = script
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL}
	core, err := Open(context.Background(), Options{DataDir: t.TempDir(), Getenv: func(k string) string { return env[k] },
		IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	ev := &events{}
	return NewApp(core, ev.emit), core, fake, ev
}

func TestSendMessageStreamsDeltasAndPersists(t *testing.T) {
	a, _, _, ev := newTestApp(t, llmtest.Echo(5, 0))
	res, err := a.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, e := range ev.got {
		name, payload, _ := strings.Cut(e, " ")
		if name != "chat:delta:r1" {
			t.Fatalf("unexpected event %q", name)
		}
		var d Delta
		json.Unmarshal([]byte(payload), &d)
		text.WriteString(d.Text)
	}
	if text.String() != res.Assistant.Content || !strings.HasPrefix(res.Assistant.Content, "Echo: hello") {
		t.Fatalf("deltas %q vs reply %q", text.String(), res.Assistant.Content)
	}
	d, err := a.LoadSession(res.Session.ID)
	if err != nil || len(d.Messages) != 2 || d.Messages[1].Status != "ok" {
		t.Fatalf("detail = %+v, %v", d, err)
	}
}

func TestCancelMessageKeepsPartial(t *testing.T) {
	a, _, _, ev := newTestApp(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.Words(strings.Repeat("word ", 100)), Delay: 10 * time.Millisecond}
	})
	ev.ch = make(chan string, 100)
	go func() {
		<-ev.ch // the first delta arrived
		a.CancelMessage("r2")
	}()
	res, err := a.SendMessage("r2", "", "go on")
	if err != nil {
		t.Fatal(err)
	}
	if res.Assistant.Status != "cancelled" || res.Assistant.Content == "" || len(res.Assistant.Content) > 200 {
		t.Fatalf("assistant = %+v", res.Assistant)
	}
}

func TestErrorsAreUserMessages(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	if _, err := a.SendMessage("r3", "", "   "); err == nil || err.Error() != "Type a message first." {
		t.Fatalf("empty: %v", err)
	}
	if _, err := a.SetSetting("chat_model", "no such"); err == nil || !strings.HasPrefix(err.Error(), "chat_model:") {
		t.Fatalf("bad setting: %v", err)
	}
	if _, err := a.SetSetting("chat_model", "mistral"); err != nil {
		t.Fatal(err)
	}
	_, err := a.SendMessage("r4", "", "hi")
	if err == nil || !strings.Contains(err.Error(), "ollama pull mistral") {
		t.Fatalf("missing model: %v", err)
	}
	st, _ := a.Status()
	if !st.Reachable || st.ModelAvailable || !strings.Contains(st.Fix, "ollama pull mistral") {
		t.Fatalf("status = %+v", st)
	}
	_ = fake
	// Point at a closed port: unreachable, with the fix.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	if err := core.Settings.Set(context.Background(), "ollama_host", addr); err != nil {
		t.Fatal(err)
	}
	st, _ = a.Status()
	if st.Reachable || !strings.Contains(st.Problem, "not reachable") || !strings.Contains(st.Fix, "ollama serve") {
		t.Fatalf("status = %+v", st)
	}
	_, err = a.SendMessage("r5", "", "anyone there?")
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not reachable at http://"+addr) {
		t.Fatalf("unreachable: %v", err)
	}
	// The message typed while Ollama was down is still stored.
	list, _ := a.ListSessions()
	if len(list) == 0 || list[0].Title != "anyone there?" {
		t.Fatalf("sessions = %+v", list)
	}
}

func newTestWeb(t *testing.T) (*Web, *httptest.Server) {
	t.Helper()
	a, _, _, _ := newTestApp(t, llmtest.Echo(3, 0))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Hermes</title>")}}
	web, err := NewWeb(a, assets, ln)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(web)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return web, srv
}

func TestWebAuth(t *testing.T) {
	web, srv := newTestWeb(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	cases := []struct {
		name   string
		path   string
		header map[string]string
		host   string
		want   int
	}{
		{"no token", "/api/call/ListSessions", nil, "", http.StatusUnauthorized},
		{"wrong token", "/api/call/ListSessions", map[string]string{"X-Hermes-Token": "guess"}, "", http.StatusUnauthorized},
		{"page without token", "/", nil, "", http.StatusUnauthorized},
		{"bad origin", "/api/call/ListSessions", map[string]string{"X-Hermes-Token": web.Token(), "Origin": "http://evil.example"}, "", http.StatusForbidden},
		{"bad host (DNS rebinding)", "/api/call/ListSessions", map[string]string{"X-Hermes-Token": web.Token()}, "attacker.example:80", http.StatusForbidden},
		{"token header", "/api/call/ListSessions", map[string]string{"X-Hermes-Token": web.Token()}, "", http.StatusOK},
		{"same origin", "/api/call/ListSessions", map[string]string{"X-Hermes-Token": web.Token(), "Origin": "http://" + host}, "", http.StatusOK},
		{"unknown method", "/api/call/DropTables", map[string]string{"X-Hermes-Token": web.Token()}, "", http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodPost
			if tc.path == "/" {
				method = http.MethodGet
			}
			req, _ := http.NewRequest(method, srv.URL+tc.path, strings.NewReader("[]"))
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
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
}

func TestWebTokenURLSetsCookieAndServesUI(t *testing.T) {
	web, srv := newTestWeb(t)
	resp, err := http.Get(srv.URL + "/?token=" + web.Token())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("status %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == tokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie = %+v", cookie)
	}
	// The cookie alone authorizes the page's assets and calls.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/assets/app.js", nil)
	req.AddCookie(cookie)
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("asset with cookie: %v %v", resp.StatusCode, err)
	}
	resp.Body.Close()
}

func TestWebCallAndEvents(t *testing.T) {
	web, srv := newTestWeb(t)
	// Subscribe to events first.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/events?token="+web.Token(), nil)
	evResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer evResp.Body.Close()
	buf := make([]byte, 64)
	if n, _ := evResp.Body.Read(buf); !strings.Contains(string(buf[:n]), "connected") {
		t.Fatalf("no SSE preamble: %q", buf[:n])
	}
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/api/call/SendMessage", strings.NewReader(`["req-1","","hi web"]`))
	req.Header.Set("X-Hermes-Token", web.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tr TurnResult
	json.NewDecoder(resp.Body).Decode(&tr)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(tr.Assistant.Content, "Echo: hi web") {
		t.Fatalf("status %d, result %+v", resp.StatusCode, tr)
	}
	got := make([]byte, 4096)
	n, _ := evResp.Body.Read(got)
	if !strings.Contains(string(got[:n]), `"name":"chat:delta:req-1"`) {
		t.Fatalf("event stream = %q", got[:n])
	}
}

func TestNewWebRefusesNonLoopback(t *testing.T) {
	a, _, _, _ := newTestApp(t, nil)
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatalf("bind 0.0.0.0 to check that web mode refuses it: %v", err)
	}
	defer ln.Close()
	if _, err := NewWeb(a, fstest.MapFS{}, ln); err == nil {
		t.Fatal("web mode accepted a non-loopback listener")
	}
}

func TestThrottleCoalesces(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	th := newThrottle(50*time.Millisecond, func(s string) { mu.Lock(); sent = append(sent, s); mu.Unlock() })
	for _, s := range []string{"a", "b", "c", "d"} {
		th.add(s)
	}
	th.flush()
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(sent, "|") != "a|bcd" {
		t.Fatalf("sent = %q; want the first at once and the rest coalesced", sent)
	}
}

func TestSweepTitlesAndSummarizesIdleSessions(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	res, err := a.SendMessage("r1", "", "Let's plan the garden: tomatoes in April, basil in May.")
	if err != nil {
		t.Fatal(err)
	}
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if len(req.Format) == 0 || !strings.Contains(string(req.Format), `"title"`) {
			return llmtest.Reply{Status: 400, Error: "expected structured output"}
		}
		return llmtest.Reply{Chunks: []string{`{"title":"Garden planting plan",`, `"summary":"- Tomatoes in April\n- Basil in May"}`}}
	}
	core.Sessions.Now = func() time.Time { return time.Now().Add(time.Hour) }
	n, err := core.Sweep(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("sweep = %d, %v", n, err)
	}
	d, _ := a.LoadSession(res.Session.ID)
	if d.Session.Title != "Garden planting plan" || d.Session.State != "idle" {
		t.Fatalf("session = %+v", d.Session)
	}
	s, _ := core.Sessions.Get(context.Background(), res.Session.ID)
	if s.Summary != "- Tomatoes in April\n- Basil in May" {
		t.Fatalf("summary = %q", s.Summary)
	}
}

func TestTuneRuntimeLeavesAnExplicitSettingAloneAndRestores(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := TuneRuntime(func(string) string { return "" })
	if got := debug.SetGCPercent(gcPercent); got != gcPercent {
		t.Fatalf("GC percent = %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Fatalf("memory limit = %d, want %d", got, memoryLimit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("after restore: GC percent = %d, want 100", got)
	}
	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	TuneRuntime(func(k string) string { return env[k] })()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("an explicit GOGC was overridden: %d", got)
	}
}
