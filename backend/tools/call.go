package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hermes/backend/llm"
)

// call runs one admitted call through validation, approval, breaker and timeout,
// and audits it.
func (t *Turn) call(ctx context.Context, c llm.ToolCall) (o Outcome) {
	e := t.e
	start := e.Now()
	o = t.newOutcome(c)
	hash := ""
	defer func() {
		if o.Latency == 0 {
			o.Latency = e.Now().Sub(start)
		}
		e.record(ctx, &o, hash, start)
	}()

	if ctx.Err() != nil {
		o.fail(StatusCancelled, KindCancelled, "The user cancelled the turn.", nil)
		return o
	}
	ent := e.reg.active(c.Name)
	if ent == nil || (t.info.Allow != nil && !t.info.Allow(ent.tool)) {
		o.fail(StatusError, KindUnknownTool, t.unknownToolMessage(c.Name), nil)
		return o
	}
	hash = ent.hash()
	if t.isExhausted(c.Name) {
		o.fail(StatusError, KindRepairLimit, repairLimitMessage(c.Name, e.cfg.MaxRepairs), nil)
		return o
	}
	args, ok := t.validArgs(c, ent, &o)
	if !ok {
		return o
	}
	b := e.breaker(c.Name)
	if t.breakerRefuses(ctx, c.Name, b, &o) {
		return o
	}
	if ent.needsApproval() && !t.approve(ctx, &o, ent, args) {
		return o
	}
	t.execute(ctx, c, ent, b, args, &o)
	return o
}

// validArgs are the call's arguments ("{}" for none) when they are valid
// against the tool's parameters: arguments are untrusted input and reach the
// tool only then. Otherwise o says what is wrong and how many corrections
// are left.
func (t *Turn) validArgs(c llm.ToolCall, ent *entry, o *Outcome) ([]byte, bool) {
	e := t.e
	args := bytes.TrimSpace(c.Arguments)
	v, err := DecodeArgs(args)
	var problems []string
	if err != nil {
		problems = []string{err.Error()}
	} else {
		problems = ent.params.validate(v)
	}
	if len(problems) > 0 {
		n := t.noteInvalid(c.Name)
		if n > e.cfg.MaxRepairs {
			o.fail(StatusError, KindRepairLimit, repairLimitMessage(c.Name, e.cfg.MaxRepairs), problems)
		} else {
			o.fail(StatusError, KindInvalidArguments, fmt.Sprintf("The arguments do not match the parameters of %s. "+
				"Fix the problems listed in details and call it again (%d of %d corrections left).", c.Name, e.cfg.MaxRepairs-n+1, e.cfg.MaxRepairs), problems)
		}
		return nil, false
	}
	t.noteValid(c.Name)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	return args, true
}

// breakerRefuses says the tool's breaker is open, here or in another process
// (Shared), and sets o so.
func (t *Turn) breakerRefuses(ctx context.Context, name string, b *breaker, o *Outcome) bool {
	e := t.e
	if b.state() == BreakerOpen {
		o.Breaker = BreakerOpen
		o.fail(StatusError, KindUnavailable, unavailableMessage(name, b.status().RetryAt), nil)
		return true
	}
	if e.Shared != nil { // a breaker another process opened
		if until, err := e.Shared.OpenUntil(ctx, name); err == nil && until.After(e.Now()) {
			o.Breaker = BreakerOpen
			o.fail(StatusError, KindUnavailable, unavailableMessage(name, until), nil)
			return true
		}
	}
	return false
}

// execute runs the tool: the breaker lets it through (or refuses at once), a
// half-open breaker's probe runs the tool's health check first, the timeout
// bounds it, and its result is checked against its declared schema.
func (t *Turn) execute(ctx context.Context, c llm.ToolCall, ent *entry, b *breaker, args []byte, o *Outcome) {
	e := t.e
	execStart := e.Now()
	probe := b.state() == BreakerHalfOpen
	done, ok := b.allow()
	if !ok {
		o.Breaker = b.state()
		o.fail(StatusError, KindUnavailable, unavailableMessage(c.Name, b.status().RetryAt), nil)
		return
	}
	defer func() {
		b.flush(e.breakerChanged)
		o.Breaker = b.state()
	}()
	timeout := e.cfg.Timeout
	if ent.timeout > 0 {
		timeout = ent.timeout
	}
	if hc, isHC := ent.tool.(HealthChecker); probe && isHC && !t.healthy(ctx, c.Name, hc, timeout, execStart, done, o) {
		return
	}
	callCtx := context.WithValue(ctx, callKey{}, CallInfo{RequestID: t.info.RequestID, SessionID: t.info.SessionID, CallID: c.ID, Tool: c.Name})
	// A turn the tool runs in turn (a sub-agent's) answers approvals as this one does.
	callCtx = context.WithValue(callCtx, policyKey{}, t.policy(ctx))
	res, err := run(callCtx, timeout, func(ctx context.Context) (json.RawMessage, error) { return ent.tool.Execute(ctx, args) })
	o.Latency = e.Now().Sub(execStart)
	switch {
	case errors.Is(err, errCancelled):
		done(errCancelled)
		o.fail(StatusCancelled, KindCancelled, "The user cancelled the turn.", nil)
	case errors.Is(err, errTimeout):
		if o.Latency >= e.cfg.SlowTimeout {
			done(errSlowTimeout)
		} else {
			done(errTimeout)
		}
		o.fail(StatusTimeout, KindTimeout, fmt.Sprintf("%s did not finish within %s.", c.Name, timeout), nil)
	case err != nil:
		done(errFailure)
		o.fail(StatusError, KindToolError, truncate(err.Error(), maxStoredError), nil)
	default:
		if problems := checkResult(ent, res); len(problems) > 0 {
			done(errFailure)
			o.fail(StatusError, KindInvalidResult, fmt.Sprintf("%s returned a result that does not match its declared result schema.", c.Name), problems)
			return
		}
		done(nil)
		o.Status, o.Result = StatusOK, res
		o.Content = modelContent(res, e.cfg.MaxResultBytes)
		if o.Content == "" {
			o.Content = "Done (the tool returned no output)."
		}
	}
}

// healthy runs a half-open breaker's probe: the tool's health check, whose
// failure is the call's (and keeps the breaker open).
func (t *Turn) healthy(ctx context.Context, name string, hc HealthChecker, timeout time.Duration, execStart time.Time, done func(error), o *Outcome) bool {
	_, herr := run(ctx, timeout, func(ctx context.Context) (json.RawMessage, error) { return nil, hc.HealthCheck(ctx) })
	if herr == nil {
		return true
	}
	o.Latency = t.e.Now().Sub(execStart)
	if errors.Is(herr, errCancelled) {
		done(errCancelled)
		o.fail(StatusCancelled, KindCancelled, "The user cancelled the turn.", nil)
		return false
	}
	done(errFailure)
	o.fail(StatusError, KindUnavailable, fmt.Sprintf("%s is still unavailable (its health check failed: %v). "+
		"Answer without it, or tell the user it is unavailable.", name, herr), nil)
	return false
}

// run calls fn with a timeout, in its own goroutine so that a tool that ignores
// its context cannot hold the turn. The error is errCancelled when the caller's
// ctx ended, errTimeout when the timeout did, else fn's error (a panic included).
func run(ctx context.Context, timeout time.Duration, fn func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	type result struct {
		res json.RawMessage
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- result{err: fmt.Errorf("the tool crashed: %v", p)}
			}
		}()
		res, err := fn(cctx)
		ch <- result{res, err}
	}()
	var r result
	select {
	case r = <-ch:
		if r.err == nil || cctx.Err() == nil {
			return r.res, r.err
		}
	case <-cctx.Done():
		select {
		case r = <-ch: // finished at the same moment: keep a success
			if r.err == nil {
				return r.res, nil
			}
		default:
		}
	}
	if ctx.Err() != nil {
		return nil, errCancelled
	}
	return nil, errTimeout
}

// approve asks the user unless the session already allows this definition; it
// reports whether the call may run, filling o when it may not.
func (t *Turn) approve(ctx context.Context, o *Outcome, ent *entry, args json.RawMessage) bool {
	e := t.e
	t.approveMu.Lock()
	defer t.approveMu.Unlock()
	sid := t.info.SessionID
	if sid != "" && e.Grants != nil {
		if ok, err := e.Grants.Granted(ctx, sid, ent.tool.Name(), ent.hash()); err == nil && ok {
			return true
		}
	}
	p := t.policy(ctx)
	ap := e.Approver
	if p.approver != nil {
		ap = p.approver
	}
	if ap == nil || p.unattended {
		o.fail(StatusError, KindApprovalFailed, fmt.Sprintf("%s needs the user's approval, and there is no one to ask here.", o.Tool), nil)
		return false
	}
	asked := time.Now()
	d, err := ap.Approve(ctx, ApprovalRequest{
		RequestID: t.info.RequestID, SessionID: sid, CallID: o.CallID, Tool: o.Tool, Description: ent.tool.Description(),
		Args: args, Annotations: ent.tool.Annotations(), DefinitionHash: ent.hash(),
	})
	o.Waited = time.Since(asked) // approvals are asked one at a time: the waits add up
	switch {
	case err != nil && ctx.Err() != nil:
		o.fail(StatusCancelled, KindCancelled, "The user cancelled the turn.", nil)
		return false
	case err != nil:
		o.fail(StatusError, KindApprovalFailed, fmt.Sprintf("Could not ask the user to approve %s: %v", o.Tool, err), nil)
		return false
	case !d.Allow:
		o.fail(StatusDenied, KindDenied, fmt.Sprintf("The user declined to run %s with these arguments. Do not call it again "+
			"for this request; answer without it, or ask the user what they would like instead.", o.Tool), nil)
		return false
	}
	if d.Scope == ScopeSession && sid != "" && e.Grants != nil {
		if err := e.Grants.Grant(context.WithoutCancel(ctx), sid, ent.tool.Name(), ent.hash()); err != nil && e.OnAuditError != nil {
			e.OnAuditError(err)
		}
	}
	return true
}

// checkResult validates a successful result: JSON, and the declared schema if any.
func checkResult(ent *entry, res json.RawMessage) []string {
	if len(bytes.TrimSpace(res)) == 0 {
		if ent.result == nil {
			return nil
		}
		return []string{"the result is empty"}
	}
	if ent.result == nil {
		if !json.Valid(res) {
			return []string{"the result is not valid JSON"}
		}
		return nil
	}
	v, err := DecodeArgs(res)
	if err != nil {
		return []string{"the result is not valid JSON: " + err.Error()}
	}
	return ent.result.validate(v)
}

func (t *Turn) unknownToolMessage(name string) string {
	var names []string
	for _, tool := range t.e.reg.Tools(t.info.Allow) {
		names = append(names, tool.Name())
	}
	avail := "none"
	const maxNames = 40
	switch {
	case len(names) > maxNames:
		avail = strings.Join(names[:maxNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxNames)
	case len(names) > 0:
		avail = strings.Join(names, ", ")
	}
	return fmt.Sprintf("There is no tool named %q available in this turn. Available tools: %s.", truncate(name, 64), avail)
}

func repairLimitMessage(name string, max int) string {
	return fmt.Sprintf("The arguments for %s were invalid after %d corrections. Stop calling it in this turn and tell "+
		"the user what you tried and what went wrong.", name, max)
}

func unavailableMessage(name string, retryAt time.Time) string {
	msg := fmt.Sprintf("%s is temporarily unavailable after repeated failures", name)
	if !retryAt.IsZero() {
		msg += fmt.Sprintf(" (it will be tried again after %s)", retryAt.Format("15:04"))
	}
	return msg + ". Answer without it, or tell the user it is unavailable."
}

// CallInfo is the call a tool is running for (its turn and the model's call id).
type CallInfo struct {
	RequestID, SessionID, CallID, Tool string
}

type callKey struct{}

// approvalPolicy is who answers a turn's calls that need approval: the turn's
// own (TurnInfo.Unattended, TurnInfo.Approver), else that of the call the turn
// runs inside (a sub-agent's turn inside an agent__ tool call inherits it), else
// the executor's Approver. Unattended, once set, is never lifted by an inner turn.
type approvalPolicy struct {
	unattended bool
	approver   Approver
}

type policyKey struct{}

func (t *Turn) policy(ctx context.Context) approvalPolicy {
	p, _ := ctx.Value(policyKey{}).(approvalPolicy)
	if t.info.Unattended {
		p.unattended = true
	}
	if t.info.Approver != nil {
		p.approver = t.info.Approver
	}
	return p
}

// CallFrom returns the call a tool's Execute runs for.
func CallFrom(ctx context.Context) (CallInfo, bool) {
	c, ok := ctx.Value(callKey{}).(CallInfo)
	return c, ok
}
