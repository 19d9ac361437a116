package app

import (
	"context"
	"errors"
	"fmt"
	"io"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

// Session-level types as the command line prints them (plain data with JSON tags).
type (
	// SessionHit is one search result, with the message's number in its conversation.
	SessionHit = session.Hit
	// SnippetFragment is a piece of a search snippet, marked when it matched.
	SnippetFragment = session.Fragment
	// DeleteReceipt says what deleting a conversation erased.
	DeleteReceipt = session.DeleteReceipt
	// SessionImportResult counts what a JSONL import did.
	SessionImportResult = session.ImportResult
	// PromptContext is a context built for the model: its items and token counts.
	PromptContext = prompt.Context
	// PromptItem is one item of a PromptContext.
	PromptItem = prompt.Item
)

// DeleteSession deletes a conversation for good with what was derived from it:
// the memories made from it, the intent corrections of its messages
// (forgetCorrections), then its messages, their search-index entries and the
// WAL (the receipt).
func (c *Core) DeleteSession(ctx context.Context, id string) (DeleteReceipt, error) {
	s, err := c.sessions.Get(ctx, id)
	if err != nil {
		return DeleteReceipt{}, err
	}
	if m, err := c.memoryStore(); err == nil {
		if _, err := m.ForgetSession(ctx, s.ID); err != nil {
			return DeleteReceipt{}, memErr(err)
		}
	}
	if _, err := c.forgetCorrections(ctx, s.ID); err != nil {
		return DeleteReceipt{}, fmt.Errorf("delete session %s: %w", s.ID, err)
	}
	return c.sessions.Delete(ctx, s.ID)
}

// ListSessions returns the conversations, pinned first, then the most
// recently active.
func (c *Core) ListSessions(ctx context.Context) ([]SessionInfo, error) {
	list, err := c.sessions.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, 0, len(list))
	for _, s := range list {
		out = append(out, toSessionInfo(s))
	}
	return out, nil
}

// LoadSession returns a conversation (by id or ref) with its messages, the
// replies the data dir could not take yet included.
func (c *Core) LoadSession(ctx context.Context, id string) (SessionDetail, error) {
	s, err := c.sessions.Get(ctx, id)
	if err != nil {
		return SessionDetail{}, err
	}
	msgs, err := c.sessions.Messages(ctx, s.ID)
	if err != nil {
		return SessionDetail{}, err
	}
	return SessionDetail{Session: toSessionInfo(s.Entry()), Messages: c.withUnsaved(s.ID, toMessages(msgs))}, nil
}

// Session returns a conversation by id or ref.
func (c *Core) Session(ctx context.Context, id string) (SessionInfo, error) {
	s, err := c.sessions.Get(ctx, id)
	if err != nil {
		return SessionInfo{}, err
	}
	return toSessionInfo(s.Entry()), nil
}

// SearchSessions finds messages across every conversation, archived ones
// included, best first; a query with no words is bad input.
func (c *Core) SearchSessions(ctx context.Context, query string, limit int) ([]SessionHit, error) {
	return c.sessions.Search(ctx, query, limit)
}

// SnippetText is a search snippet as plain text.
func SnippetText(frags []SnippetFragment) string { return session.SnippetText(frags) }

// ImportSessions reads a JSONL import (validating every line first: a bad file is
// ErrInvalid and nothing is written) and stores it, reporting progress. A file
// is read twice, a line at a time (session.CheckImport), never held whole.
func (c *Core) ImportSessions(ctx context.Context, r io.Reader, progress func(done, total int)) (SessionImportResult, error) {
	checked, err := session.CheckImport(r)
	if err != nil {
		return SessionImportResult{}, invalid(err)
	}
	res, err := c.sessions.ImportFrom(ctx, checked, progress)
	if errors.Is(err, session.ErrInvalid) { // the file changed between its two readings
		return SessionImportResult{}, invalid(err)
	}
	return res, err
}

// NewSession starts an empty conversation (an incognito one when incognito),
// as the window's New chat does.
func (c *Core) NewSession(ctx context.Context, incognito bool) (SessionInfo, error) {
	s, err := c.newSession(ctx, incognito)
	if err != nil {
		return SessionInfo{}, err
	}
	return toSessionInfo(s.Entry()), nil
}

// RenameSession sets a conversation's title.
func (c *Core) RenameSession(ctx context.Context, id, title string) error {
	return c.sessions.Rename(ctx, id, title)
}

// PinSession pins or unpins a conversation.
func (c *Core) PinSession(ctx context.Context, id string, pinned bool) error {
	return c.sessions.Pin(ctx, id, pinned)
}

// ArchiveSession archives a conversation; it stays searchable.
func (c *Core) ArchiveSession(ctx context.Context, id string) error {
	return c.sessions.Archive(ctx, id)
}
