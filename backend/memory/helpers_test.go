package memory

import (
	"context"
	"encoding/json"
	"hermes/backend/memory/decay"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/embed"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is a memory store on a real SQLite file with a scripted fake Ollama.
type env struct {
	t     *testing.T
	path  string
	db    *store.DB
	s     *Store
	clock *clock
	fake  *llmtest.Server
	llm   *llm.Client
	logs  *logSink

	mu      sync.Mutex
	replies []string // extraction answers, consumed in order
	changes []Change
}

type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, format)
}

// newEnv opens a store; tweak adjusts the config before Open.
func newEnv(t *testing.T, tweak func(*Config)) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "hermes.db"), clock: newClock(), fake: llmtest.New(), logs: &logSink{}}
	e.fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.replies) == 0 {
			return llmtest.Reply{Chunks: []string{`{"facts": []}`}}
		}
		r := e.replies[0]
		e.replies = e.replies[1:]
		if r == "!503" {
			return llmtest.Reply{Status: 503, Error: "busy"}
		}
		return llmtest.Reply{Chunks: []string{r}}
	}
	srv := e.fake.Start()
	t.Cleanup(func() { e.fake.Close(); srv.Close() })
	c, err := llm.New(llm.Config{Host: srv.URL, FirstTokenTimeout: 5 * time.Second, Backoff: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.llm = c
	e.open(tweak)
	return e
}

func (e *env) config(tweak func(*Config)) Config {
	cfg := Config{
		Embedder: embed.NewHashed(0),
		LLM:      e.llm,
		Models:   func() []string { return []string{"llama3.2"} },
		Now:      e.clock.Now,
		Location: time.UTC,
		Logf:     e.logs.Logf,
		OnChange: func(c Change) { e.mu.Lock(); e.changes = append(e.changes, c); e.mu.Unlock() },
	}
	if tweak != nil {
		tweak(&cfg)
	}
	return cfg
}

// open (re)opens the database and the store, as a restart does.
func (e *env) open(tweak func(*Config)) {
	e.t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, e.path)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	s, err := Open(ctx, db, e.config(tweak))
	if err != nil {
		e.t.Fatal(err)
	}
	s.stages = abStages()
	e.db, e.s = db, s
}

// script queues extraction answers.
func (e *env) script(answers ...string) {
	e.mu.Lock()
	e.replies = append(e.replies, answers...)
	e.mu.Unlock()
}

// facts renders an extraction answer.
func facts(fs ...extracted) string {
	for i := range fs {
		if fs[i].Category == "" {
			fs[i].Category = "other"
		}
		if fs[i].Scope == "" {
			fs[i].Scope = "lasting"
		}
		if fs[i].Asserted == "" {
			fs[i].Asserted = "stated"
		}
		if fs[i].Confidence == 0 {
			fs[i].Confidence = 0.9
		}
	}
	if fs == nil {
		fs = []extracted{}
	}
	b, _ := json.Marshal(map[string]any{"facts": fs})
	return string(b)
}

// observe runs a remember turn through the gate and the worker.
func (e *env) observe(text string, answer string) Decision {
	e.t.Helper()
	ctx := context.Background()
	if answer != "" {
		e.script(answer)
	}
	d, err := e.s.Observe(ctx, Turn{SessionID: "s1", UserMessageID: "m-" + text[:min(8, len(text))], UserText: text, Intent: "remember", MayWriteMemory: true})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.s.RunJobs(ctx); err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) add(text string, tweak ...func(*AddInput)) Memory {
	e.t.Helper()
	in := AddInput{Text: text}
	for _, f := range tweak {
		f(&in)
	}
	m, err := e.s.Add(context.Background(), in)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

func (e *env) list(f Filter) []Memory {
	e.t.Helper()
	ms, err := e.s.List(context.Background(), f)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

func (e *env) recall(q Query) []Recalled {
	e.t.Helper()
	rs, err := e.s.Recall(context.Background(), q)
	if err != nil {
		e.t.Fatal(err)
	}
	return rs
}

func texts(rs []Recalled) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Memory.Text)
	}
	return out
}

func (e *env) chatCalls() int { return len(e.fake.ChatRequests()) }

// fastDecay makes every category fade with DefaultLambda (a half-life of about
// 35 hours), for the tests of the decay mechanics that let hours pass, not months.
func fastDecay(c *Config) {
	c.Lambda = map[string]float64{}
	for _, cat := range decay.Categories() {
		c.Lambda[cat] = DefaultLambda
	}
}
