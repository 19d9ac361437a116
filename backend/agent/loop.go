package agent

import (
	"context"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/tools"
)

// Loop is the model↔tool loop every agent runs, the main turn and a
// sub-agent alike (docs/architecture.md, "One turn as data"): ask the model,
// streaming its pieces; run the tools it calls under the loop guard; give it
// their results and ask again; until it answers without calls, fails, is
// stopped, or the guard stops it. What differs between agents is plugged in.
type Loop struct {
	LLM LLM
	// Tools runs the calls of one round; nil: the model's calls are not run
	// and its reply is the answer.
	Tools Rounds
	// Ask runs before each call of the model (round 0 first).
	Ask func(round int)
	// Delta takes each streamed piece; an error stops the stream.
	Delta func(llm.Delta) error
	// Asked runs after each call of the model, before anything of it is used;
	// an error ends the loop with that error.
	Asked func(reply llm.Reply, chatErr error) error
	// Result takes each tool result once it is in the request; an error ends
	// the loop with that error.
	Result func(o tools.Outcome) error
}

// Rounds runs one round of tool calls under a loop guard.
type Rounds interface {
	RunAll(ctx context.Context, calls []llm.ToolCall) ([]tools.Outcome, *tools.StopReason)
}

// End is how a loop ended: the model's last reply and its error (the context's
// when the turn was stopped between rounds), or the guard's stop.
type End struct {
	Reply   llm.Reply
	ChatErr error
	Stop    *tools.StopReason
}

// Run runs the loop on req, which gains each round's assistant message and
// tool results. err is a stage's (Asked, Result); the model's is End.ChatErr.
func (l Loop) Run(ctx context.Context, req *llm.ChatRequest) (end End, err error) {
	for round := 0; ; round++ {
		if l.Ask != nil {
			l.Ask(round)
		}
		end.Reply, end.ChatErr = l.LLM.Chat(ctx, *req, l.delta)
		if l.Asked != nil {
			if err := l.Asked(end.Reply, end.ChatErr); err != nil {
				return end, err
			}
		}
		if end.ChatErr != nil || len(end.Reply.ToolCalls) == 0 || l.Tools == nil {
			return end, nil
		}
		outs, stop := l.Tools.RunAll(ctx, end.Reply.ToolCalls)
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: end.Reply.Content, ToolCalls: end.Reply.ToolCalls})
		for _, o := range outs {
			req.Messages = append(req.Messages, ToolResultMessage(o))
			if l.Result != nil {
				if err := l.Result(o); err != nil {
					return end, err
				}
			}
		}
		if stop != nil {
			end.Stop = stop
			return end, nil
		}
		if err := ctx.Err(); err != nil {
			end.ChatErr = err
			return end, nil
		}
	}
}

func (l Loop) delta(d llm.Delta) error {
	if l.Delta == nil {
		return nil
	}
	return l.Delta(d)
}

// DefaultBudget is the prompt tokens an agent may use when nothing says how
// many (no Budget, no context size asked).
const DefaultBudget = 6144

// Of is the prompt budget for models: b's, or with no b the share of the
// context size asked (DefaultBudget when none is asked).
func (b Budget) Of(ctx context.Context, models []string, asked int) (budget, numCtx int, model string, recentTurns int) {
	switch {
	case b != nil:
		return b(ctx, models, asked)
	case asked > 0:
		return prompt.Budget(asked, 1024), asked, "", 0
	}
	return DefaultBudget, 0, "", 0
}
