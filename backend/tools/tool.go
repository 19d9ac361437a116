// Package tools runs the tools the model may call: a registry of tools with JSON
// Schemas, validation of every call as untrusted input, an executor with per-call
// timeouts and a circuit breaker per tool, a loop guard per turn, approvals bound
// to a tool's definition, and an audit row for every call.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"hermes/backend/lazyre"
)

// Tool is something the model may call. Parameters is a JSON Schema (draft
// 2020-12) of an object; Execute receives arguments already validated against it.
// A result is JSON; a tool whose answer is plain text returns TextResult(s).
type Tool interface {
	Name() string
	Description() string
	Parameters() json.RawMessage
	Annotations() Annotations
	Execute(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
}

// ResultSchemer is a Tool that declares the schema of its results; a result that
// fails it is reported as a tool error.
type ResultSchemer interface {
	ResultSchema() json.RawMessage
}

// PrivateTool is a Tool whose arguments carry personal data that lives elsewhere
// and must be erasable there (the text of a memory): the audit log and a stored
// conversation keep only its arguments' shape (see PrivateArgs), and the text of a
// failure it reports is not kept (its kind is).
type PrivateTool interface {
	PrivateData() bool
}

// StoredResulter is a Tool whose successful results quote such data: the stored
// conversation keeps StoredResult(result) instead (the model still gets the result
// in the turn), e.g. the ids of memories found without their text.
type StoredResulter interface {
	StoredResult(result json.RawMessage) json.RawMessage
}

// PrivateError stands in the audit log and stored turns for a private tool's own
// failure message.
const PrivateError = "The tool failed (its message is not kept: it may quote private data)."

// HealthChecker is a Tool that can tell whether it works again; when its breaker is
// half-open the check runs before the next call is let through.
type HealthChecker interface {
	HealthCheck(ctx context.Context) error
}

// Annotations say what a tool does to the world; they decide whether a call asks
// the user first.
type Annotations struct {
	ReadOnly    bool `json:"read_only"`   // only reads; never asks
	Destructive bool `json:"destructive"` // may delete or overwrite
	OpenWorld   bool `json:"open_world"`  // reaches outside the machine (internet, other people)
	Command     bool `json:"command"`     // runs a program
	Shell       bool `json:"shell"`       // runs a shell with the model's text (allow_shell): the approval says so in red
}

// NeedsApproval reports whether a call asks the user before it runs.
func (a Annotations) NeedsApproval() bool {
	return a.Destructive || a.OpenWorld || a.Command
}

// validName is the model's rule for tool names.
var validName = lazyre.New(`^[a-zA-Z0-9_-]{1,64}$`)

// ValidName reports whether name is acceptable as a tool name for the model.
func ValidName(name string) bool { return validName.MatchString(name) }

// ReadArgs unmarshals a call's (already validated) arguments into v; op names the
// tool's operation in the error.
func ReadArgs(op string, args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("%s: read arguments: %w", op, err)
	}
	return nil
}

// JSONResult marshals a tool's result; op names the operation in the error.
func JSONResult(op string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: encode result: %w", op, err)
	}
	return b, nil
}

// TextResult is a plain-text result, encoded as a JSON string.
func TextResult(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// Func is a Tool made of values and a function, for tools that need no type of
// their own.
type Func struct {
	ToolName        string
	ToolDescription string
	Params          json.RawMessage
	Result          json.RawMessage // optional result schema
	Annots          Annotations
	Fn              func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
	Health          func(ctx context.Context) error // optional
	// Private marks arguments that must not be copied (PrivateTool).
	Private bool
	// Stored, when set, is the form of a result a stored conversation keeps (StoredResulter).
	Stored func(result json.RawMessage) json.RawMessage
}

func (f *Func) Name() string                  { return f.ToolName }
func (f *Func) Description() string           { return f.ToolDescription }
func (f *Func) Parameters() json.RawMessage   { return f.Params }
func (f *Func) Annotations() Annotations      { return f.Annots }
func (f *Func) ResultSchema() json.RawMessage { return f.Result }
func (f *Func) PrivateData() bool             { return f.Private }
func (f *Func) StoredResult(r json.RawMessage) json.RawMessage {
	if f.Stored == nil {
		return r
	}
	return f.Stored(r)
}
func (f *Func) Execute(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	return f.Fn(ctx, args)
}

// HealthCheck runs Health, or reports healthy when there is none.
func (f *Func) HealthCheck(ctx context.Context) error {
	if f.Health == nil {
		return nil
	}
	return f.Health(ctx)
}
