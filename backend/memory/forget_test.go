package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"hermes/backend/store"
	"hermes/backend/store/storetest"
)

// TestForgetLeavesNoBytes writes canary strings as memories in every way a memory
// text is kept (added, extracted through the job queue, edited, superseded,
// recalled), forgets them, and checks the bytes of the database, -wal and -shm
// files: the canaries are gone, the other memories are still found.
func TestForgetLeavesNoBytes(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		forget func(e *env, ids []string) (Receipt, error)
	}{
		{"by id", func(e *env, ids []string) (Receipt, error) { return e.s.Forget(ctx, ids...) }},
		{"by session", func(e *env, ids []string) (Receipt, error) { return e.s.ForgetSession(ctx, "canary-session") }},
		{"by profile", func(e *env, ids []string) (Receipt, error) { return e.s.ForgetProfile(ctx, "secret") }},
	}
	canaries := []string{"zqxcanaryadded", "zqxcanaryextracted", "zqxcanaryedited", "zqxcanaryold", "鑫淼垚犇"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			keep := e.add("I am allergic to peanuts and shellfish", func(in *AddInput) { in.Profile = "secret" })
			keepOther := e.add("I live in Porto", func(in *AddInput) { in.Profile = "personal" })

			// Added, then edited (the old text goes to history).
			a := e.add("My locker code word is zqxcanaryedited", func(in *AddInput) { in.Profile = "secret"; in.SessionID = "canary-session"; in.Key = "locker.code" })
			if _, err := e.s.Edit(ctx, a.ID, Edit{Text: "My locker code word is zqxcanaryadded"}); err != nil {
				t.Fatal(err)
			}
			// Extracted through the queue, superseding an older value.
			e.script(facts(extracted{Text: "My wifi name is zqxcanaryold", Key: "wifi.name", Value: "zqxcanaryold"}))
			if _, err := e.s.Observe(ctx, Turn{Profile: "secret", SessionID: "canary-session", UserMessageID: "u1", Intent: "remember", MayWriteMemory: true,
				UserText: "Remember my wifi name is zqxcanaryold"}); err != nil {
				t.Fatal(err)
			}
			e.s.RunJobs(ctx)
			e.script(facts(extracted{Text: "My wifi name is zqxcanaryextracted 鑫淼垚犇", Key: "wifi.name", Value: "zqxcanaryextracted"}))
			e.s.Observe(ctx, Turn{Profile: "secret", SessionID: "canary-session", UserMessageID: "u2", Intent: "remember", MayWriteMemory: true,
				UserText: "Remember my wifi name is now zqxcanaryextracted 鑫淼垚犇"})
			e.s.RunJobs(ctx)
			// Offered to the model (logged).
			rs := e.recall(Query{Profile: "secret", Text: "wifi name", MessageID: "m9", SessionID: "canary-session"})
			if len(rs) == 0 {
				t.Fatal("canary not recalled")
			}
			var ids []string
			for _, m := range e.list(Filter{Profile: "secret", Statuses: []Status{StatusActive}}) {
				if m.ID != keep.ID {
					ids = append(ids, m.ID)
				}
			}
			if len(ids) != 2 {
				t.Fatalf("setup: %d canary memories active", len(ids))
			}
			e.db.Checkpoint(ctx)
			for _, c := range canaries {
				if len(storetest.Holds(t, e.path, c)) == 0 {
					t.Fatalf("setup: canary %s not on disk", c)
				}
			}

			r, err := tc.forget(e, ids)
			if err != nil {
				t.Fatal(err)
			}
			if r.Count < 3 || r.LexicalMatches != 0 || r.VectorMatches != 0 || !r.Checkpointed {
				t.Fatalf("receipt = %+v", r)
			}
			for _, c := range canaries {
				if files := storetest.Holds(t, e.path, c); len(files) > 0 {
					t.Errorf("canary %s still in %v", c, files)
				}
			}
			if why, _ := e.s.WhyRecalled(ctx, "m9"); len(why) != 0 {
				t.Errorf("recall log kept %d entries", len(why))
			}
			ts, _ := e.s.Tombstones(ctx, 10)
			if len(ts) != 1 || ts[0].Count != r.Count || ts[0].ID != r.TombstoneID {
				t.Errorf("tombstones = %+v", ts)
			}
			// What was not forgotten is still there and still found.
			if tc.name != "by profile" {
				if rs := e.recall(Query{Profile: "secret", Text: "am I allergic to shellfish?"}); len(rs) != 1 || rs[0].Memory.ID != keep.ID {
					t.Errorf("kept memory not found: %v", texts(rs))
				}
			}
			if rs := e.recall(Query{Profile: "personal", Text: "where do I live? Porto?"}); len(rs) != 1 || rs[0].Memory.ID != keepOther.ID {
				t.Errorf("other profile's memory not found: %v", texts(rs))
			}
		})
	}
}

func TestForgetByQueryConfirms(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.add("I am allergic to peanuts")
	e.add("I love peanut butter cookies")
	e.add("I live in Porto")
	pending := e.add("My email is sam@example.org") // sensitive: waits in the inbox
	matches, err := e.s.ForgetMatches(ctx, "", "peanut", 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range matches {
		if !strings.Contains(strings.ToLower(m.Text), "peanut") {
			t.Fatalf("unrelated match %q", m.Text)
		}
		ids = append(ids, m.MemoryID)
	}
	if len(ids) != 2 {
		t.Fatalf("matches = %+v", matches)
	}
	if n := len(e.list(Filter{})); n != 4 {
		t.Fatalf("the first step erased something: %d left", n)
	}
	r, err := e.s.Forget(ctx, ids...)
	if err != nil || r.Count != 2 || r.LexicalMatches+r.VectorMatches != 0 {
		t.Fatalf("Forget = %+v, %v", r, err)
	}
	if ms := e.list(Filter{}); len(ms) != 2 {
		t.Fatalf("left %v", texts2(ms))
	}
	m, err := e.s.ForgetMatches(ctx, "", "email", 10)
	if err != nil || len(m) != 1 || m[0].MemoryID != pending.ID {
		t.Fatalf("pending match = %+v, %v", m, err)
	}
}

func TestForgetRemovesSupersededVersions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	old := e.add("I live in Berlin", func(in *AddInput) { in.Key = "home.city"; in.Value = "Berlin" })
	mid := e.add("I live in Munich", func(in *AddInput) { in.Key = "home.city"; in.Value = "Munich" })
	cur := e.add("I live in Porto", func(in *AddInput) { in.Key = "home.city"; in.Value = "Porto" })
	if m, _ := e.s.Get(ctx, mid.ID); m.Status != StatusSuperseded {
		t.Fatalf("setup: %+v", m)
	}
	t.Run("forgetting an old version keeps the newer", func(t *testing.T) {
		r, err := e.s.Forget(ctx, old.ID)
		if err != nil || r.Count != 1 {
			t.Fatalf("Forget = %+v, %v", r, err)
		}
		if _, err := e.s.Get(ctx, cur.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("forgetting the current one takes its history", func(t *testing.T) {
		r, err := e.s.Forget(ctx, cur.ID)
		if err != nil || r.Count != 2 {
			t.Fatalf("Forget = %+v, %v", r, err)
		}
		if ms := e.list(Filter{}); len(ms) != 0 {
			t.Fatalf("left %v", texts2(ms))
		}
	})
	if _, err := e.s.Forget(ctx, "no-such-id"); err == nil {
		t.Error("forgetting an unknown id succeeded")
	}
}

func TestUndoRestoresWhatWasReplaced(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	old := e.add("I live in Berlin", func(in *AddInput) { in.Key = "home.city"; in.Value = "Berlin" })
	e.observe("Remember I moved to Porto", facts(extracted{Text: "I moved to Porto", Key: "home.city", Value: "Porto"}))
	var added Change
	for _, c := range e.changes {
		if c.Kind == "added" && c.MessageID != "" {
			added = c
		}
	}
	if len(added.IDs) != 1 {
		t.Fatalf("changes = %+v", e.changes)
	}
	if _, err := e.s.Undo(ctx, added.IDs...); err != nil {
		t.Fatal(err)
	}
	ms := e.list(Filter{})
	if len(ms) != 1 || ms[0].ID != old.ID || ms[0].Status != StatusActive || ms[0].SupersededBy != "" || !ms[0].ValidUntil.IsZero() {
		t.Fatalf("after undo: %+v", ms)
	}
}

// TestForgetWhileAnotherProcessReads: a reader elsewhere (another Hermes
// process, here a second connection pool on the file) holds a read transaction,
// so the WAL cannot be emptied: the receipt says so instead of claiming a clean
// erase, the erase waits as a pending scrub, and once the reader is gone the
// retry scrubs the file and records it.
func TestForgetWhileAnotherProcessReads(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	m := e.add("My bank PIN hint is zqxpendingcanary")
	other, err := store.Open(ctx, e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	reader, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories`).Scan(&n); err != nil { // takes the read snapshot
		t.Fatal(err)
	}
	r, err := e.s.Forget(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Checkpointed || r.LexicalMatches != 0 || !strings.Contains(r.Summary(), "waiting to scrub the file") {
		t.Fatalf("receipt with a reader holding the WAL = %+v (%s)", r, r.Summary())
	}
	if pending, err := e.db.ScrubPending(ctx, r.TombstoneID); err != nil || !pending {
		t.Fatalf("pending = %v, %v", pending, err)
	}
	if ids, _ := e.db.RetryScrubs(ctx); len(ids) != 0 {
		t.Fatalf("scrubbed %v while the reader still reads", ids)
	}
	if _, err := reader.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	ids, err := e.db.RetryScrubs(ctx)
	if err != nil || len(ids) != 1 || ids[0] != r.TombstoneID {
		t.Fatalf("retry = %v, %v", ids, err)
	}
	if pending, _ := e.db.ScrubPending(ctx, r.TombstoneID); pending {
		t.Error("still pending after the retry")
	}
	if files := storetest.Holds(t, e.path, "zqxpendingcanary"); len(files) > 0 {
		t.Errorf("canary still in %v after the scrub", files)
	}
}

// TestBulkForgetIsBatchedUnderOneReceipt: 240-odd memories are erased in
// three transactions under one receipt and one tombstone counting all of them.
func TestBulkForgetIsBatchedUnderOneReceipt(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	seen := map[string]bool{}
	var ids []string
	for i := range 250 {
		id := e.add(fmt.Sprintf("My storage box %d holds winter coat number %d", i, i*3)).ID
		if !seen[id] { // a near-duplicate reinforces the memory it repeats
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) <= 2*forgetBatch {
		t.Fatalf("setup: only %d distinct memories", len(ids))
	}
	keep := e.add("I am allergic to peanuts")
	r, err := e.s.Forget(ctx, ids...)
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, id := range ids {
		if _, err := e.s.Get(ctx, id); err == nil {
			left++
		}
	}
	if left > 0 {
		t.Errorf("%d of %d memories are still there", left, len(ids))
	}
	ts, _ := e.s.Tombstones(ctx, 10)
	if r.Count < len(ids) || r.LexicalMatches != 0 || r.VectorMatches != 0 || !r.Checkpointed || len(ts) != 1 || ts[0].Count != r.Count || ts[0].ID != r.TombstoneID {
		t.Fatalf("receipt %+v, tombstones %+v", r, ts)
	}
	if _, err := e.s.Get(ctx, keep.ID); err != nil {
		t.Errorf("the memory not named is gone: %v", err)
	}
}

// TestBulkForgetLetsOtherWritersIn: while one process forgets 600 memories,
// another keeps writing (a second connection pool on the file locks it as
// another process does); every write succeeds without a long wait.
func TestBulkForgetLetsOtherWritersIn(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	var ids []string
	for i := range 600 {
		ids = append(ids, e.add(fmt.Sprintf("Parcel %d went to locker %d on floor %d", i, i*13, i%9)).ID)
	}
	other, err := store.Open(ctx, e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	done := make(chan error, 1)
	go func() { _, err := e.s.Forget(ctx, ids...); done <- err }()
	var longest time.Duration
	writes := 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
			start := time.Now()
			err := other.Tx(ctx, func(tx *sql.Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings(key, value, updated_at) VALUES ('recent_turns', ?, '2026-12-01T00:00:00Z')`, fmt.Sprint(writes%5+1))
				return err
			})
			if err != nil {
				t.Fatalf("write %d during the forget: %v", writes, err)
			}
			longest = max(longest, time.Since(start))
			writes++
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Logf("%d writes during the forget; the longest waited %s", writes, longest)
	if longest > 2*time.Second {
		t.Errorf("a writer waited %s", longest)
	}
}
