package app

import (
	"context"
	"encoding/json"
	"fmt"
)

// webMethod is one bound method as web mode calls it: args is how many
// arguments it takes, call decodes each into its parameter's type and calls it.
// The table of every method (webmethods_gen.go) is written by bindgen.
type webMethod struct {
	args int
	call func(ctx context.Context, args []json.RawMessage) (any, error)
}

// requestBound are the long calls web mode runs under the request's context (a
// turn or a workflow run stops, its partial reply kept, its run interrupted and
// resumable, when the page goes away, as Stop would stop it); the window calls
// the same methods, which run under a background context.
func (a *App) requestBound() map[string]webMethod {
	return map[string]webMethod{
		"SendMessage":     bind3(a.Chat.send),
		"ContinueTurn":    bind2(a.Chat.continueTurn),
		"RegenerateReply": bind3(a.Chat.regenerate),
		"EditMessage":     bind4(a.Chat.edit),
		"RunWorkflow":     bind3(a.Workflows.runWorkflow),
		"ResumeWorkflow":  bind2(a.Workflows.resumeWorkflow),
	}
}

// decodeArgs decodes each JSON argument into the value its pointer points at.
func decodeArgs(args []json.RawMessage, into ...any) error {
	if len(args) != len(into) {
		return fmt.Errorf("%w: %d arguments, got %d", errBadCall, len(into), len(args))
	}
	for i, arg := range args {
		if err := json.Unmarshal(arg, into[i]); err != nil {
			return fmt.Errorf("%w: argument %d: %v", errBadCall, i+1, err)
		}
	}
	return nil
}

func bind0[R any](f func(context.Context) (R, error)) webMethod {
	return webMethod{0, func(ctx context.Context, v []json.RawMessage) (any, error) {
		if err := decodeArgs(v); err != nil {
			return nil, err
		}
		return f(ctx)
	}}
}

func bind1[A, R any](f func(context.Context, A) (R, error)) webMethod {
	return webMethod{1, func(ctx context.Context, v []json.RawMessage) (any, error) {
		var a A
		if err := decodeArgs(v, &a); err != nil {
			return nil, err
		}
		return f(ctx, a)
	}}
}

func bind2[A, B, R any](f func(context.Context, A, B) (R, error)) webMethod {
	return webMethod{2, func(ctx context.Context, v []json.RawMessage) (any, error) {
		var a A
		var b B
		if err := decodeArgs(v, &a, &b); err != nil {
			return nil, err
		}
		return f(ctx, a, b)
	}}
}

func bind3[A, B, C, R any](f func(context.Context, A, B, C) (R, error)) webMethod {
	return webMethod{3, func(ctx context.Context, v []json.RawMessage) (any, error) {
		var a A
		var b B
		var c C
		if err := decodeArgs(v, &a, &b, &c); err != nil {
			return nil, err
		}
		return f(ctx, a, b, c)
	}}
}

func bind4[A, B, C, D, R any](f func(context.Context, A, B, C, D) (R, error)) webMethod {
	return webMethod{4, func(ctx context.Context, v []json.RawMessage) (any, error) {
		var a A
		var b B
		var c C
		var d D
		if err := decodeArgs(v, &a, &b, &c, &d); err != nil {
			return nil, err
		}
		return f(ctx, a, b, c, d)
	}}
}
