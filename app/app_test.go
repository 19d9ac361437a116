package app

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
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
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, e := range ev.got {
		name, payload, _ := strings.Cut(e, " ")
		if name == "chat:status:r1" {
			continue // a slow first token (a loaded machine) is told as loading
		}
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
	d, err := a.Sessions.LoadSession(res.Session.ID)
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
		a.Chat.CancelMessage("r2")
	}()
	res, err := a.Chat.SendMessage("r2", "", "go on")
	if err != nil {
		t.Fatal(err)
	}
	if res.Assistant.Status != "cancelled" || res.Assistant.Content == "" || len(res.Assistant.Content) > 200 {
		t.Fatalf("assistant = %+v", res.Assistant)
	}
}

func TestErrorsAreUserMessages(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	if _, err := a.Chat.SendMessage("r3", "", "   "); err == nil || err.Error() != "Type a message first." {
		t.Fatalf("empty: %v", err)
	}
	if _, err := a.Settings.SetSetting("chat_model", "no such"); err == nil || !strings.HasPrefix(err.Error(), "chat_model:") {
		t.Fatalf("bad setting: %v", err)
	}
	if _, err := a.Settings.SetSetting("chat_model", "mistral"); err != nil {
		t.Fatal(err)
	}
	_, err := a.Chat.SendMessage("r4", "", "hi")
	if err == nil || !strings.Contains(err.Error(), "hermes model pull mistral") {
		t.Fatalf("missing model: %v", err)
	}
	st, _ := a.Settings.Status()
	if !st.Reachable || st.ModelAvailable || !strings.Contains(st.Fix, "hermes model pull mistral") || !strings.Contains(st.Problem, "installed: llama3.2") {
		t.Fatalf("status = %+v", st)
	}
	_ = fake
	// Point at a closed port: unreachable, with the fix.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	if err := core.settings.Set(context.Background(), "ollama_host", addr); err != nil {
		t.Fatal(err)
	}
	st, _ = a.Settings.Status()
	if st.Reachable || !strings.Contains(st.Problem, "not reachable") || !(strings.Contains(st.Fix, "Install Ollama") || strings.Contains(st.Fix, " serve")) {
		t.Fatalf("status = %+v", st)
	}
	_, err = a.Chat.SendMessage("r5", "", "anyone there?")
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not reachable at http://"+addr) {
		t.Fatalf("unreachable: %v", err)
	}
	// The message typed while Ollama was down is still stored.
	list, _ := a.Sessions.ListSessions()
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
	th := newThrottle(50*time.Millisecond, func(d Delta) { mu.Lock(); sent = append(sent, d.Thinking+"/"+d.Text); mu.Unlock() })
	for _, d := range []llm.Delta{{Thinking: "a"}, {Thinking: "b"}, {Content: "c"}, {Content: "d"}} {
		th.add(d)
	}
	th.flush()
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(sent, "|") != "a/|b/cd" {
		t.Fatalf("sent = %q; want the first at once and the rest coalesced, reasoning apart from the answer", sent)
	}
}

func TestSweepTitlesAndSummarizesIdleSessions(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	res, err := a.Chat.SendMessage("r1", "", "Let's plan the garden: tomatoes in April, basil in May.")
	if err != nil {
		t.Fatal(err)
	}
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if len(req.Format) == 0 || !strings.Contains(string(req.Format), `"title"`) {
			return llmtest.Reply{Status: 400, Error: "expected structured output"}
		}
		return llmtest.Reply{Chunks: []string{`{"title":"Garden planting plan",`, `"summary":"- Tomatoes in April\n- Basil in May"}`}}
	}
	core.sessions.Now = func() time.Time { return time.Now().Add(time.Hour) }
	n, err := core.Sweep(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("sweep = %d, %v", n, err)
	}
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	if d.Session.Title != "Garden planting plan" || d.Session.State != "idle" {
		t.Fatalf("session = %+v", d.Session)
	}
	s, _ := core.sessions.Get(context.Background(), res.Session.ID)
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

// A failed reply's error says where the user's message was stored (the UI then
// says the reply failed, not the send, and never puts the text back to be sent
// twice); an error before anything was stored says nothing of the kind.
func TestFailedReplyErrorNamesTheStoredMessage(t *testing.T) {
	a, core, _, _ := newTestApp(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Status: 500, Error: "model runner crashed"}
	})
	_, err := a.Chat.SendMessage("r1", "", "keep this text")
	var ue *UserError
	if !errors.As(err, &ue) || ue.Params["session"] == "" || ue.Params["stored"] == "" {
		t.Fatalf("err = %#v", err)
	}
	msgs, lerr := core.sessions.Messages(context.Background(), ue.Params["session"])
	if lerr != nil {
		t.Fatal(lerr)
	}
	found := false
	for _, m := range msgs {
		found = found || (m.ID == ue.Params["stored"] && m.Role == "user" && m.Content == "keep this text")
	}
	if !found {
		t.Fatalf("stored %q is not the user's message in %q: %+v", ue.Params["stored"], ue.Params["session"], msgs)
	}
	// Refused before anything was stored: no such params.
	_, err = a.Chat.SendMessage("r2", "", "   ")
	if !errors.As(err, &ue) || ue.Params["stored"] != "" || ue.Params["session"] != "" {
		t.Fatalf("empty message err = %#v", err)
	}
}

// closedHost is an http://127.0.0.1:PORT where nothing listens (a port the
// system just gave and took back).
func closedHost(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}
