package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/store"
	"hermes/backend/tools"
)

type harness struct {
	t    testing.TB
	db   *store.DB
	reg  *tools.Registry
	exec *tools.Executor
	eng  *Engine

	mu    sync.Mutex
	calls map[string]int
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	reg := tools.NewRegistry()
	exec := tools.NewExecutor(reg, tools.Config{})
	exec.Audit = tools.NewAuditLog(db)
	h := &harness{t: t, db: db, reg: reg, exec: exec, eng: New(db, exec), calls: map[string]int{}}
	t.Cleanup(h.eng.Close)
	return h
}

// tool registers a read-only tool (no approval) that counts its calls.
func (h *harness) tool(name string, fn func(ctx context.Context, args map[string]any) (any, error)) {
	h.t.Helper()
	err := h.reg.Register(&tools.Func{ToolName: name, ToolDescription: "test tool " + name, Params: json.RawMessage(`{"type":"object"}`),
		Annots: tools.Annotations{ReadOnly: true},
		Fn: func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
			h.mu.Lock()
			h.calls[name]++
			h.mu.Unlock()
			var args map[string]any
			_ = json.Unmarshal(raw, &args)
			v, err := fn(ctx, args)
			if err != nil {
				return nil, err
			}
			return json.Marshal(v)
		}})
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) count(name string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[name]
}

func (h *harness) parse(src string) *Workflow {
	h.t.Helper()
	list, errs := Parse(FileName, []byte(src), Options{KnownTool: func(n string) bool { _, ok := h.reg.Get(n); return ok }})
	if len(errs) > 0 || len(list) != 1 {
		h.t.Fatalf("parse: %v", errs)
	}
	return list[0]
}

func wait(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func stepStatuses(r Run) string {
	var parts []string
	for _, s := range r.Steps {
		parts = append(parts, s.ID+"="+string(s.Status))
	}
	return strings.Join(parts, " ")
}

func TestWorkflowSequenceAndResults(t *testing.T) {
	h := newHarness(t)
	h.tool("lookup", func(_ context.Context, a map[string]any) (any, error) {
		return map[string]any{"user": map[string]any{"id": 42, "name": a["who"]}}, nil
	})
	h.tool("greet", func(_ context.Context, a map[string]any) (any, error) {
		return fmt.Sprintf("hello %v (%v)", a["name"], a["id"]), nil
	})
	w := h.parse(`version: 1
workflows:
  - name: hello
    description: look up then greet
    inputs: {type: object, properties: {who: {type: string}}, required: [who]}
    phases:
      - steps:
          - {id: find, tool: lookup, args: {who: "{{inputs.who}}"}}
          - {id: say, tool: greet, args: {name: "{{steps.find.result.user.name}}", id: "{{steps.find.result.user.id}}"}}
`)
	var events []Event
	var created Run
	r, err := h.eng.Start(context.Background(), w, json.RawMessage(`{"who":"Ada"}`), StartOptions{
		Observe: func(e Event) { events = append(events, e) }, OnCreated: func(r Run) { created = r }})
	if err != nil || r.Status != StatusDone || created.ID != r.ID || r.FinishedAt == nil {
		t.Fatalf("run = %+v, %v", r, err)
	}
	say, _ := r.Step("say")
	if string(say.Result) != `"hello Ada (42)"` || say.Attempts != 1 || say.Args != `{"id":42,"name":"Ada"}` {
		t.Fatalf("say = %+v", say)
	}
	got, err := h.eng.Get(context.Background(), r.ID)
	if err != nil || got.Status != StatusDone || stepStatuses(got) != "find=done say=done" || got.Definition.Name != "hello" {
		t.Fatalf("stored = %+v, %v", got, err)
	}
	if last := events[len(events)-1]; last.Step != "" || last.Status != "done" || last.Done != 2 || last.Total != 2 {
		t.Fatalf("last event = %+v", last)
	}
	// the calls are in the audit log under the run's id
	rows, err := tools.NewAuditLog(h.db).Query(context.Background(), tools.AuditFilter{RequestID: r.ID})
	if err != nil || len(rows) != 2 {
		t.Fatalf("audit = %+v, %v", rows, err)
	}
}

func TestWorkflowBadInputs(t *testing.T) {
	h := newHarness(t)
	h.tool("echo", func(_ context.Context, a map[string]any) (any, error) { return a, nil })
	w := h.parse(`version: 1
workflows:
  - name: w
    description: d
    inputs: {type: object, properties: {phone: {type: string}}, required: [phone]}
    phases:
      - steps:
          - {id: a, tool: echo}
`)
	for _, in := range []string{`{}`, `{"phone": 5}`, `not json`} {
		_, err := h.eng.Start(context.Background(), w, json.RawMessage(in), StartOptions{})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v", in, err)
		}
	}
	if runs, _ := h.eng.List(context.Background(), Filter{}); len(runs) != 0 {
		t.Fatalf("runs stored for bad inputs: %d", len(runs))
	}
	h.reg.Unregister("echo")
	if _, err := h.eng.Start(context.Background(), w, json.RawMessage(`{"phone":"1"}`), StartOptions{}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("missing tool: %v", err)
	}
}

// A first phase ends at the fastest step that succeeds; the others' contexts
// are cancelled and they are marked cancelled.
func TestWorkflowFirstCancelsTheRest(t *testing.T) {
	h := newHarness(t)
	var slowStopped atomic.Bool
	slowStarted := make(chan struct{})
	var once sync.Once
	h.tool("slow", func(ctx context.Context, _ map[string]any) (any, error) {
		once.Do(func() { close(slowStarted) })
		err := wait(ctx, 10*time.Second)
		slowStopped.Store(err != nil)
		return "slow", err
	})
	h.tool("broken", func(context.Context, map[string]any) (any, error) { return nil, errors.New("no luck") })
	h.tool("fast", func(ctx context.Context, _ map[string]any) (any, error) {
		select { // the slow step is running when the fast one wins
		case <-slowStarted:
		case <-time.After(2 * time.Second):
		}
		return "fast", wait(ctx, 20*time.Millisecond)
	})
	w := h.parse(`version: 1
workflows:
  - name: race
    description: d
    phases:
      - mode: first
        steps:
          - {id: s, tool: slow}
          - {id: b, tool: broken}
          - {id: f, tool: fast}
      - steps:
          - {id: after, tool: fast}
`)
	start := time.Now()
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{})
	if err != nil || r.Status != StatusDone || time.Since(start) > 3*time.Second {
		t.Fatalf("run = %+v, %v after %s", r, err, time.Since(start))
	}
	if got := stepStatuses(r); got != "s=cancelled b=failed f=done after=done" {
		t.Fatalf("steps = %s", got)
	}
	s, _ := r.Step("s")
	if s.Error != "not needed: step f finished first" || s.Interrupted {
		t.Fatalf("slow = %+v", s)
	}
	deadline := time.Now().Add(2 * time.Second)
	for !slowStopped.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !slowStopped.Load() {
		t.Fatal("the slow step's context was not cancelled")
	}

	// every step failing fails the phase
	w2 := h.parse(`version: 1
workflows:
  - name: none
    description: d
    phases:
      - mode: first
        steps:
          - {id: b1, tool: broken}
          - {id: b2, tool: broken}
      - steps:
          - {id: never, tool: fast}
`)
	r, err = h.eng.Start(context.Background(), w2, nil, StartOptions{})
	if err != nil || r.Status != StatusFailed || stepStatuses(r) != "b1=failed b2=failed never=skipped" ||
		!strings.Contains(r.Error, "no step succeeded: b1: no luck; b2: no luck") {
		t.Fatalf("run = %+v (%s), %v", r, stepStatuses(r), err)
	}
}

// An all phase runs its steps at once; one failure fails the run, the others
// finish, and a resume runs only the failed step.
func TestWorkflowAllOneFailureThenResume(t *testing.T) {
	h := newHarness(t)
	var fixed atomic.Bool
	h.tool("work", func(ctx context.Context, _ map[string]any) (any, error) { return "ok", wait(ctx, 100*time.Millisecond) })
	h.tool("fragile", func(ctx context.Context, _ map[string]any) (any, error) {
		if err := wait(ctx, 50*time.Millisecond); err != nil {
			return nil, err
		}
		if !fixed.Load() {
			return nil, errors.New("disk full")
		}
		return "ok", nil
	})
	w := h.parse(`version: 1
workflows:
  - name: fan
    description: d
    phases:
      - mode: all
        steps:
          - {id: a, tool: work}
          - {id: b, tool: fragile}
          - {id: c, tool: work}
      - steps:
          - {id: d, tool: work}
`)
	start := time.Now()
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{})
	took := time.Since(start)
	if err != nil || r.Status != StatusFailed || stepStatuses(r) != "a=done b=failed c=done d=skipped" {
		t.Fatalf("run = %s %+v, %v", stepStatuses(r), r, err)
	}
	if took > 280*time.Millisecond {
		t.Errorf("all phase took %s: not parallel", took)
	}
	if !strings.Contains(r.Error, "b: disk full") {
		t.Fatalf("error = %q", r.Error)
	}
	fixed.Store(true)
	r, err = h.eng.Resume(context.Background(), r.ID, ResumeOptions{})
	if err != nil || r.Status != StatusDone || stepStatuses(r) != "a=done b=done c=done d=done" {
		t.Fatalf("resume = %s %+v, %v", stepStatuses(r), r, err)
	}
	if h.count("work") != 3 || h.count("fragile") != 2 {
		t.Fatalf("calls: work %d (want 3), fragile %d (want 2)", h.count("work"), h.count("fragile"))
	}
	if _, err := h.eng.Resume(context.Background(), r.ID, ResumeOptions{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("resume of a done run: %v", err)
	}
}

func TestWorkflowRetriesAndTimeouts(t *testing.T) {
	h := newHarness(t)
	var n atomic.Int32
	h.tool("flaky", func(context.Context, map[string]any) (any, error) {
		if n.Add(1) == 1 {
			return nil, errors.New("try again")
		}
		return "ok", nil
	})
	h.tool("hang", func(ctx context.Context, _ map[string]any) (any, error) { return nil, wait(ctx, 10*time.Second) })
	h.tool("deny", func(context.Context, map[string]any) (any, error) { return "ran", nil })
	w := h.parse(`version: 1
workflows:
  - name: retry
    description: d
    phases:
      - steps:
          - {id: f, tool: flaky, retries: 2, backoff: 20ms}
          - {id: h, tool: hang, timeout: 50ms, retries: 1, backoff: 10ms}
`)
	var retries []Event
	start := time.Now()
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{Observe: func(e Event) {
		if e.RetryIn > 0 {
			retries = append(retries, e)
		}
	}})
	if err != nil || r.Status != StatusFailed || time.Since(start) > 2*time.Second {
		t.Fatalf("run = %+v, %v", r, err)
	}
	f, _ := r.Step("f")
	hs, _ := r.Step("h")
	if f.Status != StepDone || f.Attempts != 2 || hs.Status != StepFailed || hs.Attempts != 2 || hs.ErrorKind != tools.KindTimeout ||
		!strings.Contains(hs.Error, "within the step's timeout of 50ms") {
		t.Fatalf("f = %+v, h = %+v", f, hs)
	}
	if len(retries) != 2 || retries[0].RetryIn != 20*time.Millisecond || retries[1].RetryIn != 10*time.Millisecond {
		t.Fatalf("retry events = %+v", retries)
	}

	// a denied call is not retried
	h.reg.Unregister("deny")
	if err := h.reg.Register(&tools.Func{ToolName: "deny", ToolDescription: "asks", Params: json.RawMessage(`{"type":"object"}`),
		Annots: tools.Annotations{Destructive: true},
		Fn:     func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`1`), nil }}); err != nil {
		t.Fatal(err)
	}
	asked := 0
	h.exec.Approver = tools.ApproverFunc(func(context.Context, tools.ApprovalRequest) (tools.Decision, error) {
		asked++
		return tools.Decision{Allow: false}, nil
	})
	w2 := h.parse(`version: 1
workflows:
  - name: denied
    description: d
    phases:
      - steps:
          - {id: x, tool: deny, retries: 3, backoff: 1ms}
`)
	r, _ = h.eng.Start(context.Background(), w2, nil, StartOptions{})
	x, _ := r.Step("x")
	if r.Status != StatusFailed || x.ErrorKind != tools.KindDenied || x.Attempts != 1 || asked != 1 {
		t.Fatalf("denied: run %s, step %+v, asked %d", r.Status, x, asked)
	}
}

func TestWorkflowDeadline(t *testing.T) {
	h := newHarness(t)
	h.tool("hang", func(ctx context.Context, _ map[string]any) (any, error) { return nil, wait(ctx, 10*time.Second) })
	w := h.parse(`version: 1
workflows:
  - name: slow
    description: d
    deadline: 80ms
    phases:
      - steps:
          - {id: h, tool: hang}
          - {id: next, tool: hang}
`)
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{})
	hs, _ := r.Step("h")
	if err != nil || r.Status != StatusFailed || !strings.Contains(r.Error, "deadline of 80ms") || hs.Status != StepFailed ||
		!hs.Interrupted || stepStatuses(r) != "h=failed next=skipped" {
		t.Fatalf("run = %+v (%s), %v", r, stepStatuses(r), err)
	}
}

// Cancel stops a running run for good; the step it stopped is marked.
func TestWorkflowCancel(t *testing.T) {
	h := newHarness(t)
	started := make(chan struct{}, 1)
	h.tool("hang", func(ctx context.Context, _ map[string]any) (any, error) {
		started <- struct{}{}
		return nil, wait(ctx, 10*time.Second)
	})
	w := h.parse(`version: 1
workflows:
  - name: w
    description: d
    phases:
      - steps:
          - {id: h, tool: hang}
          - {id: later, tool: hang}
`)
	ids := make(chan string, 1)
	done := make(chan Run, 1)
	go func() {
		r, _ := h.eng.Start(context.Background(), w, nil, StartOptions{OnCreated: func(r Run) { ids <- r.ID }})
		done <- r
	}()
	id := <-ids
	<-started
	r, err := h.eng.Cancel(context.Background(), id)
	if err != nil || r.Status != StatusCancelled || stepStatuses(r) != "h=cancelled later=skipped" {
		t.Fatalf("cancel = %+v (%s), %v", r, stepStatuses(r), err)
	}
	if fin := <-done; fin.Status != StatusCancelled {
		t.Fatalf("Start returned %s", fin.Status)
	}
	if _, err := h.eng.Resume(context.Background(), id, ResumeOptions{Confirm: true}); !errors.Is(err, ErrConflict) {
		t.Fatalf("resume of a cancelled run: %v", err)
	}
	if _, err := h.eng.Cancel(context.Background(), id); !errors.Is(err, ErrConflict) {
		t.Fatalf("cancel twice: %v", err)
	}
	if _, err := h.eng.Get(context.Background(), "wr_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get unknown: %v", err)
	}
}

// The caller's context ending interrupts a run; the step it stopped is run again
// on resume only if it is idempotent or the user confirms.
func TestWorkflowInterruptedResumeNeedsConfirmation(t *testing.T) {
	h := newHarness(t)
	var block atomic.Bool
	block.Store(true)
	started := make(chan struct{}, 4)
	h.tool("send", func(ctx context.Context, _ map[string]any) (any, error) {
		if block.Load() {
			started <- struct{}{}
			return nil, wait(ctx, 10*time.Second)
		}
		return "sent", nil
	})
	h.tool("prep", func(context.Context, map[string]any) (any, error) { return "ready", nil })
	src := `version: 1
workflows:
  - name: w
    description: d
    phases:
      - steps:
          - {id: prep, tool: prep}
          - {id: send, tool: send%s}
          - {id: after, tool: prep}
`
	for _, idempotent := range []bool{false, true} {
		extra := ""
		if idempotent {
			extra = ", idempotent: true"
		}
		w := h.parse(fmt.Sprintf(src, extra))
		block.Store(true)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		r, err := h.eng.Start(ctx, w, nil, StartOptions{})
		send, _ := r.Step("send")
		if err != nil || r.Status != StatusInterrupted || stepStatuses(r) != "prep=done send=cancelled after=pending" || !send.Interrupted {
			t.Fatalf("interrupted = %+v (%s), %v", r, stepStatuses(r), err)
		}
		block.Store(false)
		prepCalls := h.count("prep")
		if !idempotent {
			if _, err := h.eng.Resume(context.Background(), r.ID, ResumeOptions{}); !errors.Is(err, ErrConfirm) || !strings.Contains(err.Error(), "step send") {
				t.Fatalf("resume without confirmation: %v", err)
			}
			if got, _ := h.eng.Get(context.Background(), r.ID); got.Status != StatusInterrupted {
				t.Fatalf("a refused resume changed the run: %s", got.Status)
			}
		}
		r, err = h.eng.Resume(context.Background(), r.ID, ResumeOptions{Confirm: !idempotent})
		if err != nil || r.Status != StatusDone || h.count("prep") != prepCalls+1 {
			t.Fatalf("resume = %+v, %v; prep calls %d -> %d", r, err, prepCalls, h.count("prep"))
		}
	}
}

// Runs left running by a process that is gone become interrupted.
func TestWorkflowRecoverDeadOwner(t *testing.T) {
	h := newHarness(t)
	h.tool("prep", func(context.Context, map[string]any) (any, error) { return "ready", nil })
	w := h.parse(`version: 1
workflows:
  - name: w
    description: d
    phases:
      - steps:
          - {id: a, tool: prep, idempotent: true}
`)
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// as if a process that died had it running in step a
	if _, err := h.db.Exec(`UPDATE workflow_runs SET status = 'running', owner = '999999999:1:gone', finished_at = NULL WHERE id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Exec(`UPDATE workflow_steps SET status = 'running', result = NULL WHERE run_id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	ids, err := h.eng.Recover(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != r.ID {
		t.Fatalf("recover = %v, %v", ids, err)
	}
	got, _ := h.eng.Get(context.Background(), r.ID)
	if got.Status != StatusInterrupted || !strings.Contains(got.Error, "stopped") {
		t.Fatalf("got = %+v", got)
	}
	if runs, _ := h.eng.List(context.Background(), Filter{Status: StatusInterrupted}); len(runs) != 1 {
		t.Fatalf("list interrupted = %d", len(runs))
	}
	r, err = h.eng.Resume(context.Background(), r.ID, ResumeOptions{})
	if err != nil || r.Status != StatusDone || h.count("prep") != 2 {
		t.Fatalf("resume = %+v, %v (calls %d)", r, err, h.count("prep"))
	}
}

// A run started in a conversation goes with it.
func TestWorkflowSessionDeleteCascades(t *testing.T) {
	h := newHarness(t)
	h.tool("prep", func(context.Context, map[string]any) (any, error) { return "ready", nil })
	w := h.parse(`version: 1
workflows:
  - name: w
    description: d
    phases:
      - steps:
          - {id: a, tool: prep}
`)
	now := time.Now().UTC().Format(time.RFC3339Nano)
	if _, err := h.db.Exec(`INSERT INTO sessions(id, created_at, updated_at) VALUES ('s1', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{SessionID: "s1"})
	if err != nil || r.SessionID != "s1" {
		t.Fatal(err)
	}
	other, _ := h.eng.Start(context.Background(), w, nil, StartOptions{})
	if runs, _ := h.eng.List(context.Background(), Filter{SessionID: "s1"}); len(runs) != 1 {
		t.Fatalf("session runs = %d", len(runs))
	}
	if _, err := h.db.Exec(`DELETE FROM sessions WHERE id = 's1'`); err != nil {
		t.Fatal(err)
	}
	if _, err := h.eng.Get(context.Background(), r.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("run after session delete: %v", err)
	}
	var steps int
	h.db.QueryRow(`SELECT COUNT(*) FROM workflow_steps WHERE run_id = ?`, r.ID).Scan(&steps)
	if steps != 0 {
		t.Fatalf("%d steps left", steps)
	}
	runs, _ := h.eng.List(context.Background(), Filter{})
	if len(runs) != 1 || runs[0].ID != other.ID {
		t.Fatalf("runs = %+v", runs)
	}
}

func TestWorkflowListNewestFirst(t *testing.T) {
	h := newHarness(t)
	h.tool("prep", func(context.Context, map[string]any) (any, error) { return "ready", nil })
	w := h.parse(`version: 1
workflows:
  - name: w
    description: d
    phases:
      - steps:
          - {id: a, tool: prep}
`)
	var ids []string
	for range 3 {
		r, _ := h.eng.Start(context.Background(), w, nil, StartOptions{})
		ids = append(ids, r.ID)
	}
	runs, err := h.eng.List(context.Background(), Filter{})
	if err != nil || len(runs) != 3 || runs[0].ID != ids[2] || runs[2].ID != ids[0] || len(runs[0].Steps) != 1 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
}

// A step left running in a first phase that another step already won is never
// run again, so resuming does not ask about it.
func TestWorkflowUnsureSkipsWonFirstPhase(t *testing.T) {
	def := &Workflow{Phases: []Phase{
		{Name: "race", Mode: ModeFirst, Steps: []Step{{ID: "a"}, {ID: "b"}}},
		{Name: "then", Mode: ModeSequence, Steps: []Step{{ID: "c"}, {ID: "d", Idempotent: true}}},
	}}
	r := Run{Definition: def, Steps: []StepState{
		{ID: "a", Phase: 0, Status: StepDone}, {ID: "b", Phase: 0, Status: StepRunning},
		{ID: "c", Phase: 1, Status: StepRunning}, {ID: "d", Phase: 1, Status: StepCancelled, Interrupted: true},
	}}
	if got := Unsure(r); len(got) != 1 || got[0] != "c" {
		t.Fatalf("unsure = %v, want [c]", got)
	}
}
