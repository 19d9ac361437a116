package tools

import (
	"context"
	"slices"
	"sync"

	"hermes/backend/llm"
)

// TurnInfo says who is calling and what the turn may call.
type TurnInfo struct {
	RequestID string          // the turn's id in the audit log; "" makes one
	SessionID string          // "" outside a session ("allow for this session" is then not remembered)
	Allow     func(Tool) bool // the tools this turn may call, e.g. Registry.InGroup(plan group); nil: all
	Guard     GuardConfig     // zero: the executor's Config.Guard
	// Unattended: no one is there to answer (background work such as a memory
	// verifier); a call that needs approval is refused, never asked, even when the
	// executor has an Approver. Turns run inside this turn's tool calls (with the
	// call's context) are unattended too.
	Unattended bool
	// Approver, when set, decides this turn's calls instead of the executor's
	// (e.g. the user's own `hermes mcp call`, which is its own approval).
	Approver Approver
}

// Turn runs the tool calls of one agent turn. It owns the turn's loop guard and
// the repair budget of invalid calls. Safe for concurrent use.
type Turn struct {
	e     *Executor
	info  TurnInfo
	guard *Guard

	mu        sync.Mutex
	invalid   map[string]int // tool -> invalid calls since its last valid one
	exhausted map[string]bool
	succeeded []string

	approveMu sync.Mutex // the user is asked one question at a time
}

// NewTurn starts a turn.
func (e *Executor) NewTurn(info TurnInfo) *Turn {
	if info.RequestID == "" {
		info.RequestID = newRequestID()
	}
	gc := info.Guard
	if gc == (GuardConfig{}) {
		gc = e.cfg.Guard
	}
	return &Turn{e: e, info: info, guard: NewGuard(gc), invalid: map[string]int{}, exhausted: map[string]bool{}}
}

// RequestID is the turn's id in the audit log.
func (t *Turn) RequestID() string { return t.info.RequestID }

// Guard is the turn's loop guard.
func (t *Turn) Guard() *Guard { return t.guard }

// Succeeded lists the tools whose calls succeeded in this turn, in order.
func (t *Turn) Succeeded() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.succeeded)
}

// Run runs one call as a round of its own.
func (t *Turn) Run(ctx context.Context, call llm.ToolCall) (Outcome, *StopReason) {
	outs, stop := t.RunAll(ctx, []llm.ToolCall{call})
	return outs[0], stop
}

// RunAll runs the calls of one model reply as one round: independent calls run
// concurrently (at most Config.Parallel at once) and the outcomes come back in
// the model's order. Every call gets an outcome (and an audit row), including the
// ones the guard refuses. A non-nil StopReason means the turn must stop: show it
// to the user instead of asking the model again.
func (t *Turn) RunAll(ctx context.Context, calls []llm.ToolCall) ([]Outcome, *StopReason) {
	if len(calls) == 0 {
		return nil, t.guard.Stopped()
	}
	outs := make([]Outcome, len(calls))
	if stop := t.guard.StartIteration(); stop != nil {
		kind, msg := KindIterationLimit, "This turn has used all its rounds of tool calls. Answer the user with what you have."
		if stop.Kind != StopMaxIterations {
			kind, msg = KindTurnStopped, "Tool calls are stopped for this turn: "+stop.Message
		}
		for i, c := range calls {
			outs[i] = t.refuse(ctx, c, StatusBlocked, kind, msg)
		}
		return outs, stop
	}

	// Admission is decided in the model's order, before anything runs.
	run := make([]bool, len(calls))
	for i, c := range calls {
		if ok, msg := t.guard.Admit(c.Name, c.Arguments); !ok {
			outs[i] = t.refuse(ctx, c, StatusBlocked, KindRepeatedCall, msg)
			continue
		}
		run[i] = true
	}

	sem := make(chan struct{}, t.e.cfg.Parallel)
	var wg sync.WaitGroup
	for i, c := range calls {
		if !run[i] {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			outs[i] = t.call(ctx, c)
		}()
	}
	wg.Wait()

	var stop *StopReason
	for _, o := range outs {
		stop = t.guard.Record(o)
		if o.OK() {
			t.mu.Lock()
			t.succeeded = append(t.succeeded, o.Tool)
			t.mu.Unlock()
		}
	}
	return outs, stop
}

// refuse makes and audits the outcome of a call that is not run at all.
func (t *Turn) refuse(ctx context.Context, c llm.ToolCall, st Status, kind, msg string) Outcome {
	at := t.e.Now()
	o := t.newOutcome(c)
	o.fail(st, kind, msg, nil)
	t.e.record(ctx, &o, "", at)
	return o
}

func (t *Turn) newOutcome(c llm.ToolCall) Outcome {
	return Outcome{CallID: c.ID, Tool: c.Name, Args: c.Arguments, RequestID: t.info.RequestID, SessionID: t.info.SessionID}
}

// noteInvalid counts an invalid call of tool and reports how many there were
// since its last valid call.
func (t *Turn) noteInvalid(tool string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.invalid[tool]++
	if t.invalid[tool] > t.e.cfg.MaxRepairs {
		t.exhausted[tool] = true
	}
	return t.invalid[tool]
}

func (t *Turn) noteValid(tool string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.invalid, tool)
}

func (t *Turn) isExhausted(tool string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exhausted[tool]
}
