package app

import (
	"context"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/session"
)

// MaxMessageBytes is the longest message a user may send.
const MaxMessageBytes = session.MaxMessageBytes

// Message statuses (Message.Status).
const (
	MessageOK        = session.StatusOK
	MessageCancelled = session.StatusCancelled
	// MessageUnsaved is a reply this process holds because it could not be
	// stored yet (the disk is full): shown, stored when a write succeeds again.
	MessageUnsaved = "unsaved"
)

// ChatInput is one message for Chat; the conversation's own settings (model,
// system prompt, temperature, context size) apply to it.
type ChatInput struct {
	SessionID string // the conversation to continue; "" starts one
	Text      string
	Think     string // this turn's Think choice (session.ChatSettings.Think); "" keeps the chat's
}

// Chat runs one turn for the command line, streaming the reply's text to fn. The
// result holds what was stored even when err is set (a stopped reply keeps its
// partial text); err is already a user's message (IsBadInput tells refused input).
func (c *Core) Chat(ctx context.Context, in ChatInput, fn func(Delta) error) (TurnResult, error) {
	res, err := c.turn(ctx, agent.Input{SessionID: in.SessionID, Text: in.Text, Think: in.Think}, func(d llm.Delta) error {
		return fn(Delta{Text: d.Content, Thinking: d.Thinking})
	})
	return ToTurnResult(res), err
}

// turn is the one turn driver of every door (the window's and web mode's
// App.run, the command line's Chat): the conversation's own settings applied,
// the agent's turn, its error in the user's words (UserError, with its code).
func (c *Core) turn(ctx context.Context, in agent.Input, fn func(llm.Delta) error) (agent.Result, error) {
	explain := func(err error) error {
		s, _ := c.settings.Load(context.WithoutCancel(ctx))
		if len(in.Models) > 0 {
			s.ChatModel = in.Models[0]
		}
		return userError(err, s.OllamaHost, s.ChatModel)
	}
	in, err := c.withChatSettings(ctx, in)
	if err != nil {
		return agent.Result{}, explain(err)
	}
	if in, err = c.incognitoSession(ctx, in); err != nil {
		return agent.Result{}, explain(err)
	}
	if err := c.readyToWrite(ctx, in.SessionID); err != nil {
		return agent.Result{}, explain(err)
	}
	if in, err = c.checkVision(ctx, in); err != nil {
		return agent.Result{}, explain(err)
	}
	res, err := c.agent.Turn(ctx, in, fn)
	if err != nil {
		c.keepUnsaved(err)
		return res, explain(c.db.Explain(err))
	}
	return res, nil
}

// Setting returns one setting's effective value.
func (c *Core) Setting(ctx context.Context, key string) (string, error) {
	return c.settings.Get(ctx, key)
}
