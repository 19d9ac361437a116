package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/store"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func openDB(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const objectSchema = `{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"],"additionalProperties":false}`

// echoTool returns its "text" argument.
func echoTool(name string, a Annotations) *Func {
	return &Func{ToolName: name, ToolDescription: "Echo the text back.", Params: json.RawMessage(objectSchema), Annots: a,
		Fn: func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return TextResult(in.Text), nil
		}}
}

// fnTool is a tool with any function and the one-string schema.
func fnTool(name string, a Annotations, fn func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)) *Func {
	return &Func{ToolName: name, ToolDescription: "A test tool.", Params: json.RawMessage(objectSchema), Annots: a, Fn: fn}
}

// blockTool waits for its context to end.
func blockTool(name string, before func()) *Func {
	return fnTool(name, Annotations{ReadOnly: true}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		if before != nil {
			before()
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
}

type harness struct {
	reg   *Registry
	exec  *Executor
	log   *AuditLog
	clock *fakeClock
}

// newHarness is an executor over a real SQLite audit log with a fake clock.
func newHarness(t testing.TB, cfg Config, ts ...Tool) *harness {
	t.Helper()
	h := &harness{reg: NewRegistry(), clock: newFakeClock()}
	for _, tool := range ts {
		if err := h.reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t)
	h.log = NewAuditLog(db)
	h.exec = NewExecutor(h.reg, cfg)
	h.exec.Audit = h.log
	h.exec.Grants = NewSQLGrants(db)
	h.exec.Now = h.clock.Now
	h.exec.OnAuditError = func(err error) { t.Errorf("audit: %v", err) }
	return h
}

func call(name, args string) llm.ToolCall {
	return llm.ToolCall{ID: "call_" + name, Name: name, Arguments: json.RawMessage(args)}
}

// problemOf decodes the model-facing problem of a failed outcome.
func problemOf(t *testing.T, o Outcome) problem {
	t.Helper()
	var p problem
	if err := json.Unmarshal([]byte(o.Content), &p); err != nil {
		t.Fatalf("content %q is not a problem: %v", o.Content, err)
	}
	return p
}

func (h *harness) rows(t *testing.T, f AuditFilter) []AuditEntry {
	t.Helper()
	rows, err := h.log.Query(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
