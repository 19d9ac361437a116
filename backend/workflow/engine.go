package workflow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"hermes/backend/llm"
	"hermes/backend/procid"
	"hermes/backend/store"
	"hermes/backend/tools"
)

// Engine runs workflows on the tools engine and keeps their snapshots. The
// composition root sets the exported fields once, before use.
type Engine struct {
	// Exec runs every step's tool call (validation, approval, breaker, timeout, audit).
	Exec *tools.Executor
	// Now is the clock of the snapshots.
	Now func() time.Time
	// Parallel bounds the steps of an all or first phase that run at once; default 4.
	Parallel int
	// PollEvery is how often a running run looks for a cancel from another
	// process; default 250 ms.
	PollEvery time.Duration
	// OnEvent hears every change of every run (the UI); optional.
	OnEvent func(Event)

	snap  snapshots
	owner string // this process (procid)

	mu      sync.Mutex
	live    map[string]*liveRun
	schemas sync.Map // inputs schema text -> *jsonschema.Schema
}

type liveRun struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
}

// New returns an engine that keeps its snapshots in db and calls tools with exec.
func New(db *store.DB, exec *tools.Executor) *Engine {
	return &Engine{Exec: exec, Now: time.Now, snap: snapshots{db: db}, owner: procid.Self().String(), live: map[string]*liveRun{}}
}

// Event is one change of a run: a step's new state, or the run's (Step "").
type Event struct {
	RunID     string        `json:"run_id"`
	Workflow  string        `json:"workflow"`
	Step      string        `json:"step,omitempty"`
	Phase     int           `json:"phase"`
	PhaseName string        `json:"phase_name,omitempty"`
	Tool      string        `json:"tool,omitempty"`
	Status    string        `json:"status"` // the step's StepStatus, or the run's Status when Step is ""
	Attempt   int           `json:"attempt,omitempty"`
	Error     string        `json:"error,omitempty"`
	RetryIn   time.Duration `json:"retry_in,omitempty"` // a failed attempt that will be tried again after this
	Elapsed   time.Duration `json:"elapsed"`            // of the step's attempt, or of the run so far
	Done      int           `json:"done"`               // steps done so far
	Total     int           `json:"total"`
}

// StartOptions tune Start.
type StartOptions struct {
	SessionID string      // the conversation the run belongs to ("" outside one)
	Kind      string      // "declared" (default) or "plan"
	Observe   func(Event) // this run's changes (progress on a terminal); optional
	OnCreated func(Run)   // hears the run as soon as its snapshot exists; optional
	// Reuse holds steps already done (a revised plan keeps those of the run it
	// revises, see Reusable): they start done with this state and do not run.
	Reuse map[string]StepState
}

// ResumeOptions tune Resume.
type ResumeOptions struct {
	// Confirm runs again the steps that were stopped while they ran and are not
	// idempotent (the user said yes, or --yes).
	Confirm bool
	Observe func(Event)
}

// Causes that end a run's context.
var (
	errDeadline      = errors.New("the run passed its deadline")
	errCancelled     = errors.New("the run was cancelled")
	errShutdown      = errors.New("Hermes is closing")
	errStepTimeout   = errors.New("the step's timeout passed")
	errSnapshotWrite = errors.New("could not save the run's progress")
)

// lostTo is the cause that cancels the other steps of a first phase.
type lostTo struct{ winner string }

func (l lostTo) Error() string { return "step " + l.winner + " finished first" }

func newRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "wr_" + hex.EncodeToString(b[:])
}

func (e *Engine) parallel() int {
	if e.Parallel <= 0 {
		return 4
	}
	return e.Parallel
}

func (e *Engine) inputsSchema(w *Workflow) (*jsonschema.Schema, error) {
	key := string(w.Inputs)
	if s, ok := e.schemas.Load(key); ok {
		return s.(*jsonschema.Schema), nil
	}
	s, err := tools.CompileSchema(w.Name+"/inputs", w.Inputs)
	if err != nil {
		return nil, err
	}
	e.schemas.Store(key, s)
	return s, nil
}

// CheckInputs validates a run's inputs against the workflow's schema; it returns
// them compacted ("{}" for none).
func (e *Engine) CheckInputs(w *Workflow, inputs json.RawMessage) (json.RawMessage, error) {
	sch, err := e.inputsSchema(w)
	if err != nil {
		return nil, fmt.Errorf("workflow %s: inputs schema: %w", w.Name, err)
	}
	v, err := tools.DecodeArgs(inputs)
	if err != nil {
		return nil, kindErrorf(ErrInvalid, "workflow %s: the inputs are not a JSON object: %v", w.Name, err)
	}
	if problems := tools.Validate(sch, v); len(problems) > 0 {
		return nil, kindErrorf(ErrInvalid, "workflow %s: the inputs do not match its inputs schema: %s", w.Name, strings.Join(problems, "; "))
	}
	b, _ := json.Marshal(v) // decoded JSON always marshals
	return b, nil
}

// Start runs a workflow from its first step and returns the run's final snapshot
// (done, failed, cancelled or interrupted). Bad inputs are ErrInvalid, before
// anything is stored; a step's tool that is not registered is ErrUnavailable.
func (e *Engine) Start(ctx context.Context, w *Workflow, inputs json.RawMessage, opts StartOptions) (Run, error) {
	in, err := e.CheckInputs(w, inputs)
	if err != nil {
		return Run{}, err
	}
	if err := e.checkTools(w); err != nil {
		return Run{}, err
	}
	now := e.Now().UTC()
	kind := opts.Kind
	if kind == "" {
		kind = "declared"
	}
	def := *w
	r := Run{ID: newRunID(), Workflow: w.Name, Kind: kind, SessionID: opts.SessionID, Status: StatusRunning, Inputs: in,
		CreatedAt: now, UpdatedAt: now, Definition: &def}
	for pi, ph := range w.Phases {
		for _, s := range ph.Steps {
			st := StepState{ID: s.ID, Phase: pi, PhaseName: ph.Name, Tool: s.Tool, Status: StepPending}
			if done, ok := opts.Reuse[s.ID]; ok && done.Status == StepDone {
				st = done
				st.Phase, st.PhaseName, st.Tool, st.Interrupted = pi, ph.Name, s.Tool, false
			}
			r.Steps = append(r.Steps, st)
		}
	}
	if err := e.snap.create(context.WithoutCancel(ctx), &r, e.owner); err != nil {
		return Run{}, err
	}
	if opts.OnCreated != nil {
		opts.OnCreated(r)
	}
	return e.execute(ctx, r, opts.Observe)
}

func (e *Engine) checkTools(w *Workflow) error {
	for _, ph := range w.Phases {
		for _, s := range ph.Steps {
			if _, ok := e.Exec.Registry().Get(s.Tool); !ok {
				return kindErrorf(ErrUnavailable, "workflow %s: step %s: the tool %s is not available now (see `hermes tools list`; an MCP tool needs its server running)",
					w.Name, s.ID, s.Tool)
			}
		}
	}
	return nil
}

// Unsure lists the steps of a run that were stopped while they ran and are not
// idempotent: resuming runs them again only when confirmed.
func Unsure(r Run) []string {
	won := map[int]bool{} // first phases that a step already won: the others never run again
	if r.Definition != nil {
		for _, st := range r.Steps {
			if st.Status == StepDone && st.Phase < len(r.Definition.Phases) && r.Definition.Phases[st.Phase].Mode == ModeFirst {
				won[st.Phase] = true
			}
		}
	}
	var out []string
	for _, st := range r.Steps {
		if st.Status != StepRunning && !(st.Status == StepCancelled && st.Interrupted) || won[st.Phase] {
			continue
		}
		if r.Definition != nil {
			if _, s := r.Definition.stepAt(st.ID); s != nil && s.Idempotent {
				continue
			}
		}
		out = append(out, st.ID)
	}
	return out
}

// Resume goes on with a failed or interrupted run where it stopped: done steps
// are never run again; a step that was stopped while it ran runs again only if
// it is idempotent or opts.Confirm is set (else ErrConfirm, nothing changed).
func (e *Engine) Resume(ctx context.Context, id string, opts ResumeOptions) (Run, error) {
	r, owner, err := e.snap.get(ctx, id)
	if err != nil {
		return Run{}, err
	}
	if r.Status == StatusRunning {
		e.mu.Lock()
		_, mine := e.live[id]
		e.mu.Unlock()
		if mine || (owner != e.owner && ownerAlive(owner)) {
			return r, kindErrorf(ErrConflict, "workflow run %s is still running; wait for it, or cancel it with `hermes workflow cancel %s`", id, id)
		}
		r.Status = StatusInterrupted // its process is gone
	}
	switch r.Status {
	case StatusDone:
		return r, kindErrorf(ErrConflict, "workflow run %s is already done", id)
	case StatusCancelled:
		if r.Kind == "plan" {
			return r, kindErrorf(ErrConflict, "plan run %s was cancelled; ask again in the conversation for a new plan", id)
		}
		return r, kindErrorf(ErrConflict, "workflow run %s was cancelled; start it again with `hermes workflow run %s`", id, r.Workflow)
	}
	if unsure := Unsure(r); len(unsure) > 0 && !opts.Confirm {
		how := "mark it idempotent: true in " + FileName + ", or confirm with --yes"
		if r.Kind == "plan" {
			how = "confirm with --yes"
		}
		return r, kindErrorf(ErrConfirm, "workflow run %s: step %s was stopped while it ran and may have acted already; "+
			"running it again may repeat that (%s)", id, strings.Join(unsure, ", "), how)
	}
	if owner != e.owner && !ownerAlive(owner) {
		// a dead process's running run: make it resumable, then claim it
		if _, err := e.snap.interruptDead(ctx, e.owner, e.Now()); err != nil {
			return r, err
		}
	}
	ok, err := e.snap.claim(ctx, id, e.owner, e.Now())
	if err != nil {
		return r, err
	}
	if !ok {
		return r, kindErrorf(ErrConflict, "workflow run %s: another Hermes process resumed or changed it just now", id)
	}
	if err := e.checkTools(r.Definition); err != nil {
		r.Status, r.Error = StatusFailed, err.Error()
		now := e.Now().UTC()
		r.UpdatedAt, r.FinishedAt = now, &now
		_ = e.snap.finish(context.WithoutCancel(ctx), &r, nil)
		return r, err
	}
	r.Status, r.Error, r.FinishedAt = StatusRunning, "", nil
	return e.execute(ctx, r, opts.Observe)
}

// Cancel stops a running run (here, or in another Hermes process) or gives up a
// failed or interrupted one: it becomes cancelled, for good.
func (e *Engine) Cancel(ctx context.Context, id string) (Run, error) {
	r, owner, err := e.snap.get(ctx, id)
	if err != nil {
		return Run{}, err
	}
	switch r.Status {
	case StatusDone, StatusCancelled:
		return r, kindErrorf(ErrConflict, "workflow run %s is already %s", id, r.Status)
	case StatusRunning:
		e.mu.Lock()
		l := e.live[id]
		e.mu.Unlock()
		if l != nil {
			l.cancel(errCancelled)
			select {
			case <-l.done:
			case <-ctx.Done():
				return r, ctx.Err()
			}
			r, _, err = e.snap.get(ctx, id)
			return r, err
		}
		if owner != e.owner && ownerAlive(owner) {
			if err := e.snap.requestCancel(ctx, id); err != nil {
				return r, err
			}
			deadline := time.Now().Add(15 * time.Second)
			for time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				if r, _, err = e.snap.get(ctx, id); err != nil || r.Status != StatusRunning {
					return r, err
				}
			}
			return r, fmt.Errorf("workflow run %s: asked its process to cancel it, and it has not stopped yet", id)
		}
	}
	now := e.Now().UTC()
	r.Status, r.Error, r.UpdatedAt, r.FinishedAt = StatusCancelled, "cancelled by the user", now, &now
	var changed []StepState
	for _, st := range r.Steps {
		if st.Status == StepPending {
			st.Status = StepSkipped
			changed = append(changed, st)
		}
	}
	if err := e.snap.finish(ctx, &r, changed); err != nil {
		return r, err
	}
	return e.Get(ctx, id)
}

// Recover marks the runs left running by a process that is gone as interrupted
// (Hermes calls it at start) and returns their ids.
func (e *Engine) Recover(ctx context.Context) ([]string, error) {
	return e.snap.interruptDead(ctx, e.owner, e.Now())
}

// Get reads a run's snapshot with its steps and definition.
func (e *Engine) Get(ctx context.Context, id string) (Run, error) {
	r, _, err := e.snap.get(ctx, id)
	return r, err
}

// List returns runs, newest first, with their steps.
func (e *Engine) List(ctx context.Context, f Filter) ([]Run, error) { return e.snap.list(ctx, f) }

// Close interrupts the runs of this process (their snapshots say interrupted,
// so they can be resumed) and waits for them to stop, at most 10 s.
func (e *Engine) Close() {
	e.mu.Lock()
	var waits []chan struct{}
	for _, l := range e.live {
		l.cancel(errShutdown)
		waits = append(waits, l.done)
	}
	e.mu.Unlock()
	timeout := time.After(10 * time.Second)
	for _, w := range waits {
		select {
		case <-w:
		case <-timeout:
			return
		}
	}
}

// execution is one start or resume of a run, in memory.
type execution struct {
	e       *Engine
	def     *Workflow
	observe func(Event)
	rctx    context.Context // the run's context: deadline, cancel, shutdown
	cancel  context.CancelCauseFunc
	wctx    context.Context // for snapshot writes: never cancelled
	started time.Time

	mu       sync.Mutex
	run      Run
	index    map[string]int // step id -> index in run.Steps
	results  map[string]any // decoded results of the done steps
	inputs   any
	failures []string // why phases failed
	saveErr  error
}

func (e *Engine) execute(ctx context.Context, r Run, observe func(Event)) (Run, error) {
	x := &execution{e: e, def: r.Definition, observe: observe, run: r, index: map[string]int{}, results: map[string]any{},
		wctx: context.WithoutCancel(ctx), started: e.Now()}
	x.inputs, _ = decodeJSON(r.Inputs)
	for i, st := range r.Steps {
		x.index[st.ID] = i
		if st.Status == StepDone {
			x.results[st.ID] = decodeResult(st.Result)
		}
	}
	rctx, cancel := context.WithCancelCause(ctx)
	rctx, stopDeadline := context.WithTimeoutCause(rctx, x.def.RunDeadline(), errDeadline)
	defer stopDeadline()
	x.rctx, x.cancel = rctx, cancel
	l := &liveRun{cancel: cancel, done: make(chan struct{})}
	e.mu.Lock()
	e.live[r.ID] = l
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.live, r.ID)
		e.mu.Unlock()
		close(l.done)
	}()
	stopPoll := x.pollCancel()
	x.emit(Event{Status: string(StatusRunning)})

	complete := true
	for pi := range x.def.Phases {
		if x.phaseDone(pi) {
			continue
		}
		if rctx.Err() != nil || !x.runPhase(rctx, pi) {
			complete = false
			break
		}
	}
	stopPoll()
	cancel(nil)
	return x.finish(complete)
}

// pollCancel watches for a cancel asked by another process.
func (x *execution) pollCancel() (stop func()) {
	every := x.e.PollEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-x.rctx.Done():
				return
			case <-t.C:
				if x.e.snap.cancelRequested(x.wctx, x.run.ID) {
					x.cancel(errCancelled)
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// finish decides the run's status and commits it with the steps it changes.
func (x *execution) finish(complete bool) (Run, error) {
	x.mu.Lock()
	r := &x.run
	now := x.e.Now().UTC()
	cause := context.Cause(x.rctx)
	switch {
	case x.saveErr != nil:
		r.Status, r.Error = StatusFailed, fmt.Sprintf("%v: %v", errSnapshotWrite, x.saveErr)
	case complete:
		r.Status, r.Error = StatusDone, ""
	case errors.Is(cause, errDeadline):
		r.Status, r.Error = StatusFailed, fmt.Sprintf("the run did not finish within its deadline of %s; resume it to go on", x.def.RunDeadline())
	case errors.Is(cause, errCancelled):
		r.Status, r.Error = StatusCancelled, "cancelled by the user"
	case len(x.failures) > 0:
		r.Status, r.Error = StatusFailed, strings.Join(x.failures, "; ")
	default: // the caller's context ended (Ctrl+C, the turn was stopped) or Hermes is closing
		r.Status, r.Error = StatusInterrupted, "interrupted: "+causeText(cause)+"; resume it to go on"
	}
	var changed []StepState
	if r.Status == StatusFailed || r.Status == StatusCancelled {
		for i := range r.Steps {
			if r.Steps[i].Status == StepPending {
				r.Steps[i].Status = StepSkipped
				changed = append(changed, r.Steps[i])
			}
		}
	}
	r.UpdatedAt = now
	if r.Status != StatusInterrupted {
		r.FinishedAt = &now
	}
	out := *r
	out.Steps = slices.Clone(r.Steps)
	x.mu.Unlock()
	err := x.e.snap.finish(x.wctx, &out, changed)
	x.emit(Event{Status: string(out.Status), Error: out.Error})
	if err != nil {
		return out, err
	}
	return out, nil
}

func causeText(err error) string {
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return "stopped before it finished"
	case errors.Is(err, context.DeadlineExceeded):
		return "the caller's time ran out"
	}
	return err.Error()
}

// phaseDone reports whether a phase needs nothing more: every step done, or,
// in a first phase, one.
func (x *execution) phaseDone(pi int) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	ph := x.def.Phases[pi]
	n := 0
	for _, s := range ph.Steps {
		if x.run.Steps[x.index[s.ID]].Status == StepDone {
			n++
		}
	}
	if ph.Mode == ModeFirst {
		return n > 0
	}
	return n == len(ph.Steps)
}

func (x *execution) stepStatus(id string) StepStatus {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.run.Steps[x.index[id]].Status
}

func (x *execution) fail(msg string) {
	x.mu.Lock()
	x.failures = append(x.failures, msg)
	x.mu.Unlock()
}

// runPhase runs the steps of a phase that are not done; it reports success.
func (x *execution) runPhase(ctx context.Context, pi int) bool {
	ph := x.def.Phases[pi]
	var todo []*Step
	for i := range ph.Steps {
		if x.stepStatus(ph.Steps[i].ID) != StepDone {
			todo = append(todo, &ph.Steps[i])
		}
	}
	switch ph.Mode {
	case ModeAll:
		errs := x.parallel(ctx, pi, todo, nil)
		if len(errs) > 0 && ctx.Err() == nil {
			x.fail(fmt.Sprintf("phase %s: %s", ph.Name, strings.Join(errs, "; ")))
			return false
		}
		return len(errs) == 0
	case ModeFirst:
		pctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		var once sync.Once
		won := false
		errs := x.parallel(pctx, pi, todo, func(id string) {
			once.Do(func() { won = true; cancel(lostTo{winner: id}) })
		})
		if won {
			return true
		}
		if ctx.Err() == nil {
			x.fail(fmt.Sprintf("phase %s: no step succeeded: %s", ph.Name, strings.Join(errs, "; ")))
		}
		return false
	default:
		for _, s := range todo {
			if msg, ok := x.runStep(ctx, pi, s); !ok {
				if ctx.Err() == nil {
					x.fail(fmt.Sprintf("step %s failed: %s", s.ID, msg))
				}
				return false
			}
		}
		return true
	}
}

// parallel runs steps at once, at most Parallel together; won hears each
// success. It returns "id: error" for each step that did not succeed.
func (x *execution) parallel(ctx context.Context, pi int, steps []*Step, won func(id string)) []string {
	sem := make(chan struct{}, x.e.parallel())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []string
	for _, s := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
			}
			msg, ok := x.runStep(ctx, pi, s)
			if ok {
				if won != nil {
					won(s.ID)
				}
				return
			}
			mu.Lock()
			errs = append(errs, s.ID+": "+msg)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(errs)
	return errs
}

// retryable reports whether a failure of this kind may pass on another try.
func retryable(kind string) bool {
	switch kind {
	case tools.KindToolError, tools.KindTimeout, tools.KindUnavailable, tools.KindInvalidResult:
		return true
	}
	return false
}

func backoff(s *Step, attempt int) time.Duration {
	d := time.Duration(s.Backoff)
	if d <= 0 {
		d = DefaultBackoff
	}
	for i := 1; i < attempt && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// runStep runs one step, with its retries; it returns why it did not succeed.
func (x *execution) runStep(ctx context.Context, pi int, s *Step) (string, bool) {
	args, _, err := parseArgs(s.Args)
	if err != nil { // the definition was checked when it was loaded
		return x.stepFailed(s, err.Error(), tools.KindInvalidArguments, false), false
	}
	for attempt := 1; ; attempt++ {
		if ctx.Err() != nil {
			return x.stopped(ctx, s, false), false
		}
		x.mu.Lock()
		sc := scope{inputs: x.inputs, results: x.results}
		call, err := args.render(sc)
		x.mu.Unlock()
		if err != nil {
			return x.stepFailed(s, err.Error(), tools.KindInvalidArguments, false), false
		}
		start := x.e.Now().UTC()
		x.update(s.ID, Event{}, func(st *StepState) {
			st.Status, st.Attempts, st.Args = StepRunning, st.Attempts+1, x.storedArgs(s.Tool, call)
			st.Result, st.Error, st.ErrorKind, st.Interrupted, st.StartedAt, st.FinishedAt = nil, "", "", false, &start, nil
		})
		sctx, cancelStep := ctx, context.CancelFunc(func() {})
		if s.Timeout > 0 {
			sctx, cancelStep = context.WithTimeoutCause(ctx, time.Duration(s.Timeout), errStepTimeout)
		}
		turn := x.e.Exec.NewTurn(tools.TurnInfo{RequestID: x.run.ID, SessionID: x.run.SessionID})
		o, _ := turn.Run(sctx, llm.ToolCall{ID: s.ID, Name: s.Tool, Arguments: call})
		timedOut := ctx.Err() == nil && errors.Is(context.Cause(sctx), errStepTimeout)
		cancelStep()
		end := x.e.Now().UTC()
		if o.OK() {
			x.mu.Lock()
			x.results[s.ID] = decodeResult(o.Result)
			x.mu.Unlock()
			stored := x.storedResult(s.Tool, o.Result)
			x.update(s.ID, Event{Elapsed: end.Sub(start)}, func(st *StepState) {
				st.Status, st.Result, st.FinishedAt = StepDone, stored, &end
			})
			return "", true
		}
		if ctx.Err() != nil {
			return x.stopped(ctx, s, true), false
		}
		kind, msg := o.ErrorKind, strings.TrimSpace(o.Error)
		if timedOut {
			kind, msg = tools.KindTimeout, fmt.Sprintf("%s did not finish within the step's timeout of %s", s.Tool, time.Duration(s.Timeout))
		}
		if attempt <= s.Retries && retryable(kind) {
			wait := backoff(s, attempt)
			x.update(s.ID, Event{Elapsed: end.Sub(start), RetryIn: wait}, func(st *StepState) {
				st.Status, st.Error, st.ErrorKind, st.FinishedAt = StepFailed, msg, kind, &end
			})
			t := time.NewTimer(wait)
			select {
			case <-t.C:
				continue
			case <-ctx.Done():
				t.Stop()
				return x.stopped(ctx, s, false), false
			}
		}
		x.update(s.ID, Event{Elapsed: end.Sub(start)}, func(st *StepState) {
			st.Status, st.Error, st.ErrorKind, st.FinishedAt = StepFailed, msg, kind, &end
		})
		return msg, false
	}
}

func (x *execution) stepFailed(s *Step, msg, kind string, interrupted bool) string {
	now := x.e.Now().UTC()
	x.update(s.ID, Event{}, func(st *StepState) {
		st.Status, st.Error, st.ErrorKind, st.Interrupted, st.FinishedAt = StepFailed, msg, kind, interrupted, &now
	})
	return msg
}

// stopped records a step that the run or its phase stopped; inFlight says it
// was running at that moment (its effects are unknown).
func (x *execution) stopped(ctx context.Context, s *Step, inFlight bool) string {
	now := x.e.Now().UTC()
	status, kind, msg := StepCancelled, tools.KindCancelled, ""
	runCause := context.Cause(x.rctx)
	switch {
	case x.rctx.Err() == nil: // the phase: another step won
		var lost lostTo
		if errors.As(context.Cause(ctx), &lost) {
			msg = "not needed: " + lost.Error()
		} else {
			msg = "stopped"
		}
		inFlight = false
	case errors.Is(runCause, errDeadline):
		status, kind, msg = StepFailed, tools.KindTimeout, "stopped: the run passed its deadline"
	case errors.Is(runCause, errCancelled):
		msg = "stopped: the run was cancelled"
	default:
		msg = "stopped: the run was interrupted (" + causeText(runCause) + ")"
	}
	if !inFlight && x.rctx.Err() != nil {
		return msg // not running when the run stopped: it stays as it was
	}
	x.update(s.ID, Event{}, func(st *StepState) {
		st.Status, st.Error, st.ErrorKind, st.Interrupted, st.FinishedAt = status, msg, kind, inFlight, &now
	})
	return msg
}

// update changes a step's state, commits it and tells the observers.
func (x *execution) update(id string, ev Event, fn func(*StepState)) {
	x.mu.Lock()
	i := x.index[id]
	fn(&x.run.Steps[i])
	st := x.run.Steps[i]
	x.mu.Unlock()
	if err := x.e.snap.saveStep(x.wctx, x.run.ID, st, x.e.Now()); err != nil {
		x.mu.Lock()
		if x.saveErr == nil {
			x.saveErr = err
		}
		x.mu.Unlock()
		x.cancel(errSnapshotWrite)
	}
	ev.Step, ev.Phase, ev.PhaseName, ev.Tool, ev.Status, ev.Attempt = st.ID, st.Phase, st.PhaseName, st.Tool, string(st.Status), st.Attempts
	if ev.Error == "" {
		ev.Error = st.Error
	}
	x.emit(ev)
}

func (x *execution) emit(ev Event) {
	x.mu.Lock()
	ev.RunID, ev.Workflow = x.run.ID, x.run.Workflow
	ev.Total = len(x.run.Steps)
	for _, st := range x.run.Steps {
		if st.Status == StepDone {
			ev.Done++
		}
	}
	x.mu.Unlock()
	if ev.Step == "" {
		ev.Elapsed = x.e.Now().Sub(x.started)
	}
	if x.observe != nil {
		x.observe(ev)
	}
	if x.e.OnEvent != nil {
		x.e.OnEvent(ev)
	}
}

// storedArgs is a call's arguments as the snapshot keeps them: secrets redacted,
// a private tool's only as their shape (as the audit log keeps them).
func (x *execution) storedArgs(tool string, args json.RawMessage) string {
	if t, ok := x.e.Exec.Registry().Get(tool); ok {
		if p, ok := t.(tools.PrivateTool); ok && p.PrivateData() {
			return tools.PrivateArgs(args)
		}
	}
	return tools.RedactArgs(args)
}

// storedResult is a result as the snapshot keeps it (a tool that quotes private
// data gives its stored form; the run itself used the whole result).
func (x *execution) storedResult(tool string, res json.RawMessage) json.RawMessage {
	if len(res) == 0 {
		return json.RawMessage("null")
	}
	if t, ok := x.e.Exec.Registry().Get(tool); ok {
		if s, ok := t.(tools.StoredResulter); ok {
			return s.StoredResult(res)
		}
	}
	return res
}
