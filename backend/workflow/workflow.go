// Package workflow runs multi-step tasks as a resumable state machine: workflows
// declared in workflows.yaml (phases in order; the steps of a phase one after
// another, all at once, or the first to succeed), each step a call of a tool
// through the tools engine (validation, approvals, breakers, timeouts, audit),
// and a snapshot of every run and step in SQLite, committed at every change, so
// that a failed or interrupted run resumes where it stopped without running a
// finished step again.
package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors callers can test for.
var (
	ErrInvalid     = errors.New("invalid workflow input") // bad inputs, bad arguments: the caller's mistake
	ErrNotFound    = errors.New("no such workflow run")   // unknown run id or workflow name
	ErrConflict    = errors.New("workflow run conflict")  // the run is in a state that does not allow it
	ErrConfirm     = errors.New("confirmation needed")    // resuming would run a step again that may have acted
	ErrUnavailable = errors.New("tool is not available")  // a step's tool is not registered now
)

// kindError is a message that says it all and wraps one of the errors above
// (for errors.Is) without repeating its text.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

func kindErrorf(kind error, format string, a ...any) error {
	return &kindError{msg: fmt.Sprintf(format, a...), kind: kind}
}

// Mode is how the steps of a phase run.
type Mode string

// Modes.
const (
	ModeSequence Mode = "sequence" // one after another; each must succeed
	ModeAll      Mode = "all"      // all at once (bounded); each must succeed
	ModeFirst    Mode = "first"    // all at once; the first to succeed ends the phase, the others are cancelled
)

// Workflow is a declared (or planned) multi-step task.
type Workflow struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Inputs      json.RawMessage `json:"inputs"`             // JSON Schema of an object
	Deadline    Duration        `json:"deadline,omitempty"` // per run (each start or resume); 0: DefaultDeadline
	Phases      []Phase         `json:"phases"`
	Line        int             `json:"line,omitempty"` // where it is declared in workflows.yaml
}

// Phase is a group of steps; phases run in order.
type Phase struct {
	Name  string `json:"name"`
	Mode  Mode   `json:"mode"`
	Steps []Step `json:"steps"`
}

// Step is one tool call. Args is a JSON object whose strings may hold
// {{inputs.NAME}} and {{steps.ID.result.PATH}} placeholders.
type Step struct {
	ID         string          `json:"id"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	Timeout    Duration        `json:"timeout,omitempty"` // 0: the tool's own
	Retries    int             `json:"retries,omitempty"` // extra attempts after a failure that may pass
	Backoff    Duration        `json:"backoff,omitempty"` // the first wait before a retry, doubled each time; 0: DefaultBackoff
	Idempotent bool            `json:"idempotent,omitempty"`
}

// Limits and defaults.
const (
	DefaultDeadline = 10 * time.Minute
	MaxDeadline     = 24 * time.Hour
	MaxStepTimeout  = time.Hour
	MaxRetries      = 10
	DefaultBackoff  = time.Second
	MaxBackoff      = 30 * time.Second
	// ToolPrefix starts the name of the tool a workflow is offered to the model as.
	ToolPrefix = "workflow__"
)

// RunDeadline is the deadline of each start or resume of a run.
func (w *Workflow) RunDeadline() time.Duration {
	if w.Deadline <= 0 {
		return DefaultDeadline
	}
	return time.Duration(w.Deadline)
}

// stepAt finds a step: its phase index and itself.
func (w *Workflow) stepAt(id string) (int, *Step) {
	for pi := range w.Phases {
		for si := range w.Phases[pi].Steps {
			if w.Phases[pi].Steps[si].ID == id {
				return pi, &w.Phases[pi].Steps[si]
			}
		}
	}
	return -1, nil
}

// Steps counts the steps.
func (w *Workflow) Steps() int {
	n := 0
	for _, p := range w.Phases {
		n += len(p.Steps)
	}
	return n
}

// Duration is a time.Duration written as text ("5s", "2m") in JSON.
type Duration time.Duration

// MarshalJSON writes the duration as text.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads text ("5s") or nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("a duration is text like \"5s\": %w", err)
		}
		*d = Duration(n)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Status is where a run is.
type Status string

// Run statuses.
const (
	StatusRunning     Status = "running"
	StatusDone        Status = "done"
	StatusFailed      Status = "failed"      // a step failed, or the deadline passed; resumable
	StatusCancelled   Status = "cancelled"   // the user cancelled it; final
	StatusInterrupted Status = "interrupted" // its process stopped (crash, kill, app closed, Ctrl+C); resumable
)

// StepStatus is where a step is.
type StepStatus string

// Step statuses.
const (
	StepPending   StepStatus = "pending"
	StepRunning   StepStatus = "running"
	StepDone      StepStatus = "done"
	StepFailed    StepStatus = "failed"
	StepCancelled StepStatus = "cancelled" // stopped: another step of a first phase won, or the run was cancelled or interrupted
	StepSkipped   StepStatus = "skipped"   // never reached: an earlier step failed
)

// Run is a snapshot of one run of a workflow.
type Run struct {
	ID         string          `json:"id"`
	Workflow   string          `json:"workflow"`
	Kind       string          `json:"kind"` // "declared" (workflows.yaml) or "plan"
	SessionID  string          `json:"session_id,omitempty"`
	Status     Status          `json:"status"`
	Inputs     json.RawMessage `json:"inputs"`
	Error      string          `json:"error,omitempty"`
	Steps      []StepState     `json:"steps"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	// Definition is the workflow as it was when the run started; a resume runs it.
	Definition *Workflow `json:"definition,omitempty"`
}

// StepState is the snapshot of one step of a run.
type StepState struct {
	ID        string          `json:"id"`
	Phase     int             `json:"phase"` // index, from 0
	PhaseName string          `json:"phase_name"`
	Tool      string          `json:"tool"`
	Status    StepStatus      `json:"status"`
	Attempts  int             `json:"attempts"`
	Args      string          `json:"args,omitempty"`   // the last attempt's arguments, secrets redacted
	Result    json.RawMessage `json:"result,omitempty"` // when done
	Error     string          `json:"error,omitempty"`
	ErrorKind string          `json:"error_kind,omitempty"`
	// Interrupted: the last attempt was stopped while it ran (its effects are
	// unknown); a resume runs it again only if it is idempotent or confirmed.
	Interrupted bool       `json:"interrupted,omitempty"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	FinishedAt  *time.Time `json:"finished_at,omitempty"`
}

// Step returns the state of a step by id.
func (r *Run) Step(id string) (StepState, bool) {
	for _, s := range r.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return StepState{}, false
}

// Resumable reports whether the run may be resumed.
func (r *Run) Resumable() bool { return r.Status == StatusFailed || r.Status == StatusInterrupted }
