package memory

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// UndoWindow is how long after a turn wrote a memory its Undo is offered: later
// the user has likely built on it, and taking it back would surprise.
const UndoWindow = 10 * time.Minute

// Why an undo can no longer work (UndoState.Code; the UI words each).
const (
	UndoErased     = "erased"     // a memory it wrote was erased since
	UndoSuperseded = "superseded" // a memory it wrote was replaced by a newer one
	UndoChanged    = "changed"    // a memory it wrote was archived or moved since
	UndoProfile    = "profile"    // it wrote into a profile that is no longer the active one
	UndoExpired    = "expired"    // the undo window passed
)

// UndoState says whether Undo of what a turn wrote can still work, until when,
// and if not, why.
type UndoState struct {
	OK     bool      `json:"ok"`
	Code   string    `json:"code,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Until  time.Time `json:"until"`
}

// ErrUndoUnavailable: the undo can no longer work; the error says why.
var ErrUndoUnavailable = errors.New("undo is no longer possible")

// Undoable says whether Undo(ids...) would still work now.
func (s *Store) Undoable(ctx context.Context, ids ...string) (UndoState, error) {
	if len(ids) == 0 {
		return UndoState{}, fmt.Errorf("check undo: %w: no memory ids", ErrInvalid)
	}
	return s.undoable(ctx, s.db, ids)
}

func (s *Store) undoable(ctx context.Context, q queryer, ids []string) (UndoState, error) {
	now := s.now()
	active := ActiveProfile(ctx, s.db)
	st := UndoState{OK: true}
	no := func(code, reason string) (UndoState, error) {
		return UndoState{Code: code, Reason: reason, Until: st.Until}, nil
	}
	for _, id := range ids {
		m, err := lookup(ctx, q, id)
		if errors.Is(err, ErrNotFound) {
			return no(UndoErased, "a memory it wrote was erased since")
		}
		if err != nil {
			return UndoState{}, fmt.Errorf("check undo: %w", err)
		}
		if until := m.CreatedAt.Add(UndoWindow); st.Until.IsZero() || until.Before(st.Until) {
			st.Until = until
		}
		switch {
		case m.Status == StatusSuperseded:
			return no(UndoSuperseded, "a memory it wrote was replaced by a newer one since")
		case m.Status != StatusActive && m.Status != StatusPending:
			return no(UndoChanged, fmt.Sprintf("a memory it wrote is %s now; restore or forget it in the memory browser", m.Status))
		case m.Profile != active:
			return no(UndoProfile, fmt.Sprintf("it wrote into profile %s and %s is active now; switch back to undo", m.Profile, active))
		}
	}
	if now.After(st.Until) {
		return no(UndoExpired, fmt.Sprintf("undo is offered for %s after a reply; forget the memory in the memory browser instead", UndoWindow))
	}
	return st, nil
}
