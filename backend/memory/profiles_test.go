package memory

import (
	"context"
	"errors"
	"testing"
)

func TestConfirmPromotesAFactToTheProfileLayer(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	fact := e.add("I am allergic to penicillin")
	if fact.Layer != LayerFact {
		t.Fatalf("added layer = %s", fact.Layer)
	}
	e.clock.Advance(400 * 24 * 3600e9) // long enough for a fact to decay below the threshold
	if n, err := e.s.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v", n, err)
	}
	t.Run("confirm an archived fact", func(t *testing.T) {
		if err := e.s.Confirm(ctx, fact.ID); err != nil {
			t.Fatal(err)
		}
		m, err := e.s.Get(ctx, fact.ID)
		if err != nil || m.Layer != LayerProfile || m.Status != StatusActive || m.Confidence != 1 {
			t.Fatalf("after confirm: %+v, %v", m, err)
		}
	})
	t.Run("no decay, always offered", func(t *testing.T) {
		e.clock.Advance(400 * 24 * 3600e9)
		if n, _ := e.s.Sweep(ctx); n != 0 {
			t.Fatalf("a profile memory decayed (%d archived)", n)
		}
		if rs := e.recall(Query{Text: "what is the weather"}); len(rs) != 1 || !rs[0].Always {
			t.Fatalf("profile memory not always offered: %v", texts(rs))
		}
	})
	t.Run("restore keeps the layer", func(t *testing.T) {
		other := e.add("I like green tea")
		e.clock.Advance(400 * 24 * 3600e9)
		if _, err := e.s.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.s.Restore(ctx, other.ID); err != nil {
			t.Fatal(err)
		}
		if m, _ := e.s.Get(ctx, other.ID); m.Layer != LayerFact || m.Status != StatusActive {
			t.Fatalf("restored: %s %s", m.Layer, m.Status)
		}
	})
	t.Run("pending cannot be confirmed", func(t *testing.T) {
		e.observe("Remember this about me", facts(extracted{Text: "I probably like animals", Key: "pref.animals", Asserted: "inferred"}))
		p := e.list(Filter{Statuses: []Status{StatusPending}})
		if len(p) != 1 {
			t.Fatalf("pending = %v", texts2(p))
		}
		if err := e.s.Confirm(ctx, p[0].ID); !errors.Is(err, ErrConflict) {
			t.Fatalf("Confirm(pending) = %v", err)
		}
	})
}

func TestRenameProfile(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	if err := e.s.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	m := e.add("I work as a nurse at the city hospital", func(in *AddInput) { in.Profile = "work" })
	if err := e.s.UseProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	_, idx := e.s.current()
	before := idx.count("work")
	if before == 0 {
		t.Fatal("no vector indexed for the work profile")
	}
	if err := e.s.RenameProfile(ctx, "work", "job"); err != nil {
		t.Fatal(err)
	}
	t.Run("memories and the active mark follow", func(t *testing.T) {
		got, err := e.s.Get(ctx, m.ID)
		if err != nil || got.Profile != "job" {
			t.Fatalf("memory after rename: %+v, %v", got, err)
		}
		if p := ActiveProfile(ctx, e.db); p != "job" {
			t.Fatalf("active profile = %s", p)
		}
		ps, _ := e.s.ListProfiles(ctx)
		names := map[string]int{}
		for _, p := range ps {
			names[p.Name] = p.Memories
		}
		if _, ok := names["work"]; ok || names["job"] != 1 {
			t.Fatalf("profiles = %+v", ps)
		}
	})
	t.Run("the vector index follows", func(t *testing.T) {
		_, idx := e.s.current()
		if idx.count("work") != 0 || idx.count("job") != before {
			t.Fatalf("index: work %d, job %d; want 0, %d", idx.count("work"), idx.count("job"), before)
		}
	})
	t.Run("recall and lexical search use the new name", func(t *testing.T) {
		if rs := e.recall(Query{Profile: "job", Text: "where do I work as a nurse?"}); len(rs) != 1 || rs[0].Memory.ID != m.ID {
			t.Fatalf("recall in job: %v", texts(rs))
		}
		if rs := e.recall(Query{Profile: "work", Text: "where do I work as a nurse?"}); len(rs) != 0 {
			t.Fatalf("recall in the old name: %v", texts(rs))
		}
		for p, want := range map[string]int{"job": 1, "work": 0} {
			q := `SELECT rowid, rank, ? FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 10`
			hits, err := e.s.lexicalQuery(ctx, q, p, matchAny(p, []string{"nurse"}))
			if err != nil || len(hits) != want {
				t.Errorf("lexical scope %s = %v, %v; want %d", p, hits, err, want)
			}
		}
	})
	t.Run("bad renames", func(t *testing.T) {
		if err := e.s.CreateProfile(ctx, "home"); err != nil {
			t.Fatal(err)
		}
		for _, c := range [][2]string{{"job", "home"}, {"nothere", "x"}, {DefaultProfile, "me"}, {"job", "bad name!"}} {
			if err := e.s.RenameProfile(ctx, c[0], c[1]); !errors.Is(err, ErrInvalid) {
				t.Errorf("RenameProfile(%s, %s) = %v", c[0], c[1], err)
			}
		}
	})
}
