package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hermes/backend/store"
)

func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return NewStore(db), file
}

func TestAppendAndReload(t *testing.T) {
	ctx := context.Background()
	st, file := newStore(t)
	s, err := st.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{
		{SessionID: s.ID, Role: "user", Content: "What did I buy yesterday? The wireless earphones, I think", Intent: "recall", IntentConfidence: 0.9},
		{SessionID: s.ID, Role: "assistant", Content: "You bought earphones.", Model: "llama3.2"},
		{SessionID: s.ID, Role: "assistant", Content: "partial", Status: StatusCancelled},
	} {
		if _, err := st.Append(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	// Reopen the file: everything survives a restart.
	db2, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	st2 := NewStore(db2)
	got, err := st2.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.MessageCount != 3 || got.Title != "What did I buy yesterday? The wireless…" {
		t.Fatalf("session = %+v", got)
	}
	msgs, err := st2.Messages(ctx, s.ID)
	if err != nil || len(msgs) != 3 {
		t.Fatalf("messages = %d, %v", len(msgs), err)
	}
	if msgs[0].Seq != 1 || msgs[2].Seq != 3 || msgs[2].Status != StatusCancelled || msgs[0].Intent != "recall" || msgs[1].Model != "llama3.2" {
		t.Fatalf("messages = %+v", msgs)
	}
}

func TestAppendToUnknownSession(t *testing.T) {
	st, _ := newStore(t)
	_, err := st.Append(context.Background(), Message{SessionID: "nope", Role: "user", Content: "x"})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if _, err := st.Get(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get err = %v", err)
	}
}

func TestConcurrentAppendsKeepOrderUnique(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "busy")
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "hi"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	msgs, _ := st.Messages(ctx, s.ID)
	for i, m := range msgs {
		if m.Seq != i+1 {
			t.Fatalf("seq %d at %d", m.Seq, i)
		}
	}
	if len(msgs) != 20 {
		t.Fatalf("got %d messages", len(msgs))
	}
}

func TestListNewestFirst(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	a, _ := st.Create(ctx, "a")
	b, _ := st.Create(ctx, "b")
	if _, err := st.Append(ctx, Message{SessionID: a.ID, Role: "user", Content: "bump"}); err != nil {
		t.Fatal(err)
	}
	list, err := st.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
		t.Fatalf("list = %+v, %v", list, err)
	}
}

func TestHistoryFollowsEveryChangeToTheMessages(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := NewStore(db)
	s, err := st.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	history := func() []Message {
		t.Helper()
		got, err := st.Get(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		h, err := st.History(ctx, got)
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.Messages(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != len(want) {
			t.Fatalf("history has %d messages, the database %d", len(h), len(want))
		}
		for i := range h {
			if h[i].ID != want[i].ID || h[i].Content != want[i].Content || h[i].Pinned != want[i].Pinned || h[i].Seq != want[i].Seq {
				t.Fatalf("history[%d] = %+v, database has %+v", i, h[i], want[i])
			}
		}
		return h
	}
	for _, text := range []string{"one", "two", "three"} {
		if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: text}); err != nil {
			t.Fatal(err)
		}
		history()
	}
	h := history()
	h[0].Content = "changed by the caller" // a caller's copy is its own
	if history()[0].Content != "one" {
		t.Fatal("the cache handed out its own slice")
	}
	if err := st.PinMessage(ctx, h[1].ID, true); err != nil {
		t.Fatal(err)
	}
	if !history()[1].Pinned {
		t.Fatal("a pin did not reach the history")
	}
	// Another process edits and deletes through its own connection.
	other, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctx, `UPDATE messages SET content = 'edited elsewhere' WHERE id = ?`, h[2].ID); err != nil {
		t.Fatal(err)
	}
	if history()[2].Content != "edited elsewhere" {
		t.Fatal("an edit by another connection did not reach the history")
	}
	if _, err := other.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, h[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := history(); len(got) != 2 {
		t.Fatalf("after a delete elsewhere: %d messages", len(got))
	}
	if _, err := other.ExecContext(ctx, `INSERT INTO messages(id, session_id, seq, role, content, status, created_at) VALUES ('x', ?, 9, 'user', 'inserted elsewhere', 'ok', '2026-01-01T00:00:00Z')`, s.ID); err != nil {
		t.Fatal(err)
	}
	if got := history(); len(got) != 3 || got[2].Content != "inserted elsewhere" {
		t.Fatalf("after an insert elsewhere: %+v", got)
	}
}

func TestHistoryCacheStaysWithinItsBounds(t *testing.T) {
	var c historyCache
	big := strings.Repeat("x", historyMaxBytes/4)
	for i := 0; i < 20; i++ {
		id := fmt.Sprint("s", i)
		c.put(id, 1, []Message{{SessionID: id, Content: big}, {SessionID: id, Content: big}})
		if len(c.entries) > historySessions || c.bytes > historyTotalBytes {
			t.Fatalf("after %d puts: %d entries, %d bytes", i+1, len(c.entries), c.bytes)
		}
		if _, ok := c.get(id, 1); !ok {
			t.Fatalf("the newest entry %s was not kept", id)
		}
	}
	if _, ok := c.get("s0", 1); ok {
		t.Fatal("the oldest entry was not evicted")
	}
	// A session holding more text than an entry may is not kept, and one that grows past it is dropped.
	c.put("huge", 1, []Message{{SessionID: "huge", Content: big + big + big + big + big}})
	if _, ok := c.get("huge", 1); ok {
		t.Fatal("an oversized session was cached")
	}
	c.put("grow", 1, []Message{{SessionID: "grow", Content: big}})
	for rev := int64(2); rev < 8; rev++ {
		c.appended(Message{SessionID: "grow", Content: big}, rev)
	}
	if _, ok := c.get("grow", 7); ok {
		t.Fatal("a session grown past the entry limit is still cached")
	}
	sum := 0
	for _, e := range c.entries {
		sum += e.bytes
	}
	if sum != c.bytes {
		t.Fatalf("byte count %d, entries hold %d", c.bytes, sum)
	}
}

func TestHistoryCacheNeverHoldsAMessageTwice(t *testing.T) {
	// History read the session after a message committed but with the rev from
	// before it (a Get that raced the append); the append's own update must not add
	// the message again.
	var c historyCache
	m1 := Message{ID: "m1", SessionID: "s", Seq: 1}
	m2 := Message{ID: "m2", SessionID: "s", Seq: 2}
	c.put("s", 1, []Message{m1, m2}) // read at rev 2, tagged with rev 1
	c.appended(m2, 2)
	if got, ok := c.get("s", 2); ok {
		t.Fatalf("the cache serves %d messages for rev 2", len(got))
	}
	c.put("s", 2, []Message{m1, m2})
	c.appended(Message{ID: "m3", SessionID: "s", Seq: 3}, 3)
	if got, ok := c.get("s", 3); !ok || len(got) != 3 || got[2].ID != "m3" {
		t.Fatalf("an append after a clean read = %+v, %v", got, ok)
	}
}

func TestDeletingASessionDropsItsCachedHistory(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "a secret plan"})
	s, _ = st.Get(ctx, s.ID)
	if _, err := st.History(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.hist.entries[s.ID]; !ok {
		t.Fatal("the history was not cached")
	}
	if _, err := st.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.hist.entries[s.ID]; ok || st.hist.bytes != 0 {
		t.Fatal("the deleted session's text is still cached")
	}
}

func TestTurnContextIsTheNewestReplysAndGoesWithItsSession(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "")
	if r, id, err := st.TurnContext(ctx, s.ID, ""); err != nil || r != "" || id != "" {
		t.Fatalf("no reply yet: %q %q %v", r, id, err)
	}
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "one"})
	first, _ := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "1", Context: `{"n":1}`})
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "two"})
	last, _ := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "2", Context: `{"n":2}`})
	if last.Context != "" {
		t.Fatal("the appended message carries its recipe (the cache would hold it)")
	}
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "failed before a prompt was built", Status: StatusFailed})
	if r, id, err := st.TurnContext(ctx, s.ID, ""); err != nil || r != `{"n":2}` || id != last.ID {
		t.Fatalf("TurnContext = %q %q %v", r, id, err)
	}
	if r, id, err := st.TurnContext(ctx, s.ID, first.ID); err != nil || r != `{"n":1}` || id != first.ID {
		t.Fatalf("TurnContext of the first reply = %q %q %v", r, id, err)
	}
	if r, _, err := st.TurnContext(ctx, "other-session", first.ID); err != nil || r != "" {
		t.Fatalf("a reply of another session = %q, %v", r, err)
	}
	if _, err := st.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM turn_contexts`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("turn_contexts after delete = %d, %v", n, err)
	}
}

// The count a conversation shows is what its person sees: their messages and
// the replies, not the tool records, a sub-agent's messages, a system message or
// a reply that was answered again.
func TestShownCountsWhatAPersonSees(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, err := st.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var reply Message
	for _, m := range []Message{
		{Role: "system", Content: "You are brief."},
		{Role: "user", Content: "Ask the researcher about pumps"},
		{Role: "tool", Content: `{"ok":true}`, ToolName: "ask_researcher"},
		{Role: "user", Content: "pumps?", Channel: "researcher", Kind: "routing"},
		{Role: "assistant", Content: "Pumps move water.", Channel: "researcher", Kind: "final"},
		{Role: "assistant", Content: "The researcher says pumps move water."},
	} {
		m.SessionID = s.ID
		if reply, err = st.Append(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Get(ctx, s.ID)
	if err != nil || got.Shown != 2 || got.MessageCount != 6 {
		t.Fatalf("shown %d of %d messages (%v): want 2 of 6", got.Shown, got.MessageCount, err)
	}
	if _, err := st.ForkReply(ctx, s.ID, reply.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "Pumps move water, it says."}); err != nil {
		t.Fatal(err)
	}
	list, err := st.List(ctx)
	got, gerr := st.Get(ctx, s.ID)
	if err != nil || gerr != nil || len(list) != 1 || list[0].Shown != 2 || got.Shown != 2 || got.MessageCount != 7 {
		t.Fatalf("after answering again: %+v %+v %v %v: want 2 shown of 7", list, got, err, gerr)
	}
}
