package agent

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

// ReplayStore is what showing a stored reply's context reads of the conversations.
type ReplayStore interface {
	Get(ctx context.Context, id string) (session.Session, error)
	// TurnContext is the recipe stored with a reply (replyID, or "" for the
	// session's newest) and that reply's id.
	TurnContext(ctx context.Context, sessionID, replyID string) (recipe, messageID string, err error)
	History(ctx context.Context, s session.Session) ([]session.Message, error)
	Documents(ctx context.Context, ids []string) ([]session.Document, error)
}

// RecallLog gives back what a turn was offered of long-term memory: by rank, the
// line offered, worded from each memory as it is now (a memory forgotten since is
// missing).
type RecallLog interface {
	Offered(ctx context.Context, queryID string, at time.Time) (map[int]string, error)
}

// Seen is what the model saw when it wrote a stored reply: the stored recipe, and
// each item's text looked up where it lives now.
type Seen struct {
	ReplyID string
	Recipe  *ContextRecipe
	// Settings are the chat settings the turn ran with (System empty: the chat
	// had none of its own).
	Settings TurnSettings
	Items    []SeenItem
	// Figures are the reply's (Ollama's count of the prompt among them); nil
	// when the reply has none.
	Figures *Figures
}

// SeenItem is one item of the prompt with its text as it can be shown now.
type SeenItem struct {
	RecipeItem
	Text string
	// Image is the id of the image the item carried ("" for text).
	Image string
}

// Replay rebuilds what the model saw for stored replies. Recalls may be nil (no
// long-term memory): recalled memories then show as forgotten.
type Replay struct {
	Sessions ReplayStore
	Recalls  RecallLog
	// System is the system prompt in force when a turn kept none of its own.
	System func() string
}

// Seen rebuilds the context of a reply (replyID, or "" for the session's newest)
// from the recipe stored with it: messages from the session, the system prompt,
// the summary (if it has not moved on since), recalled memories from the recall
// log, documents from the store. ok is false when no such reply kept a recipe.
func (r Replay) Seen(ctx context.Context, sessionID, replyID string) (seen Seen, ok bool, err error) {
	s, err := r.Sessions.Get(ctx, sessionID)
	if err != nil {
		return seen, false, fmt.Errorf("show context: %w", err)
	}
	stored, replyID, err := r.Sessions.TurnContext(ctx, s.ID, replyID)
	if err != nil {
		return seen, false, fmt.Errorf("show context: %w", err)
	}
	rec := ParseContextRecipe(stored)
	if rec == nil {
		return seen, false, nil
	}
	msgs, err := r.Sessions.History(ctx, s)
	if err != nil {
		return seen, false, fmt.Errorf("show context: %w", err)
	}
	byID := make(map[string]session.Message, len(msgs))
	for _, m := range msgs {
		byID[m.ID] = m
	}
	memories := map[int]string{}
	if r.Recalls != nil && rec.QueryID != "" && rec.has(prompt.ReasonMemory) {
		if offered, err := r.Recalls.Offered(ctx, rec.QueryID, rec.RecalledAt); err == nil {
			memories = offered
		}
	}
	seen = Seen{ReplyID: replyID, Recipe: rec}
	if m, ok := byID[replyID]; ok {
		seen.Figures = ParseReplyDetails(m.Details).Figures
	}
	if rec.Settings != nil { // nil: a reply stored before chat settings
		seen.Settings = *rec.Settings
	}
	system := seen.Settings.System
	if system == "" {
		system = r.System()
	}
	for _, it := range rec.Items {
		text, image := "", ""
		switch prompt.Reason(it.Reason) {
		case prompt.ReasonSystem:
			text = prompt.SystemText(system, rec.fenced())
		case prompt.ReasonQuery:
			text = byID[rec.QueryID].Content
		case prompt.ReasonSummary:
			text = "(the summary has moved on since)"
			if s.SummaryUpto == rec.SummaryUpto {
				text = prompt.SummaryItem(s.Summary)
			}
		case prompt.ReasonMemory:
			text = "(a memory forgotten since)"
			if m, ok := memories[it.MemoryRank]; ok {
				text = prompt.MemoryItem(m)
			}
		case prompt.ReasonTool:
			text = "tool " + it.Tool
		case prompt.ReasonDocument:
			text = "(a document deleted since)"
			if ds, _ := r.Sessions.Documents(ctx, []string{it.Document}); len(ds) == 1 && ds[0].IsImage() {
				text, image = prompt.ImageItem(ds[0].Name, ds[0].Width, ds[0].Height), ds[0].ID
			} else if len(ds) == 1 {
				text = prompt.DocumentItem(ds[0].Name, 1, 1, ds[0].Text)
				if it.Part > 0 {
					text = prompt.Fence(prompt.KindDocument, ds[0].Name, "(one of the parts most relevant to the question)", "part", strconv.Itoa(it.Part))
				}
			}
		default:
			if it.MessageID != "" {
				text = "(a message deleted since)"
				if m, ok := byID[it.MessageID]; ok {
					text = m.Content
					if m.Role == "tool" {
						text = prompt.ToolResult(m.ToolName, m.Content)
					}
				}
			}
		}
		seen.Items = append(seen.Items, SeenItem{RecipeItem: it, Text: text, Image: image})
	}
	return seen, true, nil
}

// fenced is whether the recipe's context held fenced data (its system prompt
// then carried the fence rule).
func (r *ContextRecipe) fenced() bool {
	for _, it := range r.Items {
		if prompt.Fenced(prompt.Reason(it.Reason), it.Role) {
			return true
		}
	}
	return false
}

// has is whether the recipe holds an item for reason.
func (r *ContextRecipe) has(reason prompt.Reason) bool {
	for _, it := range r.Items {
		if it.Reason == string(reason) {
			return true
		}
	}
	return false
}
