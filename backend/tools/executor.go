package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// Config holds the executor's settings; zero values take the defaults.
type Config struct {
	Timeout        time.Duration // per call unless the tool sets its own; default 10 s
	SlowTimeout    time.Duration // a timeout counts toward TripTimeouts only past this; default 3 s
	TripTimeouts   int           // open the breaker after this many slow timeouts in a row; default 3
	TripFailures   int           // ... or after this many failures in a row; default 5
	OpenFor        time.Duration // how long an open breaker refuses calls; default 10 min
	Parallel       int           // calls of one model reply run at once; default 4
	MaxRepairs     int           // repair rounds for invalid arguments, per tool per turn; default 2
	MaxResultBytes int           // what the model reads of one result; default 16 KiB
	Guard          GuardConfig   // the loop guard of a turn that sets none
}

func (c Config) withDefaults() Config {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.Timeout, 10*time.Second)
	def(&c.SlowTimeout, 3*time.Second)
	def(&c.OpenFor, 10*time.Minute)
	defInt(&c.TripTimeouts, 3)
	defInt(&c.TripFailures, 5)
	defInt(&c.Parallel, 4)
	defInt(&c.MaxRepairs, 2)
	defInt(&c.MaxResultBytes, 16<<10)
	c.Guard = c.Guard.withDefaults()
	return c
}

// Executor runs calls of registered tools: validation, approval, breaker,
// timeout, audit. The composition root sets the exported fields once, before use.
type Executor struct {
	// Approver asks the user about calls that need approval; nil refuses them.
	Approver Approver
	// Audit receives a row per call; nil audits nothing.
	Audit AuditSink
	// Grants remembers "allow for this session"; NewExecutor sets an in-memory one.
	Grants Grants
	// Now is the clock for latencies, slow-timeout detection and audit times.
	Now func() time.Time
	// OnBreakerChange hears every breaker state change (for the UI); optional.
	OnBreakerChange func(tool, from, to string)
	// Shared, when set, shares open breakers with the other Hermes processes
	// on the data dir (a breaker one opened refuses calls in all).
	Shared BreakerStore
	// OnAuditError hears audit writes that failed (the call's result stands); optional.
	OnAuditError func(error)

	reg *Registry
	cfg Config

	mu       sync.Mutex
	breakers map[string]*breaker
}

// NewExecutor returns an executor of the tools in reg.
func NewExecutor(reg *Registry, cfg Config) *Executor {
	return &Executor{reg: reg, cfg: cfg.withDefaults(), Grants: NewMemoryGrants(), Now: time.Now, breakers: map[string]*breaker{}}
}

// Config is the executor's effective settings.
func (e *Executor) Config() Config { return e.cfg }

// Registry is the registry the executor runs tools from.
func (e *Executor) Registry() *Registry { return e.reg }

func (e *Executor) breaker(name string) *breaker {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.breakers[name]
	if b == nil {
		b = newBreaker(name, e.cfg, e.Now)
		e.breakers[name] = b
	}
	return b
}

// Breaker is the breaker of one tool (closed when it never ran).
func (e *Executor) Breaker(name string) BreakerStatus {
	e.mu.Lock()
	b := e.breakers[name]
	e.mu.Unlock()
	if b == nil {
		return BreakerStatus{Tool: name, State: BreakerClosed}
	}
	return b.status()
}

// Breakers lists the breaker of every registered tool, by tool name.
func (e *Executor) Breakers() []BreakerStatus {
	infos := e.reg.List()
	out := make([]BreakerStatus, 0, len(infos))
	for _, in := range infos {
		out = append(out, e.Breaker(in.Name))
	}
	return out
}

// breakerChanged shares an opened or closed breaker and tells the listener.
func (e *Executor) breakerChanged(tool, from, to string) {
	if e.Shared != nil {
		switch to {
		case BreakerOpen:
			_ = e.Shared.SetOpen(context.Background(), tool, e.Breaker(tool).RetryAt)
		case BreakerClosed:
			_ = e.Shared.SetOpen(context.Background(), tool, time.Time{})
		}
	}
	if e.OnBreakerChange != nil {
		e.OnBreakerChange(tool, from, to)
	}
}

// ResetBreaker closes a tool's breaker (the user's "try again now").
func (e *Executor) ResetBreaker(name string) {
	e.mu.Lock()
	b := e.breakers[name]
	delete(e.breakers, name)
	e.mu.Unlock()
	if e.Shared != nil {
		_ = e.Shared.SetOpen(context.Background(), name, time.Time{})
	}
	if b != nil && e.OnBreakerChange != nil && b.state() != BreakerClosed {
		e.OnBreakerChange(name, b.state(), BreakerClosed)
	}
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "req_" + hex.EncodeToString(b[:])
}

// record writes the audit row of a call, whatever the caller's context says.
func (e *Executor) record(ctx context.Context, o *Outcome, hash string, at time.Time) {
	args, errText := RedactArgs(o.Args), o.Error
	o.StoredContent = o.Content
	if t, ok := e.reg.Get(o.Tool); ok {
		if p, ok := t.(PrivateTool); ok && p.PrivateData() {
			args = PrivateArgs(o.Args)
			if o.ErrorKind == KindToolError {
				errText = PrivateError
				o.StoredContent = problem{Tool: o.Tool, Error: o.ErrorKind, Message: PrivateError}.String()
			}
		}
		if s, ok := t.(StoredResulter); ok && o.OK() && len(o.Result) > 0 {
			o.StoredContent = modelContent(s.StoredResult(o.Result), e.cfg.MaxResultBytes)
		}
	}
	o.StoredArgs, o.StoredError = args, errText
	if e.Audit == nil {
		return
	}
	err := e.Audit.Record(context.WithoutCancel(ctx), AuditEntry{
		RequestID: o.RequestID, SessionID: o.SessionID, CallID: o.CallID, Tool: o.Tool, Arguments: args,
		Status: o.Status, ErrorKind: o.ErrorKind, Error: errText, Latency: o.Latency, Breaker: o.Breaker,
		DefinitionHash: hash, CreatedAt: at,
	})
	if err != nil && e.OnAuditError != nil {
		e.OnAuditError(err)
	}
}
