package tools

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/store"
)

// TestBreakerIsSharedBetweenProcesses: a breaker one process (executor) opens
// refuses the tool's calls in another process on the same data dir, until it
// is reset or its time is up.
func TestBreakerIsSharedBetweenProcesses(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "hermes.db")
	openDB := func() *store.DB {
		db, err := store.Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	calls := 0
	newExec := func(db *store.DB) *Executor {
		reg := NewRegistry()
		if err := reg.Register(&Func{ToolName: "flaky", ToolDescription: "Fails.", Params: json.RawMessage(`{"type":"object"}`),
			Annots: Annotations{ReadOnly: true}, Fn: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				calls++
				return nil, errors.New("down")
			}}); err != nil {
			t.Fatal(err)
		}
		e := NewExecutor(reg, Config{TripFailures: 2, OpenFor: time.Minute})
		e.Shared = SQLBreakers{DB: db}
		return e
	}
	a, b := newExec(openDB()), newExec(openDB())
	call := func(e *Executor) Outcome {
		o, _ := e.NewTurn(TurnInfo{}).Run(ctx, llm.ToolCall{ID: "c", Name: "flaky", Arguments: json.RawMessage(`{}`)})
		return o
	}
	call(a)
	call(a) // the second failure in a row opens a's breaker
	if st := a.Breaker("flaky"); st.State != BreakerOpen {
		t.Fatalf("a's breaker = %+v", st)
	}
	before := calls
	o := call(b)
	if o.ErrorKind != KindUnavailable || calls != before {
		t.Fatalf("the other process ran the tool its breaker refuses: %+v (calls %d -> %d)", o, before, calls)
	}
	a.ResetBreaker("flaky")
	if o := call(b); o.ErrorKind == KindUnavailable || calls != before+1 {
		t.Fatalf("after the reset the other process is still refused: %+v", o)
	}
}
