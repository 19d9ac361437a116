package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hermes/backend/procid"
	"hermes/backend/store"
)

func importLines(sessions, perSession int) []ImportLine {
	var lines []ImportLine
	for s := range sessions {
		for m := range perSession {
			role := "user"
			if m%2 == 1 {
				role = "assistant"
			}
			lines = append(lines, ImportLine{Session: fmt.Sprintf("imp%d", s), ID: fmt.Sprintf("m%d", m), Role: role,
				Content: fmt.Sprintf("imported line %d of %d about the harvest festival", m, s)})
		}
	}
	return lines
}

// TestImportLetsOtherWritersIn: while one process imports (here a second
// connection pool on the same file, which locks it as another process does),
// another one keeps writing; no write fails or waits long, and nothing of the
// import shows until it is published whole.
func TestImportLetsOtherWritersIn(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "hermes.db")
	dbA, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer dbA.Close()
	dbB, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer dbB.Close()
	importer, writer := NewStore(dbA), NewStore(dbB)
	chat, _ := writer.Create(ctx, "")

	lines := importLines(40, 500) // 20,000 messages
	done := make(chan error, 1)
	var mu sync.Mutex
	var sawPartial bool
	go func() {
		_, err := importer.Import(ctx, lines, func(d, total int) {
			if d < total {
				list, _ := writer.List(ctx)
				hits, _ := writer.Search(ctx, "harvest", 5)
				mu.Lock()
				sawPartial = sawPartial || len(list) > 1 || len(hits) > 0
				mu.Unlock()
			}
		})
		done <- err
	}()
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
			if _, err := writer.Append(ctx, Message{SessionID: chat.ID, Role: "user", Content: fmt.Sprintf("typed while importing %d", writes)}); err != nil {
				t.Fatalf("write %d during the import: %v", writes, err)
			}
			longest = max(longest, time.Since(start))
			writes++
			time.Sleep(5 * time.Millisecond)
		}
	}
	t.Logf("%d writes during the import; the longest waited %s", writes, longest)
	if writes < 5 || longest > 3*time.Second {
		t.Errorf("%d writes, the longest waited %s", writes, longest)
	}
	if sawPartial {
		t.Error("a half-done import was visible")
	}
	list, _ := writer.List(ctx)
	msgs, _ := writer.Messages(ctx, chat.ID)
	if len(list) != 41 || len(msgs) != writes {
		t.Errorf("after the import: %d sessions, %d typed messages of %d", len(list), len(msgs), writes)
	}
	if hits, _ := writer.Search(ctx, "harvest", 5); len(hits) == 0 {
		t.Error("the published import is not searchable")
	}
}

// TestImportFailureAndCrashLeaveNothing: an import cancelled half-way is rolled
// back at once; one whose process died is rolled back by the next open.
func TestImportFailureAndCrashLeaveNothing(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	keep, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: keep.ID, Role: "user", Content: "kept"})

	cctx, cancel := context.WithCancel(ctx)
	_, err := st.Import(cctx, importLines(10, 200), func(d, _ int) {
		if d >= 1000 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: %v", err)
	}
	assertOnly := func(what string) {
		t.Helper()
		var sessions, messages, fts, jobs int
		st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions`).Scan(&sessions)
		st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages`).Scan(&messages)
		st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH 'harvest'`).Scan(&fts)
		st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports`).Scan(&jobs)
		if sessions != 1 || messages != 1 || fts != 0 || jobs != 0 {
			t.Errorf("%s: %d sessions, %d messages, %d index rows, %d import jobs left", what, sessions, messages, fts, jobs)
		}
	}
	assertOnly("after a cancelled import")

	// A crash: a chunk was written as Import writes it, and the process died
	// before publishing (a child process stands for the importer).
	clock := time.Now()
	st.Now = func() time.Time { return clock }
	job := "dead-import"
	dead := exec.Command("sleep", "30")
	dead.Start()
	owner := procid.Of(dead.Process.Pid)
	st.db.ExecContext(ctx, `INSERT INTO imports(id, owner, started_at, heartbeat_at) VALUES (?, ?, ?, ?)`, job, owner.String(), ts(clock), ts(clock))
	err = st.db.Tx(ctx, func(tx *sql.Tx) error {
		w := newImportWriter(st, job)
		for _, l := range importLines(3, 100) {
			if err := w.write(ctx, tx, l); err != nil {
				return err
			}
		}
		if err := w.flush(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE messages SET import_id = ? WHERE rowid > 1`, job)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var left int
	st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE import_id IS NOT NULL`).Scan(&left)
	if left == 0 {
		t.Fatal("setup: the crashed import left nothing to recover")
	}
	if n, err := st.RecoverImports(ctx); err != nil || n != 0 {
		t.Fatalf("the import of a running process was rolled back: %d, %v", n, err)
	}
	dead.Process.Kill() // the importer dies
	dead.Wait()
	if n, err := st.RecoverImports(ctx); err != nil || n != 1 {
		t.Fatalf("recover = %d, %v", n, err)
	}
	assertOnly("after recovering a crashed import")
}
