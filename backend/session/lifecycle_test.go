package session

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestIDsAreUniqueUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	const n = 10000
	ids := make([]string, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				s, err := st.Create(ctx, "")
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = s.ID
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	seen := make(map[string]bool, n)
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("duplicate or missing id %q", id)
		}
		seen[id] = true
	}
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return clock }
	s, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "Plan my trip to Kyoto. I land on Friday."})
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "Here is a plan."})
	pinned, _ := st.Create(ctx, "keep me")
	st.Pin(ctx, pinned.ID, true)

	hookCalls := 0
	lc := &Lifecycle{Store: st, IdleAfter: 15 * time.Minute, ArchiveAfter: 24 * time.Hour,
		Close: func(_ context.Context, s Session, msgs []Message) (string, string, error) {
			hookCalls++
			return "The user is planning a Kyoto trip.", "Kyoto trip", nil
		}}
	if n, err := lc.Sweep(ctx, clock.Add(10*time.Minute)); err != nil || n != 0 {
		t.Fatalf("early sweep changed %d (%v)", n, err)
	}
	if _, err := lc.Sweep(ctx, clock.Add(16*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Get(ctx, s.ID)
	if got.State != StateIdle || got.Title != "Kyoto trip" || got.Summary != "The user is planning a Kyoto trip." || hookCalls != 1 {
		t.Fatalf("after idle: %+v (hook %d)", got, hookCalls)
	}
	var archived []string
	lc.Archived = func(_ context.Context, id string) { archived = append(archived, id) }
	lc.Sweep(ctx, clock.Add(25*time.Hour))
	got, _ = st.Get(ctx, s.ID)
	if got.State != StateArchived || len(archived) != 1 || archived[0] != s.ID {
		t.Fatalf("state = %s, archived hook = %v; want archived once", got.State, archived)
	}
	if p, _ := st.Get(ctx, pinned.ID); p.State == StateArchived {
		t.Fatal("a pinned session was archived")
	}
	// Archived sessions stay searchable and resume on a new message.
	if hits, _ := st.Search(ctx, "Kyoto", 10); len(hits) != 1 || hits[0].State != StateArchived {
		t.Fatalf("hits = %+v", hits)
	}
	clock = clock.Add(26 * time.Hour)
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "Back again"})
	if got, _ = st.Get(ctx, s.ID); got.State != StateActive {
		t.Fatalf("state after resume = %s", got.State)
	}
}

func TestCloseHookFailureFallsBackToExtractive(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "I moved to Lisbon last spring. It is sunny."})
	lc := &Lifecycle{Store: st, IdleAfter: time.Minute,
		Close: func(context.Context, Session, []Message) (string, string, error) {
			return "", "", errors.New("ollama down")
		}}
	lc.Sweep(ctx, time.Now().Add(time.Hour))
	got, _ := st.Get(ctx, s.ID)
	if got.Summary != "- The user said: I moved to Lisbon last spring." || got.Title != "I moved to Lisbon last spring. It is sunny." {
		t.Fatalf("got %+v", got)
	}
}

func TestRenamePinDelete(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	a, _ := st.Create(ctx, "")
	b, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: a.ID, Role: "user", Content: "secret plans for the zeppelin"})
	st.Append(ctx, Message{SessionID: b.ID, Role: "user", Content: "zeppelin museum opening hours"})
	if err := st.Rename(ctx, a.ID, "  "); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty rename: %v", err)
	}
	if err := st.Rename(ctx, a.ID, "Airships"); err != nil {
		t.Fatal(err)
	}
	st.Append(ctx, Message{SessionID: a.ID, Role: "user", Content: "more"})
	if got, _ := st.Get(ctx, a.ID); got.Title != "Airships" {
		t.Fatalf("renamed title replaced: %q", got.Title)
	}
	if err := st.Pin(ctx, b.ID, true); err != nil {
		t.Fatal(err)
	}
	if list, _ := st.List(ctx); list[0].ID != b.ID || !list[0].Pinned {
		t.Fatalf("pinned session not first: %+v", list)
	}
	if _, err := st.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted session still there: %v", err)
	}
	hits, _ := st.Search(ctx, "zeppelin", 10)
	if len(hits) != 1 || hits[0].SessionID != b.ID {
		t.Fatalf("hits after delete = %+v", hits)
	}
	var ftsRows, msgRows int
	st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages_fts`).Scan(&ftsRows)
	st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages`).Scan(&msgRows)
	if ftsRows != 1 || msgRows != 1 {
		t.Fatalf("left behind: %d index rows, %d messages", ftsRows, msgRows)
	}
	if _, err := st.Delete(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete unknown: %v", err)
	}
}

func TestOversizedAndEmptyMessages(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "")
	for name, text := range map[string]string{"empty": " \n ", "oversized": strings.Repeat("x", MaxMessageBytes+1),
		"NUL": "cut\x00here", "not UTF-8": "bad \xff byte"} {
		t.Run(name, func(t *testing.T) {
			if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: text}); !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// A chat opened and never written in is gone a day on (a window closed or
// crashed before its first message leaves no "Untitled chat · 0 messages");
// one with a message, a pinned one or one the user named stays.
func TestSweepDropsChatsNeverWrittenIn(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return clock }
	empty, _ := st.Create(ctx, "")
	named, _ := st.Create(ctx, "Packing list")
	pinned, _ := st.Create(ctx, "")
	st.Pin(ctx, pinned.ID, true)
	written, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: written.ID, Role: "user", Content: "hello"})
	lc := &Lifecycle{Store: st, IdleAfter: time.Hour}
	if _, err := lc.Sweep(ctx, clock.Add(23*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, empty.ID); err != nil {
		t.Fatalf("an empty chat went before a day: %v", err)
	}
	if _, err := lc.Sweep(ctx, clock.Add(25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, empty.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an empty chat a day on: %v", err)
	}
	for _, id := range []string{named.ID, pinned.ID, written.ID} {
		if _, err := st.Get(ctx, id); err != nil {
			t.Fatalf("%s went: %v", id, err)
		}
	}
}
