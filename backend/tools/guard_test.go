package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hermes/backend/llm"
)

func TestGuardConfig(t *testing.T) {
	tests := []struct {
		name string
		in   GuardConfig
		want GuardConfig
	}{
		{"defaults", GuardConfig{}, GuardConfig{5, 3, 3}},
		{"setting kept", GuardConfig{MaxIterations: 7}, GuardConfig{7, 3, 3}},
		{"hard cap", GuardConfig{MaxIterations: 50}, GuardConfig{10, 3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewGuard(tt.in).Config(); got != tt.want {
				t.Fatalf("config = %+v; want %+v", got, tt.want)
			}
		})
	}
}

func TestGuard(t *testing.T) {
	ok := Outcome{Tool: "a", Status: StatusOK}
	bad := Outcome{Tool: "a", Status: StatusError}
	t.Run("iteration cap", func(t *testing.T) {
		g := NewGuard(GuardConfig{MaxIterations: 2})
		first, second := g.StartIteration(), g.StartIteration()
		if first != nil || second != nil {
			t.Fatal("two rounds are allowed")
		}
		stop := g.StartIteration()
		if stop == nil || stop.Kind != StopMaxIterations || stop.Iterations != 2 || g.Stopped() != stop {
			t.Fatalf("stop = %+v", stop)
		}
		g.ContinueOnce()
		if g.Stopped() != nil || g.StartIteration() != nil {
			t.Fatal("continue once grants one round")
		}
		if g.StartIteration() == nil {
			t.Fatal("and only one")
		}
	})
	t.Run("identical call allowed three times", func(t *testing.T) {
		g := NewGuard(GuardConfig{})
		for i := range 3 {
			if ok, _ := g.Admit("calc", json.RawMessage(`{"a":1,"b":[1,2]}`)); !ok {
				t.Fatalf("call %d blocked", i+1)
			}
		}
		ok, msg := g.Admit("calc", json.RawMessage(`{ "b":[1,2.0], "a":1 }`)) // the same call, spelled differently
		if ok || !strings.Contains(msg, "3 times") {
			t.Fatalf("fourth = %v %q", ok, msg)
		}
		if ok, _ := g.Admit("calc", json.RawMessage(`{"a":2,"b":[1,2]}`)); !ok {
			t.Fatal("other arguments are another call")
		}
		if ok, _ := g.Admit("other", json.RawMessage(`{"a":1,"b":[1,2]}`)); !ok {
			t.Fatal("another tool is another call")
		}
	})
	t.Run("three failures in a row stop", func(t *testing.T) {
		g := NewGuard(GuardConfig{})
		for _, o := range []Outcome{bad, bad, ok, bad, bad, {Status: StatusDenied}, {Status: StatusCancelled}} {
			if stop := g.Record(o); stop != nil {
				t.Fatalf("stopped early: %+v", stop)
			}
		}
		stop := g.Record(Outcome{Tool: "b", Status: StatusTimeout})
		if stop == nil || stop.Kind != StopConsecutiveFailures || stop.Failures != 3 || stop.LastTool != "b" {
			t.Fatalf("stop = %+v", stop)
		}
		if g.StartIteration() != stop {
			t.Fatal("a stopped turn starts no round")
		}
	})
}

// TestTurnLoop plays the agent's loop: rounds of calls until the guard stops it.
func TestTurnLoop(t *testing.T) {
	ctx := context.Background()
	failing := fnTool("fails", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return nil, errors.New("nope")
	})
	t.Run("identical-call limit blocks the fourth call and audits it", func(t *testing.T) {
		h := newHarness(t, Config{}, echoTool("echo", Annotations{ReadOnly: true}))
		turn := h.exec.NewTurn(TurnInfo{})
		var last Outcome
		for range 4 {
			last, _ = turn.Run(ctx, call("echo", `{"text":"same"}`))
		}
		if last.Status != StatusBlocked || last.ErrorKind != KindRepeatedCall || !strings.Contains(last.Content, "Do not call it again") {
			t.Fatalf("fourth = %+v", last)
		}
		if rows := h.rows(t, AuditFilter{Status: StatusBlocked}); len(rows) != 1 {
			t.Fatalf("blocked rows = %d", len(rows))
		}
	})
	t.Run("iteration cap stops the turn with a reason", func(t *testing.T) {
		h := newHarness(t, Config{}, echoTool("echo", Annotations{ReadOnly: true}))
		turn := h.exec.NewTurn(TurnInfo{Guard: GuardConfig{MaxIterations: 3}})
		for i := range 3 {
			if _, stop := turn.Run(ctx, call("echo", `{"text":"`+strings.Repeat("x", i+1)+`"}`)); stop != nil {
				t.Fatalf("round %d stopped: %+v", i+1, stop)
			}
		}
		outs, stop := turn.RunAll(ctx, []llm.ToolCall{call("echo", `{"text":"a"}`), call("echo", `{"text":"b"}`)})
		if stop == nil || stop.Kind != StopMaxIterations || len(outs) != 2 || outs[1].ErrorKind != KindIterationLimit {
			t.Fatalf("stop = %+v outs = %+v", stop, outs)
		}
		if got := turn.Succeeded(); len(got) != 3 {
			t.Fatalf("succeeded = %v", got)
		}
	})
	t.Run("three failed calls in a row stop the turn", func(t *testing.T) {
		h := newHarness(t, Config{}, failing)
		turn := h.exec.NewTurn(TurnInfo{})
		var stop *StopReason
		for i := range 3 {
			_, stop = turn.Run(ctx, call("fails", `{"text":"`+strings.Repeat("x", i+1)+`"}`))
		}
		if stop == nil || stop.Kind != StopConsecutiveFailures {
			t.Fatalf("stop = %+v", stop)
		}
		o, again := turn.Run(ctx, call("fails", `{"text":"more"}`))
		if again != stop || o.ErrorKind != KindTurnStopped {
			t.Fatalf("after stop: %+v %+v", o, again)
		}
	})
}
