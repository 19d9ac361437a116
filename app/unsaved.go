package app

import (
	"context"
	"errors"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/session"
)

// A reply that streamed but could not be stored (the disk filled, the data
// dir went read-only) is not lost: the process keeps it, the conversation
// shows it marked as not saved (with Copy), and it is stored as soon as a
// write succeeds again: before the next turn of its conversation, and at
// every maintenance tick.

// unsavedReplies are the replies this process holds until they can be stored.
type unsavedReplies struct {
	mu   sync.Mutex
	msgs []session.Message // in the order they were made
}

func (u *unsavedReplies) keep(m session.Message) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.msgs = append(u.msgs, m)
}

// of are the replies kept for one conversation ("" for all).
func (u *unsavedReplies) of(sessionID string) []session.Message {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []session.Message
	for _, m := range u.msgs {
		if sessionID == "" || m.SessionID == sessionID {
			out = append(out, m)
		}
	}
	return out
}

func (u *unsavedReplies) drop(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i, m := range u.msgs {
		if m.ID == id {
			u.msgs = append(u.msgs[:i], u.msgs[i+1:]...)
			return
		}
	}
}

// keepUnsaved holds the reply of a turn that could not store it.
func (c *Core) keepUnsaved(err error) {
	var ue *agent.UnsavedReplyError
	if errors.As(err, &ue) {
		c.unsaved.keep(ue.Reply)
	}
}

// saveUnsaved stores the replies kept for a conversation ("" for all), oldest
// first; the first that still cannot be stored stops it (the data dir's error).
func (c *Core) saveUnsaved(ctx context.Context, sessionID string) error {
	for _, m := range c.unsaved.of(sessionID) {
		if _, err := c.sessions.Append(context.WithoutCancel(ctx), m); err != nil && !errors.Is(err, session.ErrNotFound) {
			return c.db.Explain(err)
		}
		c.unsaved.drop(m.ID) // stored, or its conversation was deleted meanwhile
	}
	return nil
}

// readyToWrite is the check before a turn: the data dir is still the one
// opened, and what an earlier turn could not store is stored first.
func (c *Core) readyToWrite(ctx context.Context, sessionID string) error {
	if err := c.db.CheckFile(); err != nil {
		return err
	}
	return c.saveUnsaved(ctx, sessionID)
}

// withUnsaved adds to a conversation's messages the replies kept unsaved for it.
func (c *Core) withUnsaved(sessionID string, msgs []Message) []Message {
	for _, m := range c.unsaved.of(sessionID) {
		um := toMessage(m)
		um.Status = MessageUnsaved
		msgs = append(msgs, um)
	}
	return msgs
}
