package agent

import (
	"context"
	"fmt"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

// WindowSource is what building a channel's window reads of the conversation.
type WindowSource interface {
	Get(ctx context.Context, id string) (session.Session, error)
	History(ctx context.Context, s session.Session) ([]session.Message, error)
	// ChannelSummary is a channel's rolling summary (the main channel's is the
	// session's own).
	ChannelSummary(ctx context.Context, sessionID, channel string) (summary string, upto int, err error)
	Documents(ctx context.Context, ids []string) ([]session.Document, error)
}

// WindowSpec names a channel's window: whose, with which system prompt, within
// which budget, and the query it would answer ("" for none).
type WindowSpec struct {
	SessionID, Channel, System, Query string
	Budget, RecentTurns               int
}

// NextWindow is the window a channel's next turn would start from, built by the
// same prompt builder the turns use: the channel's history and rolling summary,
// and in the main channel the documents of the shown messages, as a turn gathers them.
func NextWindow(ctx context.Context, src WindowSource, b PromptBuilder, w WindowSpec) (prompt.Context, error) {
	if w.Channel == "" {
		w.Channel = session.MainChannel
	}
	s, err := src.Get(ctx, w.SessionID)
	if err != nil {
		return prompt.Context{}, fmt.Errorf("build context: %w", err)
	}
	hist, err := src.History(ctx, s)
	if err != nil {
		return prompt.Context{}, fmt.Errorf("build context: %w", err)
	}
	summary, upto, err := src.ChannelSummary(ctx, s.ID, w.Channel)
	if err != nil {
		return prompt.Context{}, fmt.Errorf("build context: %w", err)
	}
	var docs []prompt.Document
	if w.Channel == session.MainChannel {
		if docs, err = PromptDocuments(ctx, src, w.Query, hist); err != nil {
			return prompt.Context{}, fmt.Errorf("build context: %w", err)
		}
	}
	return b.Build(ctx, prompt.Input{System: w.System, Query: w.Query, History: hist, Channel: w.Channel,
		Summary: summary, SummaryUpto: upto, Budget: w.Budget, RecentTurns: w.RecentTurns, Documents: docs}), nil
}
