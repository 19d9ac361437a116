package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/llm"
)

func TestCallOutcomes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		tool       Tool
		call       llm.ToolCall
		allow      func(Tool) bool
		wantStatus Status
		wantKind   string
		wantText   string // in Content
	}{
		{name: "success returns the text", tool: echoTool("echo", Annotations{ReadOnly: true}), call: call("echo", `{"text":"hi"}`),
			wantStatus: StatusOK, wantText: "hi"},
		{name: "JSON result stays compact JSON", tool: fnTool("j", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{ "a" : 1 }`), nil
		}), call: call("j", `{"text":"x"}`), wantStatus: StatusOK, wantText: `{"a":1}`},
		{name: "invalid arguments never reach the tool", tool: fnTool("strict", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			panic("must not run")
		}), call: call("strict", `{"text":""}`), wantStatus: StatusError, wantKind: KindInvalidArguments, wantText: "minLength"},
		{name: "arguments that are not JSON", tool: echoTool("echo", Annotations{ReadOnly: true}), call: call("echo", `{"text":`),
			wantStatus: StatusError, wantKind: KindInvalidArguments, wantText: "not valid JSON"},
		{name: "unknown tool lists the available ones", tool: echoTool("echo", Annotations{ReadOnly: true}), call: call("rm_rf", `{}`),
			wantStatus: StatusError, wantKind: KindUnknownTool, wantText: "Available tools: echo"},
		{name: "tool outside the turn's group is unknown", tool: echoTool("echo", Annotations{ReadOnly: true}), call: call("echo", `{"text":"x"}`),
			allow: func(Tool) bool { return false }, wantStatus: StatusError, wantKind: KindUnknownTool, wantText: "Available tools: none"},
		{name: "tool error is reported", tool: fnTool("bad", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("disk full")
		}), call: call("bad", `{"text":"x"}`), wantStatus: StatusError, wantKind: KindToolError, wantText: "disk full"},
		{name: "a panic is a tool error", tool: fnTool("boom", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			panic("nil map")
		}), call: call("boom", `{"text":"x"}`), wantStatus: StatusError, wantKind: KindToolError, wantText: "crashed: nil map"},
		{name: "result failing the result schema is a tool error", tool: &Func{ToolName: "typed", ToolDescription: "d", Params: json.RawMessage(objectSchema),
			Annots: Annotations{ReadOnly: true}, Result: json.RawMessage(`{"type":"object","required":["value"]}`),
			Fn: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"valu":1}`), nil
			}},
			call: call("typed", `{"text":"x"}`), wantStatus: StatusError, wantKind: KindInvalidResult, wantText: "missing property 'value'"},
		{name: "result that is not JSON is a tool error", tool: fnTool("garbage", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`not json`), nil
		}), call: call("garbage", `{"text":"x"}`), wantStatus: StatusError, wantKind: KindInvalidResult},
		{name: "slow tool times out", tool: blockTool("slow", nil), call: call("slow", `{"text":"x"}`),
			wantStatus: StatusTimeout, wantKind: KindTimeout, wantText: "did not finish within 200ms"},
		{name: "a tool that ignores its context still times out", tool: fnTool("stubborn", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			time.Sleep(time.Second)
			return TextResult("late"), nil
		}), call: call("stubborn", `{"text":"x"}`), wantStatus: StatusTimeout, wantKind: KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{Timeout: 200 * time.Millisecond}, tt.tool)
			turn := h.exec.NewTurn(TurnInfo{SessionID: "s1", Allow: tt.allow})
			o, _ := turn.Run(ctx, tt.call)
			if o.Status != tt.wantStatus || o.ErrorKind != tt.wantKind {
				t.Fatalf("outcome = %s/%s (%s); want %s/%s", o.Status, o.ErrorKind, o.Content, tt.wantStatus, tt.wantKind)
			}
			if !strings.Contains(o.Content, tt.wantText) {
				t.Fatalf("content %q lacks %q", o.Content, tt.wantText)
			}
			if o.Status != StatusOK {
				p := problemOf(t, o)
				if p.Tool != tt.call.Name || p.Error != tt.wantKind {
					t.Fatalf("problem = %+v", p)
				}
			}
			rows := h.rows(t, AuditFilter{})
			if len(rows) != 1 || rows[0].Status != tt.wantStatus || rows[0].ErrorKind != tt.wantKind || rows[0].Tool != tt.call.Name ||
				rows[0].RequestID != turn.RequestID() || rows[0].SessionID != "s1" || rows[0].CallID != tt.call.ID {
				t.Fatalf("audit rows = %+v", rows)
			}
		})
	}
}

func TestRepairRounds(t *testing.T) {
	ctx := context.Background()
	var ran atomic.Int32
	tool := fnTool("note", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		ran.Add(1)
		return TextResult("ok"), nil
	})
	t.Run("bad arguments, structured error, corrected call succeeds", func(t *testing.T) {
		h := newHarness(t, Config{}, tool)
		turn := h.exec.NewTurn(TurnInfo{})
		o, _ := turn.Run(ctx, call("note", `{"txt":"hello"}`))
		p := problemOf(t, o)
		if p.Error != KindInvalidArguments || len(p.Details) == 0 || !strings.Contains(o.Content, "2 of 2 corrections left") {
			t.Fatalf("first = %s", o.Content)
		}
		o, _ = turn.Run(ctx, call("note", `{"text":"hello"}`))
		if !o.OK() {
			t.Fatalf("corrected = %s", o.Content)
		}
	})
	t.Run("at most two repair rounds, then the tool is refused for the turn", func(t *testing.T) {
		h := newHarness(t, Config{}, tool)
		turn := h.exec.NewTurn(TurnInfo{Guard: GuardConfig{MaxConsecFailed: 10, MaxIterations: 10}})
		ran.Store(0)
		kinds := []string{}
		for _, args := range []string{`{}`, `{"text":1}`, `{"text":""}`, `{"text":"now valid"}`} {
			o, _ := turn.Run(ctx, call("note", args))
			kinds = append(kinds, o.ErrorKind)
		}
		want := []string{KindInvalidArguments, KindInvalidArguments, KindRepairLimit, KindRepairLimit}
		if strings.Join(kinds, ",") != strings.Join(want, ",") || ran.Load() != 0 {
			t.Fatalf("kinds = %v (ran %d); want %v", kinds, ran.Load(), want)
		}
	})
	t.Run("a new turn has a fresh budget", func(t *testing.T) {
		h := newHarness(t, Config{}, tool)
		for range 2 {
			turn := h.exec.NewTurn(TurnInfo{})
			for range 2 {
				if o, _ := turn.Run(ctx, call("note", `{}`)); o.ErrorKind != KindInvalidArguments {
					t.Fatalf("kind = %s", o.ErrorKind)
				}
			}
		}
	})
}

// breakerHarness runs a tool whose behaviour a test switches.
type switchTool struct {
	mode   atomic.Value // "ok", "fail", "block", "slow-block"
	health atomic.Value // error or nil
	clock  *fakeClock
	calls  atomic.Int32
	checks atomic.Int32
}

func (s *switchTool) tool(withHealth bool) Tool {
	f := fnTool("flaky", Annotations{ReadOnly: true}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		s.calls.Add(1)
		switch s.mode.Load().(string) {
		case "fail":
			return nil, errors.New("backend down")
		case "block":
			<-ctx.Done()
			return nil, ctx.Err()
		case "slow-block": // the clock says 4 s went by
			s.clock.Advance(4 * time.Second)
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return TextResult("fine"), nil
	})
	if withHealth {
		f.Health = func(context.Context) error {
			s.checks.Add(1)
			err, _ := s.health.Load().(error)
			return err
		}
		return f
	}
	return &noHealth{f}
}

// noHealth hides Func's HealthCheck.
type noHealth struct{ f *Func }

func (n *noHealth) Name() string                { return n.f.Name() }
func (n *noHealth) Description() string         { return n.f.Description() }
func (n *noHealth) Parameters() json.RawMessage { return n.f.Parameters() }
func (n *noHealth) Annotations() Annotations    { return n.f.Annotations() }
func (n *noHealth) Execute(ctx context.Context, a json.RawMessage) (json.RawMessage, error) {
	return n.f.Execute(ctx, a)
}

func TestBreaker(t *testing.T) {
	ctx := context.Background()
	args := `{"text":"x"}`
	cfg := Config{Timeout: 100 * time.Millisecond, OpenFor: 60 * time.Millisecond}
	setup := func(t *testing.T, mode string, withHealth bool) (*harness, *switchTool, *[]string) {
		s := &switchTool{}
		s.mode.Store(mode)
		h := newHarness(t, cfg)
		s.clock = h.clock
		if err := h.reg.Register(s.tool(withHealth)); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		changes := &[]string{}
		h.exec.OnBreakerChange = func(tool, from, to string) {
			mu.Lock()
			*changes = append(*changes, from+">"+to)
			mu.Unlock()
		}
		return h, s, changes
	}
	runN := func(h *harness, n int) []Outcome {
		var outs []Outcome
		for range n {
			o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("flaky", args))
			outs = append(outs, o)
		}
		return outs
	}

	t.Run("opens after 3 slow timeouts and then fails fast", func(t *testing.T) {
		h, s, changes := setup(t, "slow-block", false)
		outs := runN(h, 3)
		for _, o := range outs {
			if o.Status != StatusTimeout {
				t.Fatalf("status = %s", o.Status)
			}
		}
		if st := h.exec.Breaker("flaky"); st.State != BreakerOpen || st.RetryAt.IsZero() {
			t.Fatalf("breaker = %+v", st)
		}
		o := runN(h, 1)[0] // fails at once: the tool is not called (s.calls stays 3)
		if o.ErrorKind != KindUnavailable || o.Breaker != BreakerOpen || o.Status != StatusError {
			t.Fatalf("open call = %+v", o)
		}
		if !strings.Contains(o.Content, "temporarily unavailable") || s.calls.Load() != 3 {
			t.Fatalf("content %q, tool calls %d", o.Content, s.calls.Load())
		}
		if strings.Join(*changes, ",") != "closed>open" {
			t.Fatalf("changes = %v", *changes)
		}
		rows := h.rows(t, AuditFilter{Limit: 1})
		if rows[0].Breaker != BreakerOpen || rows[0].ErrorKind != KindUnavailable {
			t.Fatalf("audit row = %+v", rows[0])
		}
	})
	t.Run("fast timeouts count as failures: 5 to open", func(t *testing.T) {
		h, _, _ := setup(t, "block", false)
		runN(h, 4)
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed || st.ConsecutiveFailures != 4 || st.ConsecutiveTimeouts != 0 {
			t.Fatalf("after 4 = %+v", st)
		}
		runN(h, 1)
		if st := h.exec.Breaker("flaky"); st.State != BreakerOpen {
			t.Fatalf("after 5 = %+v", st)
		}
	})
	t.Run("opens after 5 failures, not 4", func(t *testing.T) {
		h, _, _ := setup(t, "fail", false)
		runN(h, 4)
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed {
			t.Fatalf("after 4 = %+v", st)
		}
		runN(h, 1)
		if st := h.exec.Breaker("flaky"); st.State != BreakerOpen {
			t.Fatalf("after 5 = %+v", st)
		}
	})
	t.Run("a success resets the run of failures", func(t *testing.T) {
		h, s, _ := setup(t, "fail", false)
		runN(h, 4)
		s.mode.Store("ok")
		runN(h, 1)
		s.mode.Store("fail")
		runN(h, 4)
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed {
			t.Fatalf("breaker = %+v", st)
		}
	})
	t.Run("half-open recovery runs the health check first", func(t *testing.T) {
		h, s, changes := setup(t, "fail", true)
		runN(h, 5)
		s.mode.Store("ok")
		time.Sleep(cfg.OpenFor + 20*time.Millisecond)
		if st := h.exec.Breaker("flaky"); st.State != BreakerHalfOpen {
			t.Fatalf("breaker = %+v", st)
		}
		o := runN(h, 1)[0]
		if !o.OK() || s.checks.Load() != 1 || o.Breaker != BreakerClosed {
			t.Fatalf("probe = %+v, checks %d", o, s.checks.Load())
		}
		if strings.Join(*changes, ",") != "closed>open,open>half-open,half-open>closed" {
			t.Fatalf("changes = %v", *changes)
		}
	})
	t.Run("failed health check reopens without calling the tool", func(t *testing.T) {
		h, s, _ := setup(t, "fail", true)
		runN(h, 5)
		s.health.Store(errors.New("still down"))
		time.Sleep(cfg.OpenFor + 20*time.Millisecond)
		before := s.calls.Load()
		o := runN(h, 1)[0]
		if o.ErrorKind != KindUnavailable || !strings.Contains(o.Content, "still down") || s.calls.Load() != before {
			t.Fatalf("probe = %+v (tool calls %d -> %d)", o, before, s.calls.Load())
		}
		if st := h.exec.Breaker("flaky"); st.State != BreakerOpen {
			t.Fatalf("breaker = %+v", st)
		}
	})
	t.Run("half-open without a health check lets one call probe", func(t *testing.T) {
		h, s, _ := setup(t, "fail", false)
		runN(h, 5)
		time.Sleep(cfg.OpenFor + 20*time.Millisecond)
		if o := runN(h, 1)[0]; o.ErrorKind != KindToolError {
			t.Fatalf("probe = %+v", o)
		}
		if st := h.exec.Breaker("flaky"); st.State != BreakerOpen {
			t.Fatalf("failed probe should reopen: %+v", st)
		}
		s.mode.Store("ok")
		time.Sleep(cfg.OpenFor + 20*time.Millisecond)
		if o := runN(h, 1)[0]; !o.OK() || h.exec.Breaker("flaky").State != BreakerClosed {
			t.Fatalf("probe = %+v", o)
		}
	})
	t.Run("user cancellation never counts", func(t *testing.T) {
		h, _, _ := setup(t, "block", false)
		h.exec.cfg.Timeout = time.Minute
		for range 8 {
			cctx, cancel := context.WithCancel(ctx)
			turn := h.exec.NewTurn(TurnInfo{})
			go func() { time.Sleep(5 * time.Millisecond); cancel() }()
			o, _ := turn.Run(cctx, call("flaky", args))
			if o.Status != StatusCancelled {
				t.Fatalf("status = %s", o.Status)
			}
		}
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed || st.ConsecutiveFailures != 0 {
			t.Fatalf("breaker = %+v", st)
		}
		if rows := h.rows(t, AuditFilter{Status: StatusCancelled}); len(rows) != 8 {
			t.Fatalf("cancelled rows = %d", len(rows))
		}
	})
	t.Run("breakers are listed and can be reset", func(t *testing.T) {
		h, _, changes := setup(t, "fail", false)
		runN(h, 5)
		list := h.exec.Breakers()
		if len(list) != 1 || list[0].Tool != "flaky" || list[0].State != BreakerOpen {
			t.Fatalf("breakers = %+v", list)
		}
		h.exec.ResetBreaker("flaky")
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed {
			t.Fatalf("after reset = %+v", st)
		}
		if (*changes)[len(*changes)-1] != "open>closed" {
			t.Fatalf("changes = %v", *changes)
		}
	})
	t.Run("invalid arguments do not touch the breaker", func(t *testing.T) {
		h, _, _ := setup(t, "ok", false)
		for range 10 {
			h.exec.NewTurn(TurnInfo{}).Run(ctx, call("flaky", `{}`))
		}
		if st := h.exec.Breaker("flaky"); st.State != BreakerClosed || st.ConsecutiveFailures != 0 {
			t.Fatalf("breaker = %+v", st)
		}
	})
}

func TestCancellationMidTool(t *testing.T) {
	h := newHarness(t, Config{Timeout: time.Minute})
	started := make(chan struct{})
	if err := h.reg.Register(blockTool("wait", func() { close(started) })); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	start := time.Now()
	o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("wait", `{"text":"x"}`))
	if o.Status != StatusCancelled || o.ErrorKind != KindCancelled || time.Since(start) > 5*time.Second {
		t.Fatalf("outcome = %+v", o)
	}
	if rows := h.rows(t, AuditFilter{}); len(rows) != 1 || rows[0].Status != StatusCancelled {
		t.Fatalf("audit = %+v (the row must be written after cancellation)", rows)
	}
}

func TestPerToolTimeout(t *testing.T) {
	h := newHarness(t, Config{Timeout: time.Minute})
	if err := h.reg.Register(blockTool("wait", nil), WithTimeout(10*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	o, _ := h.exec.NewTurn(TurnInfo{}).Run(context.Background(), call("wait", `{"text":"x"}`))
	if o.Status != StatusTimeout || !strings.Contains(o.Content, "10ms") {
		t.Fatalf("outcome = %+v", o)
	}
}

func TestResultIsCapped(t *testing.T) {
	big := strings.Repeat("é", 1000)
	h := newHarness(t, Config{MaxResultBytes: 101}, fnTool("big", Annotations{ReadOnly: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return TextResult(big), nil
	}))
	o, _ := h.exec.NewTurn(TurnInfo{}).Run(context.Background(), call("big", `{"text":"x"}`))
	if !o.OK() || !strings.HasPrefix(o.Content, strings.Repeat("é", 50)+"\n[truncated: 100 of 2000 bytes shown]") {
		t.Fatalf("content = %q", o.Content)
	}
	if string(o.Result) != string(TextResult(big)) {
		t.Fatal("the full result should stay in Outcome.Result")
	}
}
