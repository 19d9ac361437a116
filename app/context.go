package app

import (
	"context"
	"time"

	"hermes/backend/prompt"
)

// ReplyContext is what the model saw when it wrote a stored reply of a session.
func (a *ChatService) ReplyContext(sessionID, replyID string) (ContextReport, error) {
	ctx := context.Background()
	if replyID == "" {
		return ContextReport{}, &UserError{Message: "Choose a reply to see what the model saw for it."}
	}
	r, ok, err := a.core.storedContext(ctx, sessionID, replyID)
	if err != nil {
		return ContextReport{}, a.core.userErr(ctx, err)
	}
	if !ok {
		return ContextReport{SessionID: sessionID, MessageID: replyID, Items: []ContextItem{}}, nil
	}
	return r, nil
}

// MessageContext is ReplyContext for a reply known by its id (or ref) alone.
func (a *ChatService) MessageContext(replyID string) (ContextReport, error) {
	ctx := context.Background()
	sid, err := a.core.sessions.SessionOf(ctx, replyID)
	if err != nil {
		return ContextReport{}, a.core.userErr(ctx, err)
	}
	return a.ReplyContext(sid, replyID)
}

// storedContext is the context report of a reply (replyID, or with "" the
// session's newest) as the agent rebuilds it from the recipe stored with it. ok
// is false when no such reply kept a recipe.
func (c *Core) storedContext(ctx context.Context, sessionID, replyID string) (rep ContextReport, ok bool, err error) {
	seen, ok, err := c.replay.Seen(ctx, sessionID, replyID)
	if err != nil || !ok {
		return rep, ok, err
	}
	r, p := seen.Recipe, seen.Recipe.Plan
	rep = ContextReport{SessionID: sessionID, MessageID: seen.ReplyID, QueryID: r.QueryID, Tokens: r.Tokens, Budget: r.Budget, Dropped: r.Dropped, Items: []ContextItem{}, Intent: p.Intent,
		Plan: PlanInfo{Intent: p.Intent, Confidence: p.Confidence, Recall: p.Recall, RecallK: p.RecallK, MayWriteMemory: p.MayWriteMemory, ToolGroup: p.ToolGroup}}
	rep.Settings = toTurnSettings(&seen.Settings, c.agent.SystemPrompt())
	rep.countedBy(seen.Figures)
	for _, it := range seen.Items {
		rep.Items = append(rep.Items, ContextItem{Reason: prompt.Reason(it.Reason), Role: it.Role, Preview: preview(it.Text), Tokens: it.Tokens,
			MessageID: it.MessageID, Shortened: it.Shortened, ImageID: it.Image})
	}
	return rep, true, nil
}

// recallLog is the agent's view of the recall log (memory opens lazily).
type recallLog struct{ c *Core }

func (l recallLog) Offered(ctx context.Context, queryID string, at time.Time) (map[int]string, error) {
	m, err := l.c.memoryStore()
	if err != nil {
		return nil, err
	}
	return m.Offered(ctx, queryID, at)
}

// preview is the start of an item's text, as the inspector lists it.
func preview(s string) string {
	p := []rune(s)
	if len(p) > 160 {
		p = append(p[:160], '…')
	}
	return string(p)
}
