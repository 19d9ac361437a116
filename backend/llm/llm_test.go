package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

func newClient(t *testing.T, fake *llmtest.Server, tweak func(*Config)) *Client {
	t.Helper()
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	cfg := Config{Host: srv.URL, FirstTokenTimeout: 2 * time.Second, TokenGapTimeout: 2 * time.Second, Retries: 2, Backoff: time.Millisecond}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userMsg(text string) []Message { return []Message{{Role: "user", Content: text}} }

func TestChatStreamsInOrder(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.Words("one two three four five"), Delay: time.Millisecond}
	}
	c := newClient(t, fake, nil)
	var got []string
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("count")},
		func(d Delta) error { got = append(got, d.Content); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "one| two| three| four| five" {
		t.Fatalf("deltas = %q", got)
	}
	if reply.Content != "one two three four five" || reply.Model != "llama3.2" || reply.CompletionTokens != 5 || reply.PromptTokens == 0 {
		t.Fatalf("reply = %+v", reply)
	}
}

func TestChatDecodesToolCalls(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		args := api.NewToolCallFunctionArguments()
		args.Set("expression", "2+3*4")
		args.Set("precision", 2)
		return llmtest.Reply{ToolCalls: []api.ToolCall{{ID: "call_1", Function: api.ToolCallFunction{Name: "calculator", Arguments: args}}}}
	}
	c := newClient(t, fake, nil)
	tools := api.Tools{{Type: "function", Function: api.ToolFunction{Name: "calculator", Description: "math"}}}
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("2+3*4?"), Tools: tools},
		func(Delta) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "calculator" || reply.ToolCalls[0].ID != "call_1" {
		t.Fatalf("tool calls = %+v", reply.ToolCalls)
	}
	var args map[string]any
	if err := json.Unmarshal(reply.ToolCalls[0].Arguments, &args); err != nil || args["expression"] != "2+3*4" || args["precision"] != 2.0 {
		t.Fatalf("arguments = %s (%v)", reply.ToolCalls[0].Arguments, err)
	}
	if reqs := fake.ChatRequests(); len(reqs) != 1 || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Function.Name != "calculator" {
		t.Fatalf("tools not sent: %+v", reqs)
	}
}

// TestChatWithoutToolsForAModelThatCannot: Ollama refuses tools for a model whose
// template has none (400 "… does not support tools"); the reply comes without
// them, and the model is not offered tools again.
func TestChatWithoutToolsForAModelThatCannot(t *testing.T) {
	fake := llmtest.New()
	fake.Models = append(fake.Models, llmtest.Model{Name: "gemma-plain", ContextLength: 8192, Capabilities: []string{"completion"}})
	fake.Chat = llmtest.Echo(0, 0)
	c := newClient(t, fake, nil)
	tools := api.Tools{{Type: "function", Function: api.ToolFunction{Name: "clock", Description: "time"}}}
	for range 2 {
		var got strings.Builder
		reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"gemma-plain"}, Messages: userMsg("hello"), Tools: tools},
			func(d Delta) error { got.WriteString(d.Content); return nil })
		if err != nil || reply.Content == "" || got.String() != reply.Content {
			t.Fatalf("reply = %+v, %v", reply, err)
		}
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 3 || len(reqs[0].Tools) != 1 || len(reqs[1].Tools) != 0 || len(reqs[2].Tools) != 0 {
		t.Fatalf("requests' tools: %d requests, want with, without, without", len(reqs))
	}
	// A model that can call tools still gets them.
	if _, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("hi"), Tools: tools}, func(Delta) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if reqs = fake.ChatRequests(); len(reqs[len(reqs)-1].Tools) != 1 {
		t.Fatal("llama3.2 was not offered its tools")
	}
}

// TestChatFallsBackWhenTheModelDoesNotFitInMemory: Ollama's 500 "requires more
// system memory" moves on to the next model of the chain, and alone it is
// ErrNoMemory with both sizes.
func TestChatFallsBackWhenTheModelDoesNotFitInMemory(t *testing.T) {
	fake := llmtest.New()
	fake.Models = append(fake.Models, llmtest.Model{Name: "big", ContextLength: 8192, Capabilities: []string{"completion"}})
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if req.Model == "big" {
			return llmtest.Reply{Status: 500, Error: "model requires more system memory (5.6 GiB) than is available (3.1 GiB)"}
		}
		return llmtest.Reply{Chunks: []string{"small answer"}}
	}
	c := newClient(t, fake, nil)
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"big", "llama3.2"}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	if err != nil || reply.Model != "llama3.2" || len(reply.Failures) != 1 {
		t.Fatalf("reply = %+v, %v", reply, err)
	}
	_, err = c.Chat(context.Background(), ChatRequest{Models: []string{"big"}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	var me *MemoryError
	var mo *ModelError
	if !errors.Is(err, ErrNoMemory) || !errors.As(err, &me) || me.Need != "5.6 GiB" || me.Free != "3.1 GiB" || !errors.As(err, &mo) || mo.Model != "big" {
		t.Fatalf("err = %v", err)
	}
}

func TestChatFallsBackWhenModelMissing(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(0, 0)
	c := newClient(t, fake, nil)
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"missing-model", "llama3.2"}, Messages: userMsg("hi")},
		func(Delta) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if reply.Model != "llama3.2" || len(reply.Failures) != 1 || !strings.Contains(reply.Failures[0], "missing-model") {
		t.Fatalf("reply = %+v", reply)
	}
	// With no fallback left the error says the model is missing.
	_, err = c.Chat(context.Background(), ChatRequest{Models: []string{"missing-model"}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	if !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("err = %v; want ErrModelNotFound", err)
	}
}

func TestChatRetriesOn503(t *testing.T) {
	fake := llmtest.New()
	var calls atomic.Int32
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if calls.Add(1) <= 2 {
			return llmtest.Reply{Status: 503, Error: "server busy, please try again.  maximum pending requests exceeded"}
		}
		return llmtest.Reply{Chunks: []string{"ok"}}
	}
	c := newClient(t, fake, nil)
	var slept []time.Duration
	c.Sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	if err != nil || reply.Content != "ok" {
		t.Fatalf("reply = %+v, err = %v", reply, err)
	}
	if calls.Load() != 3 || len(slept) != 2 || slept[1] != 2*slept[0] {
		t.Fatalf("calls = %d, backoff = %v; want 3 calls with doubling backoff", calls.Load(), slept)
	}
}

func TestChatRetriesConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens here now
	c, err := New(Config{Host: "http://" + addr, Retries: 3, Backoff: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	attempts := 0
	c.Sleep = func(context.Context, time.Duration) error { attempts++; return nil }
	_, err = c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	if !errors.Is(err, ErrUnreachable) || attempts != 3 {
		t.Fatalf("err = %v after %d retries; want ErrUnreachable after 3", err, attempts)
	}
}

// TestOnceTriesOnce: a context marked Once gets one attempt where the client
// would otherwise retry (the embedding probe with Ollama down).
func TestOnceTriesOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := New(Config{Host: "http://" + addr, Retries: 3, Backoff: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sleeps := 0
	c.Sleep = func(context.Context, time.Duration) error { sleeps++; return nil }
	if _, err := c.Embed(Once(context.Background()), "nomic-embed-text", []string{"hermes"}); !errors.Is(err, ErrUnreachable) || sleeps != 0 {
		t.Fatalf("once: err = %v after %d retries; want ErrUnreachable after none", err, sleeps)
	}
	if _, err := c.Embed(context.Background(), "nomic-embed-text", []string{"hermes"}); !errors.Is(err, ErrUnreachable) || sleeps != 3 {
		t.Fatalf("unmarked: err = %v after %d retries; want ErrUnreachable after 3", err, sleeps)
	}
}

func TestChatTimeouts(t *testing.T) {
	cases := []struct {
		name       string
		reply      llmtest.Reply
		wantPhase  string
		wantDeltas int
	}{
		{"no first token", llmtest.Reply{Chunks: []string{"a", "b"}, StallAfter: -1, Delay: 5 * time.Second}, "first token", 0},
		{"stalls mid-stream", llmtest.Reply{Chunks: []string{"a", " b", " c"}, StallAfter: 2}, "next token", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := llmtest.New()
			fake.Chat = func(api.ChatRequest) llmtest.Reply { return tc.reply }
			c := newClient(t, fake, func(cfg *Config) {
				cfg.FirstTokenTimeout, cfg.TokenGapTimeout, cfg.Retries = 150*time.Millisecond, 150*time.Millisecond, 0
			})
			deltas := 0
			reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("hi")},
				func(Delta) error { deltas++; return nil })
			if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), tc.wantPhase) {
				t.Fatalf("err = %v; want ErrTimeout about the %s", err, tc.wantPhase)
			}
			if deltas != tc.wantDeltas || len(reply.Content) == 0 && tc.wantDeltas > 0 {
				t.Fatalf("deltas = %d, partial = %q", deltas, reply.Content)
			}
		})
	}
}

func TestChatCancelMidStreamKeepsPartial(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.Words("a b c d e f g h i j"), Delay: 20 * time.Millisecond}
	}
	c := newClient(t, fake, nil)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	reply, err := c.Chat(ctx, ChatRequest{Models: []string{"llama3.2", "llama3.2"}, Messages: userMsg("hi")}, func(Delta) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	if reply.Content != "a b c" {
		t.Fatalf("partial = %q; want %q", reply.Content, "a b c")
	}
	if len(fake.ChatRequests()) != 1 {
		t.Fatal("a cancelled chat must not fall back to another model")
	}
}

func TestCallbackErrorStopsStream(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{Chunks: llmtest.Words("a b c d")} }
	c := newClient(t, fake, nil)
	stop := errors.New("ui went away")
	n := 0
	_, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("hi")}, func(Delta) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("err = %v after %d deltas; want the callback's error after 1", err, n)
	}
}

func TestShowModelsEmbedVersion(t *testing.T) {
	fake := llmtest.New()
	c := newClient(t, fake, nil)
	ctx := context.Background()
	info, err := c.Show(ctx, "llama3.2")
	if err != nil || info.ContextLength != 8192 || !info.Has("tools") {
		t.Fatalf("show = %+v, %v", info, err)
	}
	if _, err := c.Show(ctx, "nope"); !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("show missing: %v", err)
	}
	models, err := c.Models(ctx)
	if err != nil || len(models) != 2 || models[0].Name != "llama3.2:latest" {
		t.Fatalf("models = %+v, %v", models, err)
	}
	vecs, err := c.Embed(ctx, "nomic-embed-text", []string{"red apple", "red apple pie", "quantum physics"})
	if err != nil || len(vecs) != 3 || len(vecs[0]) != 64 {
		t.Fatalf("embed = %d, %v", len(vecs), err)
	}
	if dot(vecs[0], vecs[1]) <= dot(vecs[0], vecs[2]) {
		t.Error("similar texts should embed closer")
	}
	h := c.Check(ctx)
	if !h.Reachable || h.Version != "0.17.4" || len(h.Warnings) != 0 {
		t.Fatalf("check = %+v", h)
	}
	fake.Version = "0.12.6"
	if h := c.Check(ctx); len(h.Warnings) != 1 || !strings.Contains(h.Warnings[0].Text, "memory-disclosure") || h.Warnings[0].Code != WarnOldVersion || h.Warnings[0].Params["version"] == "" {
		t.Fatalf("old version warnings = %v", h.Warnings)
	}
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func TestWarnings(t *testing.T) {
	cases := []struct {
		host string
		warn bool
	}{
		{"http://127.0.0.1:11434", false}, {"http://localhost:11434", false}, {"http://[::1]:11434", false},
		{"http://192.168.1.20:11434", true}, {"https://gpu-box.example:443", true},
	}
	for _, tc := range cases {
		t.Run(tc.host, func(t *testing.T) {
			if got := len(HostWarnings(tc.host)) > 0; got != tc.warn {
				t.Fatalf("warn = %v", got)
			}
		})
	}
	versions := []struct {
		v    string
		warn bool
	}{{"0.17.0", true}, {"0.17.1", false}, {"0.18.0-rc1", false}, {"0.9.9", true}, {"1.0.0", false}}
	for _, tc := range versions {
		if got := VersionWarning(tc.v) != ""; got != tc.warn {
			t.Errorf("VersionWarning(%s) = %v", tc.v, got)
		}
	}
}

// TestToolCallsWithoutIDGetOne: a tool call the server sent without an id gets
// a unique one (the chat finds a delegation's thread by it).
func TestToolCallsWithoutIDGetOne(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []api.ToolCall{{Function: api.ToolCallFunction{Name: "a"}}, {Function: api.ToolCallFunction{Name: "b"}}}}
	}
	c := newClient(t, fake, nil)
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("x")}, func(Delta) error { return nil })
	if err != nil || len(reply.ToolCalls) != 2 {
		t.Fatalf("reply = %+v, %v", reply, err)
	}
	a, b := reply.ToolCalls[0].ID, reply.ToolCalls[1].ID
	if !strings.HasPrefix(a, "call_") || a == b {
		t.Errorf("ids %q %q", a, b)
	}
}

// A model's context length is asked of the server once per client; an unknown
// model is asked again (it may be pulled meanwhile).
func TestContextLengthAskedOnce(t *testing.T) {
	fake := llmtest.New()
	var shows atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/show" {
			shows.Add(1)
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c, err := New(Config{Host: srv.URL, Retries: 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 3 {
		if n := c.ContextLength(ctx, "llama3.2"); n != 8192 {
			t.Fatalf("context length = %d", n)
		}
	}
	if shows.Load() != 1 {
		t.Fatalf("asked %d times, want 1", shows.Load())
	}
	// The same show answered the capabilities.
	if caps, err := c.Capabilities(ctx, "llama3.2"); err != nil || len(caps) == 0 || shows.Load() != 1 {
		t.Fatalf("capabilities %v, %v after %d shows, want them from the first", caps, err, shows.Load())
	}
	if c.ContextLength(ctx, "missing") != 0 || c.ContextLength(ctx, "missing") != 0 || shows.Load() != 3 {
		t.Fatalf("unknown model: asked %d times in all, want 3", shows.Load())
	}
}
