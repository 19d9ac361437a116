package session

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// treeSequences is how many random sequences TestTreeStaysConsistent runs
// (HERMES_TREE_SEQUENCES; `go tool task test:tree` runs 10,000).
func treeSequences(t *testing.T) int {
	if v := os.Getenv("HERMES_TREE_SEQUENCES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("HERMES_TREE_SEQUENCES=%q: want a positive number", v)
		}
		return n
	}
	return 200
}

// TestTreeStaysConsistent runs random sequences of send, regenerate, edit,
// switch version and delete turn on one conversation each, on a real SQLite
// file, and checks the tree's invariants after every step (checkTree).
func TestTreeStaysConsistent(t *testing.T) {
	ctx := context.Background()
	var st *Store
	seed := uint64(20261206)
	for i := range treeSequences(t) {
		if i%100 == 0 { // a fresh file now and then: the checks read whole tables
			st, _ = newStore(t)
		}
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		s, err := st.Create(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		w := &treeWalk{st: st, sid: s.ID, rng: rng, seq: i}
		steps := 2 + rng.IntN(12)
		for k := 0; k < steps; k++ {
			op := w.step(ctx, t)
			w.log = append(w.log, op)
			if err := checkTree(ctx, st, s.ID, w.deleted); err != nil {
				t.Fatalf("sequence %d (seed %d) after %v: %v", i, seed, w.log, err)
			}
		}
	}
}

type treeWalk struct {
	st      *Store
	sid     string
	rng     *rand.Rand
	seq, n  int
	log     []string
	deleted []string // words only a deleted message held
}

// word is a text no other message of the run holds.
func (w *treeWalk) word(role string) string {
	w.n++
	return fmt.Sprintf("%sq%dz%dx", role, w.seq, w.n) // no word is the start of another (search matches prefixes)
}

func (w *treeWalk) add(ctx context.Context, t *testing.T, role string) {
	if _, err := w.st.Append(ctx, Message{SessionID: w.sid, Role: role, Content: w.word(role)}); err != nil {
		t.Fatal(err)
	}
}

// step does one random operation and names it.
func (w *treeWalk) step(ctx context.Context, t *testing.T) string {
	shown := w.shown(ctx, t)
	pick := func(role string) (Message, bool) {
		var of []Message
		for _, m := range shown {
			if m.Role == role {
				of = append(of, m)
			}
		}
		if len(of) == 0 {
			return Message{}, false
		}
		return of[w.rng.IntN(len(of))], true
	}
	switch w.rng.IntN(5) {
	case 1:
		if r, ok := pick("assistant"); ok {
			if _, err := w.st.ForkReply(ctx, w.sid, r.ID); err != nil {
				t.Fatalf("regenerate %s: %v", r.ID, err)
			}
			w.add(ctx, t, "assistant")
			return "regenerate " + r.Content
		}
	case 2:
		if u, ok := pick("user"); ok {
			if err := w.st.ForkMessage(ctx, w.sid, u.ID); err != nil {
				t.Fatalf("edit %s: %v", u.ID, err)
			}
			w.add(ctx, t, "user")
			w.add(ctx, t, "assistant")
			return "edit " + u.Content
		}
	case 3:
		if op := w.switchVersion(ctx, t, shown); op != "" {
			return op
		}
	case 4:
		if u, ok := pick("user"); ok {
			return w.deleteTurn(ctx, t, u)
		}
	}
	w.add(ctx, t, "user")
	if w.rng.IntN(4) == 0 {
		w.add(ctx, t, "tool")
	}
	w.add(ctx, t, "assistant")
	return "send"
}

func (w *treeWalk) shown(ctx context.Context, t *testing.T) []Message {
	all, err := w.st.Messages(ctx, w.sid)
	if err != nil {
		t.Fatal(err)
	}
	return Visible(all)
}

func (w *treeWalk) switchVersion(ctx context.Context, t *testing.T, shown []Message) string {
	all, err := w.st.Messages(ctx, w.sid)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBranches(all)
	var with [][]string
	for _, m := range shown {
		if ids, _ := b.Versions(m.ID); len(ids) > 1 {
			with = append(with, ids)
		}
	}
	if len(with) == 0 {
		return ""
	}
	ids := with[w.rng.IntN(len(with))]
	id := ids[w.rng.IntN(len(ids))]
	if err := w.st.SelectVersion(ctx, w.sid, id); err != nil {
		t.Fatalf("select %s: %v", id, err)
	}
	return "switch " + id
}

// deleteTurn deletes u's turn and remembers the words of what it deleted.
func (w *treeWalk) deleteTurn(ctx context.Context, t *testing.T, u Message) string {
	before, err := w.st.Messages(ctx, w.sid)
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.st.DeleteTurn(ctx, w.sid, u.ID)
	if err != nil {
		t.Fatalf("delete %s: %v", u.ID, err)
	}
	after, err := w.st.Messages(ctx, w.sid)
	if err != nil {
		t.Fatal(err)
	}
	left := map[string]bool{}
	for _, m := range after {
		left[m.ID] = true
	}
	for _, m := range before {
		if !left[m.ID] {
			w.deleted = append(w.deleted, m.Content)
		}
	}
	if len(before)-len(after) != n || left[u.ID] {
		return fmt.Sprintf("delete %s: said %d, deleted %d", u.Content, n, len(before)-len(after))
	}
	return "delete " + u.Content
}

// checkTree is the tree's invariants: every parent exists; the shown path is a
// chain from the first message; every shown message with children shows
// exactly one of them, and every hidden one is a version of something shown
// or below one; the session's leaf is the path's end; every message has its
// search row and no search row outlives its message; deleted words are found
// by no search.
func checkTree(ctx context.Context, st *Store, sid string, deleted []string) error {
	all, err := st.Messages(ctx, sid)
	if err != nil {
		return err
	}
	tr := newTree(all)
	for _, m := range tr.msgs {
		if p := tr.parent[m.ID]; p != "" {
			if _, ok := tr.byID[p]; !ok {
				return fmt.Errorf("%s (%s) has a parent that is gone", m.ID, m.Content)
			}
		}
	}
	if err := checkPath(tr); err != nil {
		return err
	}
	if err := checkLeaf(ctx, st, sid, tr); err != nil {
		return err
	}
	if err := checkShown(ctx, st, sid, all); err != nil {
		return err
	}
	return checkSearch(ctx, st, deleted)
}

// checkShown: the count the sidebar shows is the messages Visible shows.
func checkShown(ctx context.Context, st *Store, sid string, all []Message) error {
	want := 0
	for _, m := range Visible(all) {
		if InChannel(m, MainChannel) && (m.Role == "user" || m.Role == "assistant") {
			want++
		}
	}
	s, err := st.Get(ctx, sid)
	if err != nil {
		return err
	}
	if s.Shown != want {
		return fmt.Errorf("the session counts %d shown messages, Visible shows %d", s.Shown, want)
	}
	return nil
}

func checkPath(tr *tree) error {
	shown, prev := tr.visible(), ""
	for _, m := range tr.msgs {
		if !shown[m.ID] {
			continue
		}
		if tr.parent[m.ID] != prev {
			return fmt.Errorf("the shown path breaks at %s (%s)", m.ID, m.Content)
		}
		prev = m.ID
	}
	for _, id := range append([]string{""}, keys(shown)...) {
		kids, on := tr.children(id), 0
		for _, k := range kids {
			if k.Selected {
				on++
			}
		}
		if len(kids) > 0 && on != 1 {
			return fmt.Errorf("a shown message (%q) shows %d of its %d children", id, on, len(kids))
		}
	}
	b := Branches{tr}
	for id := range shown {
		ids, at := b.Versions(id)
		if ids != nil && !shown[ids[at]] {
			return fmt.Errorf("versions of %s name %s as shown, which is hidden", id, ids[at])
		}
	}
	return nil
}

func checkLeaf(ctx context.Context, st *Store, sid string, tr *tree) error {
	var leaf sql.NullString
	if err := st.db.QueryRowContext(ctx, `SELECT leaf_id FROM sessions WHERE id = ?`, sid).Scan(&leaf); err != nil {
		return err
	}
	shown, last := tr.visible(), ""
	for _, m := range tr.msgs {
		if shown[m.ID] {
			last = m.ID
		}
	}
	if leaf.Valid && leaf.String != last {
		return fmt.Errorf("the session's leaf is %q, the shown path ends at %q", leaf.String, last)
	}
	return nil
}

func checkSearch(ctx context.Context, st *Store, deleted []string) error {
	if err := st.flushSearch(ctx); err != nil {
		return err
	}
	var orphans, missing int
	if err := st.db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM messages_fts WHERE rowid NOT IN (SELECT rowid FROM messages)),
		(SELECT COUNT(*) FROM messages WHERE content <> '' AND rowid NOT IN (SELECT rowid FROM messages_fts))`).Scan(&orphans, &missing); err != nil {
		return err
	}
	if orphans != 0 || missing != 0 {
		return fmt.Errorf("%d search rows without a message, %d messages without a search row", orphans, missing)
	}
	if len(deleted) == 0 {
		return nil
	}
	w := deleted[len(deleted)-1]
	hits, err := st.Search(ctx, w, 5)
	if err != nil {
		return err
	}
	if len(hits) > 0 {
		return fmt.Errorf("deleted %q is still found (%s)", w, hits[0].MessageID)
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestDeleteOneVersionShowsTheOther: edit a message, switch back to the first
// version and delete that turn: the edited version is shown (it was hidden
// and the chat looked empty), its reply with it, and the next message follows
// it as a turn of its own, not a third version.
func TestDeleteOneVersionShowsTheOther(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "")
	add := func(role, text string) Message {
		m, err := st.Append(ctx, Message{SessionID: s.ID, Role: role, Content: text})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	first := add("user", "first wording")
	add("assistant", "first answer")
	if err := st.ForkMessage(ctx, s.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	add("user", "second wording")
	add("assistant", "second answer")
	if err := st.SelectVersion(ctx, s.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DeleteTurn(ctx, s.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	shownTexts := func() []string {
		all, _ := st.Messages(ctx, s.ID)
		var out []string
		for _, m := range Visible(all) {
			out = append(out, m.Content)
		}
		return out
	}
	if got := fmt.Sprint(shownTexts()); got != "[second wording second answer]" {
		t.Fatalf("shown after the delete: %s", got)
	}
	third := add("user", "next question")
	all, _ := st.Messages(ctx, s.ID)
	if ids, _ := NewBranches(all).Versions(third.ID); ids != nil {
		t.Errorf("the next message is one of %d versions", len(ids))
	}
	if hits, _ := st.Search(ctx, "first wording", 5); len(hits) != 0 {
		t.Errorf("the deleted version is still found: %+v", hits)
	}
}

// Deleting the first turn of a chat titled from it gives the chat the title of
// the turn that now comes first (none when no turn is left); a title the user
// chose stays.
func TestDeleteFirstTurnRetitles(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	add := func(id, role, text string) Message {
		m, err := st.Append(ctx, Message{SessionID: id, Role: role, Content: text})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	title := func(id string) string {
		s, err := st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s.Title
	}
	s, _ := st.Create(ctx, "")
	first := add(s.ID, "user", "Where is the boiler manual?")
	add(s.ID, "assistant", "In the red binder.")
	second := add(s.ID, "user", "When was the pump serviced?")
	add(s.ID, "assistant", "In March.")
	if got := title(s.ID); got != "Where is the boiler manual?" {
		t.Fatalf("title %q", got)
	}
	if _, err := st.DeleteTurn(ctx, s.ID, second.ID); err != nil || title(s.ID) != "Where is the boiler manual?" {
		t.Fatalf("deleting a later turn retitled the chat: %q, %v", title(s.ID), err)
	}
	third := add(s.ID, "user", "When was the pump serviced?")
	if _, err := st.DeleteTurn(ctx, s.ID, first.ID); err != nil || title(s.ID) != "When was the pump serviced?" {
		t.Fatalf("after deleting the first turn: %q, %v", title(s.ID), err)
	}
	if _, err := st.DeleteTurn(ctx, s.ID, third.ID); err != nil || title(s.ID) != "" {
		t.Fatalf("with no turn left: %q, %v", title(s.ID), err)
	}

	named, _ := st.Create(ctx, "")
	m := add(named.ID, "user", "Where is the boiler manual?")
	add(named.ID, "user", "And the pump?")
	if err := st.Rename(ctx, named.ID, "Boiler room"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DeleteTurn(ctx, named.ID, m.ID); err != nil || title(named.ID) != "Boiler room" {
		t.Fatalf("the user's title changed: %q, %v", title(named.ID), err)
	}
}
