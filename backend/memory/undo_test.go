package memory

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// turnWrite observes a turn that states text and returns the ids it added.
func (e *env) turnWrite(text, key, value string) []string {
	e.t.Helper()
	n := len(e.changes)
	e.observe("Remember "+text, facts(extracted{Text: text, Key: key, Value: value}))
	for _, c := range e.changes[n:] {
		if (c.Kind == "added" || c.Kind == "pending") && c.MessageID != "" {
			return c.IDs
		}
	}
	e.t.Fatalf("the turn added nothing: %+v", e.changes[n:])
	return nil
}

// Undo is offered only while it can work: each way it stops working is
// reported with its code, and Undo itself refuses with the reason and changes
// nothing.
func TestUndoOnlyWhileItCanWork(t *testing.T) {
	ctx := context.Background()
	refused := func(t *testing.T, e *env, ids []string, code string) {
		t.Helper()
		st, err := e.s.Undoable(ctx, ids...)
		if err != nil || st.OK || st.Code != code || st.Reason == "" {
			t.Fatalf("Undoable = %+v, %v; want code %s", st, err, code)
		}
		_, err = e.s.Undo(ctx, ids...)
		if !errors.Is(err, ErrUndoUnavailable) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), st.Reason) {
			t.Fatalf("Undo = %v; want the reason %q", err, st.Reason)
		}
	}
	t.Run("fresh", func(t *testing.T) {
		e := newEnv(t, nil)
		ids := e.turnWrite("I moved to Porto", "home.city", "Porto")
		st, err := e.s.Undoable(ctx, ids...)
		if err != nil || !st.OK || !st.Until.Equal(e.clock.Now().Add(UndoWindow)) {
			t.Fatalf("Undoable = %+v, %v", st, err)
		}
		if _, err := e.s.Undo(ctx, ids...); err != nil {
			t.Fatal(err)
		}
		refused(t, e, ids, UndoErased)
	})
	t.Run("window passed", func(t *testing.T) {
		e := newEnv(t, nil)
		ids := e.turnWrite("I moved to Porto", "home.city", "Porto")
		e.clock.Advance(UndoWindow + time.Second)
		refused(t, e, ids, UndoExpired)
		if m, err := e.s.Get(ctx, ids[0]); err != nil || m.Status != StatusActive {
			t.Fatalf("a refused undo changed the memory: %+v, %v", m, err)
		}
	})
	t.Run("superseded", func(t *testing.T) {
		e := newEnv(t, nil)
		ids := e.turnWrite("I moved to Porto", "home.city", "Porto")
		e.turnWrite("I moved to Lisbon", "home.city", "Lisbon")
		refused(t, e, ids, UndoSuperseded)
	})
	t.Run("profile switched", func(t *testing.T) {
		e := newEnv(t, nil)
		ids := e.turnWrite("I moved to Porto", "home.city", "Porto")
		if err := e.s.CreateProfile(ctx, "work"); err != nil {
			t.Fatal(err)
		}
		if err := e.s.UseProfile(ctx, "work"); err != nil {
			t.Fatal(err)
		}
		refused(t, e, ids, UndoProfile)
		if err := e.s.UseProfile(ctx, DefaultProfile); err != nil {
			t.Fatal(err)
		}
		if st, _ := e.s.Undoable(ctx, ids...); !st.OK {
			t.Fatalf("switching back should make undo work again: %+v", st)
		}
	})
	t.Run("archived", func(t *testing.T) {
		e := newEnv(t, nil)
		ids := e.turnWrite("I moved to Porto", "home.city", "Porto")
		if _, err := e.s.db.ExecContext(ctx, `UPDATE memories SET status = 'archived' WHERE id = ?`, ids[0]); err != nil {
			t.Fatal(err)
		}
		refused(t, e, ids, UndoChanged)
	})
}

// The active profile cannot be deleted (nothing is erased); another one can,
// with a receipt that finds nothing of it afterwards.
func TestDeleteProfileOnlyWhenNotActive(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	if err := e.s.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	e.add("I work as a nurse at the city hospital", func(in *AddInput) { in.Profile = "work" })
	e.add("My badge number is on the lanyard", func(in *AddInput) { in.Profile = "work" })
	if err := e.s.UseProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	_, err := e.s.DeleteProfile(ctx, "work")
	if !errors.Is(err, ErrProfileActive) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "switch to another profile first") {
		t.Fatalf("deleting the active profile = %v", err)
	}
	if n := len(e.list(Filter{Profile: "work"})); n != 2 {
		t.Fatalf("a refused delete erased memories: %d left", n)
	}
	if err := e.s.UseProfile(ctx, DefaultProfile); err != nil {
		t.Fatal(err)
	}
	r, err := e.s.DeleteProfile(ctx, "work")
	if err != nil || r.Count != 2 || r.LexicalMatches != 0 || r.VectorMatches != 0 || r.Kind != "profile" {
		t.Fatalf("delete = %+v, %v", r, err)
	}
	list, _ := e.s.ListProfiles(ctx)
	if len(list) != 1 || list[0].Name != DefaultProfile || !list[0].Active {
		t.Fatalf("profiles after delete = %+v", list)
	}
}
