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

// documents are what the prompt builder gets (PromptDocuments); the documents
// the new message names are stored with it first, once it has committed.
func (a *Agent) documents(ctx context.Context, in Input, userID string, history []session.Message, userStored func() error) ([]prompt.Document, error) {
	if a.Documents == nil {
		return nil, nil
	}
	if own := session.DocumentIDs(in.Text); len(own) > 0 && !in.Continue {
		if err := userStored(); err != nil {
			return nil, err
		}
		if err := a.Documents.LinkDocuments(context.WithoutCancel(ctx), userID, own); err != nil {
			return nil, fmt.Errorf("turn: %w", err)
		}
	}
	docs, err := PromptDocuments(ctx, a.Documents, in.Text, history)
	if err != nil {
		return nil, fmt.Errorf("turn: %w", err)
	}
	return docs, nil
}

// PromptDocuments are the documents a prompt for query carries (an image with
// its bytes and size): those query names, then those of the user messages of
// shown (the conversation as
// History gives it: the chosen branch only), newest first. A document of a
// version that is not shown is not among them. The turn and `session context`
// both take theirs from here.
func PromptDocuments(ctx context.Context, store interface {
	Documents(ctx context.Context, ids []string) ([]session.Document, error)
}, query string, shown []session.Message) ([]prompt.Document, error) {
	ids := session.ShownDocumentIDs(query, shown)
	if len(ids) == 0 {
		return nil, nil
	}
	docs, err := store.Documents(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]prompt.Document, 0, len(docs))
	for _, d := range docs {
		pd := prompt.Document{ID: d.ID, Name: d.Name, Text: d.Text}
		if d.IsImage() {
			pd.Image, pd.Width, pd.Height, pd.ImageTokens = d.Data, d.Width, d.Height, d.Tokens
		}
		out = append(out, pd)
	}
	return out, nil
}
