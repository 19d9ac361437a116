package toolfile

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hermes/backend/tools"
)

// Tool is one tool declared in tools.yaml.
type Tool struct {
	name        string
	description string
	params      json.RawMessage
	result      json.RawMessage
	annotations tools.Annotations
	timeout     time.Duration
	line        int
	shell       bool // runs a shell with the model's arguments (allow_shell: true)
	autoApprove bool // the user lets it run without asking (auto_approve: true)
	run         func(ctx context.Context, args map[string]json.RawMessage) (json.RawMessage, error)
}

func (t *Tool) Name() string                   { return t.name }
func (t *Tool) Description() string            { return t.description }
func (t *Tool) Parameters() json.RawMessage    { return t.params }
func (t *Tool) ResultSchema() json.RawMessage  { return t.result }
func (t *Tool) Annotations() tools.Annotations { return t.annotations }

// Line is where the tool is declared in the file.
func (t *Tool) Line() int { return t.line }

// Shell reports whether the tool runs a shell with the model's arguments (the
// user set allow_shell: true): its approval should say so prominently. Its
// description starts with ShellNote too.
func (t *Tool) Shell() bool { return t.shell }

// Options are the registration options the file asks for (its timeout, and
// auto_approve).
func (t *Tool) Options() []tools.Option {
	var opts []tools.Option
	if t.timeout > 0 {
		opts = append(opts, tools.WithTimeout(t.timeout))
	}
	if t.autoApprove {
		opts = append(opts, tools.WithAutoApprove())
	}
	return opts
}

// Execute runs the tool with validated arguments.
func (t *Tool) Execute(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, fmt.Errorf("%s: read arguments: %w", t.name, err)
	}
	return t.run(ctx, m)
}

// Register adds the tools to reg; a tool that cannot be registered (its name is
// taken, say) is left out and reported, the others are registered.
func Register(reg *tools.Registry, ts []*Tool) []error {
	var errs []error
	for _, t := range ts {
		if err := reg.Register(t, t.Options()...); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", FileName, t.line, err))
		}
	}
	return errs
}

// result turns output into a result: JSON when it is JSON, else text.
func result(out []byte) json.RawMessage {
	trimmed := trimSpace(out)
	if len(trimmed) > 0 && json.Valid(trimmed) {
		return json.RawMessage(trimmed)
	}
	return tools.TextResult(toValidUTF8(out))
}
