package app

import (
	"context"
	"fmt"

	"hermes/backend/agent"
	"hermes/backend/procid"
	"hermes/backend/session"
)

// Incognito chats are kept only while the Hermes that started them runs: the
// session is written (so a reply survives an error and the window can show
// it) but marked with its owner, found by no search, and erased with a
// receipt, as a deleted conversation is, when its process closes, or by the
// next Hermes to open the data dir once that process is gone (docs/architecture.md,
// "Persistence").

// newSession starts an empty conversation: an incognito one while incognito is on.
func (c *Core) newSession(ctx context.Context, incognito bool) (session.Session, error) {
	if incognito {
		return c.sessions.CreateIncognito(ctx, c.self.String())
	}
	return c.sessions.Create(ctx, "")
}

// incognitoSession starts the incognito session an incognito turn without a
// session runs in.
func (c *Core) incognitoSession(ctx context.Context, in agent.Input) (agent.Input, error) {
	if !in.Incognito || in.SessionID != "" || in.Continue {
		return in, nil
	}
	s, err := c.sessions.CreateIncognito(ctx, c.self.String())
	if err != nil {
		return in, err
	}
	in.SessionID = s.ID
	return in, nil
}

// eraseIncognito erases the incognito sessions whose process is gone, or (mine)
// this process's own; it returns their receipts.
func (c *Core) eraseIncognito(ctx context.Context, mine bool) ([]DeleteReceipt, error) {
	owners, err := c.sessions.IncognitoOwners(ctx)
	if err != nil {
		return nil, err
	}
	var out []DeleteReceipt
	for id, owner := range owners {
		p, ok := procid.Parse(owner)
		if mine != (ok && p == c.self) || (!mine && ok && p.Alive()) {
			continue
		}
		r, err := c.DeleteSession(ctx, id)
		if err != nil {
			return out, fmt.Errorf("erase incognito chat %s: %w", id, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ErasedIncognito are the receipts of the incognito chats this open erased
// (their Hermes had closed without erasing them).
func (c *Core) ErasedIncognito() []DeleteReceipt {
	return append([]DeleteReceipt(nil), c.erasedIncognito...)
}

// SetIncognito switches chat to incognito (on) or back: turns neither read nor write memory.
func (a *ChatService) SetIncognito(on bool) (bool, error) {
	a.mu.Lock()
	a.incognito = on
	v := a.incognito
	a.mu.Unlock()
	return v, nil
}

// Incognito reports whether chat is incognito.
func (a *ChatService) Incognito() (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.incognito, nil
}
