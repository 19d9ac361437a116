package agent

import (
	"context"
	"fmt"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

// Documents are the files attached to user messages (the message names them
// with session.DocumentRef lines; the text stays in the store).
type Documents interface {
	// LinkDocuments stores pending documents with the message that names them.
	LinkDocuments(ctx context.Context, messageID string, ids []string) error
	// Documents returns the documents of ids in order, leaving out unknown ones.
	Documents(ctx context.Context, ids []string) ([]session.Document, error)
}

// documents are what the prompt builder gets: the documents the new message
// names (stored with it first, once it has committed), then those of earlier
// messages still shown, newest first.
func (a *Agent) documents(ctx context.Context, in Input, userID string, history []session.Message, userStored func() error) ([]prompt.Document, error) {
	if a.Documents == nil {
		return nil, nil
	}
	var ids []string
	seen := map[string]bool{}
	add := func(content string) []string {
		var added []string
		for _, r := range session.DocumentRefs(content) {
			if !seen[r.ID] {
				seen[r.ID] = true
				ids = append(ids, r.ID)
				added = append(added, r.ID)
			}
		}
		return added
	}
	if own := add(in.Text); len(own) > 0 && !in.Continue {
		if err := userStored(); err != nil {
			return nil, err
		}
		if err := a.Documents.LinkDocuments(context.WithoutCancel(ctx), userID, own); err != nil {
			return nil, fmt.Errorf("turn: %w", err)
		}
	}
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == "user" && history[i].Channel != "" && history[i].Channel != session.MainChannel {
			continue
		}
		if history[i].Role == "user" {
			add(history[i].Content)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	docs, err := a.Documents.Documents(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("turn: %w", err)
	}
	out := make([]prompt.Document, 0, len(docs))
	for _, d := range docs {
		out = append(out, prompt.Document{ID: d.ID, Name: d.Name, Text: d.Text})
	}
	return out, nil
}
