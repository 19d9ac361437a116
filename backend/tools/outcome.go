package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"hermes/backend/llm"
)

// Status is how a call ended; it is stored in the audit log.
type Status string

// Statuses.
const (
	StatusOK        Status = "ok"
	StatusError     Status = "error"
	StatusDenied    Status = "denied"    // the user said no
	StatusBlocked   Status = "blocked"   // the loop guard refused it
	StatusTimeout   Status = "timeout"   // the tool ran past its timeout
	StatusCancelled Status = "cancelled" // the user cancelled the turn
)

// Error kinds: the "error" field of what the model sees, and error_kind in the audit log.
const (
	KindInvalidArguments = "invalid_arguments" // arguments failed the schema; the model may repair them
	KindRepairLimit      = "repair_limit"      // too many invalid calls of this tool in this turn
	KindUnknownTool      = "unknown_tool"      // no such tool, or not offered this turn
	KindUnavailable      = "unavailable"       // the tool's breaker is open
	KindToolError        = "tool_error"        // the tool failed
	KindInvalidResult    = "invalid_result"    // the result failed the declared result schema
	KindTimeout          = "timeout"
	KindCancelled        = "cancelled"
	KindDenied           = "denied_by_user"
	KindApprovalFailed   = "approval_failed" // no one could be asked
	KindRepeatedCall     = "repeated_call"   // identical call over the limit
	KindIterationLimit   = "iteration_limit" // the turn used all its tool rounds
	KindTurnStopped      = "turn_stopped"    // the guard already stopped the turn
)

// Outcome is what happened to one call. Content is what the model gets back as
// the tool message; Result is the tool's own result when it succeeded.
type Outcome struct {
	CallID string
	Tool   string
	Args   json.RawMessage // as the model sent them
	// StoredArgs, StoredError and StoredContent are the call as the audit log and a
	// stored conversation keep it: secrets redacted; for a PrivateTool, its arguments'
	// shape and no failure text of its own; a StoredResulter's result in its stored form.
	StoredArgs, StoredError, StoredContent string
	Status                                 Status
	ErrorKind                              string
	Error                                  string // a short human-readable reason; empty when ok
	Content                                string
	Result                                 json.RawMessage
	Latency                                time.Duration
	Waited                                 time.Duration // spent waiting for the user's approval (0: not asked)
	Breaker                                string        // the tool's breaker state after the call ("" when it never reached one)
	RequestID                              string
	SessionID                              string
}

// OK reports whether the tool ran and succeeded.
func (o Outcome) OK() bool { return o.Status == StatusOK }

// Failed reports whether the call counts as a failure for the loop guard: denials
// and cancellations are answers, not failures.
func (o Outcome) Failed() bool {
	return o.Status == StatusError || o.Status == StatusTimeout || o.Status == StatusBlocked
}

// Message is the tool message to send back to the model.
func (o Outcome) Message() llm.Message {
	return llm.Message{Role: "tool", ToolName: o.Tool, Content: o.Content}
}

// problem is the JSON the model gets when a call did not succeed.
type problem struct {
	Tool    string   `json:"tool"`
	Error   string   `json:"error"`
	Message string   `json:"message,omitempty"`
	Details []string `json:"details,omitempty"`
}

func (p problem) String() string {
	b, _ := json.Marshal(p) // strings only
	return string(b)
}

// fail fills o as a failed call with the model-facing problem text.
func (o *Outcome) fail(status Status, kind, msg string, details []string) {
	o.Status, o.ErrorKind, o.Error = status, kind, msg
	o.Content = problem{Tool: o.Tool, Error: kind, Message: msg, Details: details}.String()
}

// modelContent turns a result into the text the model reads: a JSON string
// becomes its text, anything else stays compact JSON; both are capped at max bytes.
func modelContent(result json.RawMessage, max int) string {
	var s string
	if err := json.Unmarshal(result, &s); err != nil {
		var b bytes.Buffer
		if json.Compact(&b, result) == nil {
			s = b.String()
		} else {
			s = string(result)
		}
	}
	return truncate(s, max)
}

// truncate cuts s to at most max bytes on a rune boundary and says so.
func truncate(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[truncated: %d of %d bytes shown]", cut, len(s))
}
