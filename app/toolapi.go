package app

import (
	"context"
	"fmt"
	"time"

	"hermes/backend/agent"
	"hermes/backend/session"
	"hermes/backend/tools"
)

// ToolsService is the tools as the window and web mode call them (the Tools
// panel: switches, breakers, the activity log): one bound service of its own
// beside App. Approvals and a turn's next round stay with the chat (App).
//
//bindgen:bound
type ToolsService struct {
	core *Core
}

// ToolCall is one tool call of a turn, as the chat shows it.
type ToolCall struct {
	CallID    string       `json:"callId,omitempty"` // the model's id of the call (a delegation's thread is found by it)
	Tool      string       `json:"tool"`
	Args      string       `json:"args"`
	Status    tools.Status `json:"status"`
	ErrorKind string       `json:"errorKind,omitempty"`
	Error     string       `json:"error,omitempty"`
	Result    string       `json:"result,omitempty"`
	LatencyMs int64        `json:"latencyMs"`
	Breaker   string       `json:"breaker,omitempty"`
}

// GuardStop says why the loop guard stopped a turn: its kind, the English
// message, and the figures the UI words it by (rounds made, failures in a row,
// the last tool).
type GuardStop struct {
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	Iterations int    `json:"iterations"`
	Failures   int    `json:"failures"`
	LastTool   string `json:"lastTool,omitempty"`
}

func guardStop(r *tools.StopReason) *GuardStop {
	if r == nil {
		return nil
	}
	return &GuardStop{Kind: r.Kind, Message: r.Message, Iterations: r.Iterations, Failures: r.Failures, LastTool: r.LastTool}
}

func toToolCall(o tools.Outcome) ToolCall {
	return ToolCall{CallID: o.CallID, Tool: o.Tool, Args: tools.RedactArgs(o.Args), Status: o.Status, ErrorKind: o.ErrorKind,
		Error: o.Error, Result: clipResult(o.Content), LatencyMs: o.Latency.Milliseconds(), Breaker: o.Breaker}
}

// storedToolCall is a stored tool message's card; nil when the message kept no
// details (stored by an older version, or imported).
func storedToolCall(m session.Message) *ToolCall {
	d, ok := agent.ParseToolDetails(m.Details)
	if !ok {
		return nil
	}
	return &ToolCall{CallID: d.CallID, Tool: m.ToolName, Args: d.Args, Status: tools.Status(d.Status), ErrorKind: d.ErrorKind, Error: d.Error,
		Result: clipResult(m.Content), LatencyMs: d.LatencyUs / 1000, Breaker: d.Breaker}
}

// clipResult keeps a card's result short; the full text stays in the conversation.
func clipResult(s string) string {
	if r := []rune(s); len(r) > 2000 {
		return string(r[:2000]) + "…"
	}
	return s
}

// ToolCallInfo converts a tool call's outcome for display.
func ToolCallInfo(o tools.Outcome) ToolCall { return toToolCall(o) }

func addToolInfo(tr *TurnResult, res agent.Result) {
	tr.Tools = []ToolCall{}
	for _, o := range res.Tools {
		tr.Tools = append(tr.Tools, toToolCall(o))
	}
	if res.Stop != nil {
		tr.Stop = guardStop(res.Stop)
	}
	tr.Unverified = res.Unverified
}

// gateApproval: allowing a call of a tool that runs a program from the web
// needs a one-time code (a refusal needs none); its fingerprint is the tool's
// definition.
func gateApproval(w *Web, args []string) (guarded, bool) {
	if len(args) != 3 || args[1] != "true" {
		return guarded{}, false // a refusal needs no code
	}
	w.promptMu.Lock()
	p, ok := w.prompts[args[0]]
	w.promptMu.Unlock()
	if !ok || !p.Annotations.Command {
		return guarded{}, false
	}
	callArgs := string(p.Args)
	if r := []rune(callArgs); len(r) > 300 {
		callArgs = string(r[:300]) + "…"
	}
	return guarded{key: "ResolveApproval\x00" + p.ID, fingerprint: p.DefinitionHash,
		what: fmt.Sprintf("let the tool %q run its program with %s", p.Tool, callArgs)}, true
}

// ResolveApproval answers an approval:needed prompt: allow or deny, scope "once" or "session".
func (a *ChatService) ResolveApproval(id string, allow bool, scope tools.Scope) error {
	d := tools.Decision{Allow: allow, Scope: tools.ScopeOnce}
	if scope == tools.ScopeSession {
		d.Scope = tools.ScopeSession
	}
	if !a.approvals.resolve(id, d) {
		return &UserError{Message: "That approval request is no longer waiting (it timed out or the turn was stopped).", Code: CodeNotFound}
	}
	return nil
}

// ContinueTurn gives a turn the loop guard stopped one more round of tool calls.
func (a *ChatService) ContinueTurn(requestID, sessionID string) (TurnResult, error) {
	return a.continueTurn(context.Background(), requestID, sessionID)
}

func (a *ChatService) continueTurn(ctx context.Context, requestID, sessionID string) (TurnResult, error) {
	return a.run(ctx, requestID, agent.Input{SessionID: sessionID, Continue: true})
}

// ToolInfo is a tool as the settings show it.
type ToolInfo struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Annotations tools.Annotations `json:"annotations"`
	Groups      []string          `json:"groups"`
	Enabled     bool              `json:"enabled"`
	Breaker     string            `json:"breaker"`
	OpenUntil   string            `json:"openUntil,omitempty"`
}

// ListTools lists every registered tool with its breaker state.
func (a *ToolsService) ListTools() ([]ToolInfo, error) { return a.core.ListTools(), nil }

// ListTools lists every registered tool with its breaker state.
func (c *Core) ListTools() []ToolInfo {
	out := []ToolInfo{}
	for _, in := range c.tools.reg.List() {
		b := c.tools.exec.Breaker(in.Name)
		ti := ToolInfo{Name: in.Name, Description: in.Description, Annotations: in.Annotations, Groups: in.Groups,
			Enabled: in.Enabled, Breaker: b.State}
		if !b.RetryAt.IsZero() {
			ti.OpenUntil = stamp(b.RetryAt)
		}
		out = append(out, ti)
	}
	return out
}

// SetToolEnabled turns a tool on or off for the model.
func (a *ToolsService) SetToolEnabled(name string, on bool) error {
	if err := a.core.tools.reg.SetEnabled(name, on); err != nil {
		return &UserError{Message: err.Error(), Err: err}
	}
	return nil
}

// ResetBreaker closes a tool's breaker so it may be called again at once.
func (a *ToolsService) ResetBreaker(name string) error {
	a.core.tools.exec.ResetBreaker(name)
	return nil
}

// Activity is one row of the tool activity view.
type Activity struct {
	ID        int64  `json:"id"`
	RequestID string `json:"requestId"`
	SessionID string `json:"sessionId,omitempty"`
	Tool      string `json:"tool"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
	ErrorKind string `json:"errorKind,omitempty"`
	Error     string `json:"error,omitempty"`
	LatencyMs int64  `json:"latencyMs"`
	Breaker   string `json:"breaker,omitempty"`
	CreatedAt string `json:"createdAt"`
}

// ToolActivity lists audited tool calls, newest first; empty filters match all.
func (a *ToolsService) ToolActivity(tool, status, sessionID string, limit int) ([]Activity, error) {
	return a.core.ToolActivity(context.Background(), tool, status, sessionID, limit)
}

// ToolActivity lists audited tool calls, newest first; empty filters match all.
func (c *Core) ToolActivity(ctx context.Context, tool, status, sessionID string, limit int) ([]Activity, error) {
	return c.toolActivity(ctx, tools.AuditFilter{Tool: tool, Status: tools.Status(status), SessionID: sessionID, Limit: limit})
}

// toolActivity reads the audit log: the calls f matches, newest first.
func (c *Core) toolActivity(ctx context.Context, f tools.AuditFilter) ([]Activity, error) {
	log, ok := c.tools.exec.Audit.(*tools.AuditLog)
	if !ok {
		return []Activity{}, nil
	}
	rows, err := log.Query(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]Activity, 0, len(rows))
	for _, r := range rows {
		out = append(out, Activity{ID: r.ID, RequestID: r.RequestID, SessionID: r.SessionID, Tool: r.Tool, Arguments: r.Arguments,
			Status: string(r.Status), ErrorKind: r.ErrorKind, Error: r.Error, LatencyMs: r.Latency.Milliseconds(),
			Breaker: r.Breaker, CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339Nano)})
	}
	return out, nil
}
