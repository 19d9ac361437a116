// Package agent runs one turn: persist the user's message, classify it, stream the
// model's reply through a callback, and persist the reply. It depends only on the
// small interfaces declared here; the composition root wires the real parts.
package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/session"
)

// LLM streams a chat reply; an error from fn stops the stream.
type LLM interface {
	Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error)
}

// Sessions stores conversations.
type Sessions interface {
	Create(ctx context.Context, title string) (session.Session, error)
	Get(ctx context.Context, id string) (session.Session, error)
	Messages(ctx context.Context, sessionID string) ([]session.Message, error)
	Append(ctx context.Context, m session.Message) (session.Message, error)
}

// Classifier labels a message with its intent. A nil Classifier means "unknown".
type Classifier interface {
	Classify(ctx context.Context, text string) (label string, confidence float32, err error)
}

// PromptBuilder decides what the model sees.
type PromptBuilder interface {
	Build(ctx context.Context, in prompt.Input) prompt.Context
}

// Calibration corrects token estimates with what the server reports.
type Calibration interface {
	Ratio(ctx context.Context, model string) float64
	Observe(ctx context.Context, model string, estimated, reported int) error
}

// Budget says how many prompt tokens the turn may use and the context size to ask for.
type Budget func(ctx context.Context, models []string) (budget, numCtx int, model string, recentTurns int)

// Agent runs turns.
type Agent struct {
	LLM        LLM
	Sessions   Sessions
	Classifier Classifier
	// Prompt builds the context; nil sends the whole history.
	Prompt      PromptBuilder
	Budget      Budget
	Calibration Calibration
	// AfterTurn runs when a turn has been stored (e.g. to refresh the summary).
	AfterTurn func(sessionID string)
	// System is the system prompt; empty uses DefaultSystemPrompt.
	System string
}

// DefaultSystemPrompt is what the model is told about itself.
const DefaultSystemPrompt = "You are Hermes, a private assistant running entirely on the user's computer. " +
	"Answer clearly and concisely. Use Markdown for code."

// ErrEmptyMessage is returned for a message with no text.
var ErrEmptyMessage = errors.New("the message is empty")

// Input is what the user sent.
type Input struct {
	SessionID string // empty starts a new session
	Text      string
	Models    []string // optional override of the configured models
}

// Result is a finished turn.
type Result struct {
	Session   session.Session
	User      session.Message
	Assistant session.Message
	Plan      Plan
	// Context is what the model saw.
	Context prompt.Context
}

// Turn runs one turn. The user's message is stored before anything else, so nothing
// typed is lost; the reply is stored whatever happens — complete, or partial and
// marked cancelled or failed. On failure both the Result (with what was stored) and
// the error are returned; a cancellation returns the Result and a nil error.
func (a *Agent) Turn(ctx context.Context, in Input, onDelta func(text string) error) (Result, error) {
	var res Result
	if strings.TrimSpace(in.Text) == "" {
		return res, ErrEmptyMessage
	}
	if err := session.ValidateText(in.Text); err != nil {
		return res, err
	}
	// 1. persist the user's message first.
	sess, err := a.session(ctx, in.SessionID)
	if err != nil {
		return res, err
	}
	label, conf := a.classify(ctx, in.Text)
	res.Plan = PlanFor(label, conf)
	user, err := a.Sessions.Append(ctx, session.Message{SessionID: sess.ID, Role: "user", Content: in.Text, Intent: label, IntentConfidence: conf})
	if err != nil {
		return res, fmt.Errorf("turn: %w", err)
	}
	res.User = user

	// 2. build the prompt: what fits the model's context window, and why.
	history, err := a.Sessions.Messages(ctx, sess.ID)
	if err != nil {
		return res, fmt.Errorf("turn: %w", err)
	}
	if n := len(history); n > 0 && history[n-1].ID == user.ID {
		history = history[:n-1]
	}
	req := llm.ChatRequest{Models: in.Models}
	if a.Prompt != nil {
		budget, numCtx, model, recent := 6144, 0, "", 0
		if a.Budget != nil {
			budget, numCtx, model, recent = a.Budget(ctx, in.Models)
		}
		pin := prompt.Input{System: a.systemPrompt(), Query: in.Text, History: history, Channel: "main",
			Summary: sess.Summary, SummaryUpto: sess.SummaryUpto, Budget: budget, RecentTurns: recent}
		if a.Calibration != nil && model != "" {
			pin.Ratio = a.Calibration.Ratio(ctx, model)
		}
		res.Context = a.Prompt.Build(ctx, pin)
		req.Messages = res.Context.Messages()
		if numCtx > 0 {
			req.Options = map[string]any{"num_ctx": numCtx}
		}
	} else {
		req.Messages = []llm.Message{{Role: "system", Content: a.systemPrompt()}}
		for _, m := range append(history, user) {
			if (m.Role == "user" || m.Role == "assistant") && m.Content != "" {
				req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: m.Content})
			}
		}
	}

	// 3. stream the reply.
	reply, chatErr := a.LLM.Chat(ctx, req, func(d llm.Delta) error {
		if onDelta == nil {
			return nil
		}
		return onDelta(d.Content)
	})

	// 4. persist the reply, even when the caller has gone away.
	out := session.Message{SessionID: sess.ID, Role: "assistant", Content: reply.Content, Model: reply.Model, Status: session.StatusOK}
	switch {
	case chatErr != nil && ctx.Err() != nil:
		out.Status = session.StatusCancelled
	case chatErr != nil:
		out.Status, out.Error = session.StatusFailed, chatErr.Error()
	}
	stored, err := a.Sessions.Append(context.WithoutCancel(ctx), out)
	if err != nil {
		return res, fmt.Errorf("turn: store reply: %w", errors.Join(err, chatErr))
	}
	res.Assistant = stored
	if res.Session, err = a.Sessions.Get(context.WithoutCancel(ctx), sess.ID); err != nil {
		res.Session = sess
	}
	if out.Status == session.StatusFailed {
		return res, fmt.Errorf("turn: %w", chatErr)
	}
	if a.Calibration != nil && reply.PromptTokens > 0 && res.Context.Estimated > 0 {
		_ = a.Calibration.Observe(context.WithoutCancel(ctx), reply.Model, res.Context.Estimated, reply.PromptTokens)
	}
	if a.AfterTurn != nil {
		a.AfterTurn(sess.ID)
	}
	return res, nil
}

func (a *Agent) session(ctx context.Context, id string) (session.Session, error) {
	if id == "" {
		s, err := a.Sessions.Create(ctx, "")
		if err != nil {
			return s, fmt.Errorf("turn: %w", err)
		}
		return s, nil
	}
	s, err := a.Sessions.Get(ctx, id)
	if err != nil {
		return s, fmt.Errorf("turn: %w", err)
	}
	return s, nil
}

func (a *Agent) classify(ctx context.Context, text string) (string, float32) {
	if a.Classifier == nil {
		return UnknownIntent, 0
	}
	label, conf, err := a.Classifier.Classify(ctx, text)
	if err != nil {
		return UnknownIntent, 0
	}
	return label, conf
}

func (a *Agent) systemPrompt() string {
	if a.System != "" {
		return a.System
	}
	return DefaultSystemPrompt
}
