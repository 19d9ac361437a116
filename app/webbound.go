package app

import "context"

// boundCall is an App method whose work belongs to the web request that asked for
// it: a turn or a workflow run stops (its partial reply kept, its run interrupted
// and resumable) when the page goes away, as Stop would stop it.
type boundCall struct {
	args int
	call func(ctx context.Context, args []string) (any, error)
}

// requestBound are the long calls web mode runs under the request's context; the
// window calls the same methods, which run under a background context.
func (a *App) requestBound() map[string]boundCall {
	return map[string]boundCall{
		"SendMessage": {3, func(ctx context.Context, v []string) (any, error) { return a.send(ctx, v[0], v[1], v[2]) }},
		"ContinueTurn": {2, func(ctx context.Context, v []string) (any, error) {
			return a.continueTurn(ctx, v[0], v[1])
		}},
		"RegenerateReply": {3, func(ctx context.Context, v []string) (any, error) { return a.regenerate(ctx, v[0], v[1], v[2]) }},
		"EditMessage":     {4, func(ctx context.Context, v []string) (any, error) { return a.edit(ctx, v[0], v[1], v[2], v[3]) }},
		"RunWorkflow":     {3, func(ctx context.Context, v []string) (any, error) { return a.runWorkflow(ctx, v[0], v[1], v[2]) }},
		"ResumeWorkflow":  {2, func(ctx context.Context, v []string) (any, error) { return a.resumeWorkflow(ctx, v[0], v[1]) }},
	}
}
