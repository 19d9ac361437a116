package app

import (
	"context"
	"errors"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

// ContextMeter is what the composer's meter shows before a message is sent:
// the prompt budget of the chat's model and context size, and how much of it
// the next turn takes before the message (system prompt, summary and the
// history that fits, as the prompt builder would choose them now, calibrated).
type ContextMeter struct {
	Budget int `json:"budget"`
	Used   int `json:"used"`
	// ContextSize is the context asked of Ollama (num_ctx), Model the chat's model.
	ContextSize int    `json:"contextSize"`
	Model       string `json:"model"`
	// MaxMessageBytes is the longest message that can be sent: longer text is
	// attached as a document instead.
	MaxMessageBytes int `json:"maxMessageBytes"`
}

// ContextMeter measures a conversation's next turn without its message (a new
// chat, sessionID "", takes only the system prompt).
func (c *Core) ContextMeter(ctx context.Context, sessionID string) (ContextMeter, error) {
	w := c.chatWindow(ctx, sessionID)
	budget, numCtx, model, _ := c.budget(ctx, w.models, w.numCtx)
	m := ContextMeter{Budget: budget, ContextSize: numCtx, Model: model, MaxMessageBytes: MaxMessageBytes}
	pc, err := c.BuildContext(ctx, sessionID, "", budget)
	if sessionID == "" || errors.Is(err, session.ErrNotFound) { // a new chat: its system prompt
		est := prompt.Estimate(w.system) + prompt.MessageOverhead
		m.Used = int(float64(est)*c.calib.Ratio(ctx, model) + 0.5)
		return m, nil
	}
	if err != nil {
		return m, err
	}
	m.Used = pc.Tokens
	return m, nil
}

// ContextMeter is the composer's meter for a conversation ("" for a new chat).
func (a *ChatService) ContextMeter(sessionID string) (ContextMeter, error) {
	ctx := context.Background()
	m, err := a.core.ContextMeter(ctx, sessionID)
	return m, a.core.userErr(ctx, err)
}
