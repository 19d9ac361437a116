package app

import (
	"context"
	"fmt"

	"hermes/backend/agent"
	"hermes/backend/memory"
	"hermes/backend/prompt"
	"hermes/backend/session"
)

// ReplyContext is what the model saw when it wrote a stored reply of a session.
func (a *App) ReplyContext(sessionID, replyID string) (ContextReport, error) {
	ctx := context.Background()
	if replyID == "" {
		return ContextReport{}, &UserError{Message: "Choose a reply to see what the model saw for it."}
	}
	r, ok, err := a.storedContext(ctx, sessionID, replyID)
	if err != nil {
		return ContextReport{}, a.mapErr(ctx, err)
	}
	if !ok {
		return ContextReport{SessionID: sessionID, MessageID: replyID, Items: []ContextItem{}}, nil
	}
	return r, nil
}

// MessageContext is ReplyContext for a reply known by its id (or ref) alone.
func (a *App) MessageContext(replyID string) (ContextReport, error) {
	ctx := context.Background()
	sid, err := a.core.sessions.SessionOf(ctx, replyID)
	if err != nil {
		return ContextReport{}, a.mapErr(ctx, err)
	}
	return a.ReplyContext(sid, replyID)
}

// storedContext rebuilds the context report of a reply (replyID, or with "" the
// session's newest) from the recipe stored with it, looking each item's text up
// where it lives now: messages in the session, the system prompt, the current
// summary, recalled memories in the memory log (a memory forgotten since shows as
// such). ok is false when no such reply kept a recipe.
func (a *App) storedContext(ctx context.Context, sessionID, replyID string) (rep ContextReport, ok bool, err error) {
	s, err := a.core.sessions.Get(ctx, sessionID)
	if err != nil {
		return rep, false, err
	}
	stored, replyID, err := a.core.sessions.TurnContext(ctx, s.ID, replyID)
	if err != nil {
		return rep, false, err
	}
	r := agent.ParseContextRecipe(stored)
	if r == nil {
		return rep, false, nil
	}
	msgs, err := a.core.sessions.History(ctx, s)
	if err != nil {
		return rep, false, err
	}
	byID := make(map[string]session.Message, len(msgs))
	for _, m := range msgs {
		byID[m.ID] = m
	}
	memories := map[int]string{} // rank -> text
	if r.QueryID != "" && hasReason(r, prompt.ReasonMemory) {
		if m, err := a.core.memoryStore(); err == nil {
			if entries, err := m.WhyRecalled(ctx, r.QueryID); err == nil {
				for _, e := range memory.RecallBatch(entries, r.RecalledAt) {
					memories[e.Rank] = m.PromptLine(e.Memory) // as offered, from the memory as it is now
				}
			}
		}
	}
	p := r.Plan
	rep = ContextReport{SessionID: sessionID, MessageID: replyID, QueryID: r.QueryID, Tokens: r.Tokens, Budget: r.Budget, Dropped: r.Dropped, Items: []ContextItem{}, Intent: p.Intent,
		Plan: PlanInfo{Intent: p.Intent, Confidence: p.Confidence, Recall: p.Recall, RecallK: p.RecallK, MayWriteMemory: p.MayWriteMemory, ToolGroup: p.ToolGroup}}
	rep.Settings = toTurnSettings(r.Settings, a.core.agent.SystemPrompt())
	if rep.Settings == nil { // a reply stored before chat settings
		rep.Settings = &TurnSettings{System: a.core.agent.SystemPrompt()}
	}
	for _, it := range r.Items {
		text := ""
		switch {
		case it.Reason == string(prompt.ReasonSystem):
			text = rep.Settings.System
		case it.Reason == string(prompt.ReasonQuery):
			text = byID[r.QueryID].Content
		case it.Reason == string(prompt.ReasonSummary):
			if s.SummaryUpto == r.SummaryUpto {
				text = s.Summary
			} else {
				text = "(the summary has moved on since)"
			}
		case it.Reason == string(prompt.ReasonMemory):
			if m, ok := memories[it.MemoryRank]; ok {
				text = prompt.MemoryItem(m)
			} else {
				text = "(a memory forgotten since)"
			}
		case it.Reason == string(prompt.ReasonTool):
			text = fmt.Sprintf("tool %s", it.Tool)
		case it.Reason == string(prompt.ReasonDocument):
			text = "(a document deleted since)"
			if ds, _ := a.core.sessions.Documents(ctx, []string{it.Document}); len(ds) == 1 {
				text = prompt.DocumentHeader(ds[0].Name, max(it.Part, 1), max(it.Part, 1)) + ds[0].Text
				if it.Part > 0 {
					text = fmt.Sprintf("Attached document %q, part %d", ds[0].Name, it.Part)
				}
			}
		case it.MessageID != "":
			if m, ok := byID[it.MessageID]; ok {
				text = m.Content
			} else {
				text = "(a message deleted since)"
			}
		}
		rep.Items = append(rep.Items, ContextItem{Reason: it.Reason, Role: it.Role, Preview: preview(text), Tokens: it.Tokens,
			MessageID: it.MessageID, Shortened: it.Shortened})
	}
	return rep, true, nil
}

func hasReason(r *agent.ContextRecipe, reason prompt.Reason) bool {
	for _, it := range r.Items {
		if it.Reason == string(reason) {
			return true
		}
	}
	return false
}

// preview is the start of an item's text, as the inspector lists it.
func preview(s string) string {
	p := []rune(s)
	if len(p) > 160 {
		p = append(p[:160], '…')
	}
	return string(p)
}
