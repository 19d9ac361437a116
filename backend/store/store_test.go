package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
	migs, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	latest := migs[len(migs)-1].Version

	t.Run("fresh file is migrated to the latest schema", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "hermes.db")
		db, err := Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		v, err := db.SchemaVersion(ctx)
		if err != nil || v != latest {
			t.Fatalf("schema version = %d, %v; want %d", v, err, latest)
		}
		var mode string
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
		}
		for pragma, want := range map[string]int{"foreign_keys": 1, "secure_delete": 1, "busy_timeout": int(BusyTimeout.Milliseconds())} {
			var got int
			if err := db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil || got != want {
				t.Errorf("PRAGMA %s = %d, %v; want %d", pragma, got, err, want)
			}
		}
	})

	t.Run("existing database keeps its rows and is not migrated twice", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "hermes.db")
		db, err := Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO settings(key, value, updated_at) VALUES ('k', 'v', 'now')`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db, err = Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != latest {
			t.Fatalf("schema_migrations rows = %d, %v; want %d", n, err, latest)
		}
		var v string
		if err := db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key='k'`).Scan(&v); err != nil || v != "v" {
			t.Fatalf("setting lost: %q, %v", v, err)
		}
	})

	t.Run("newer schema is refused and not altered", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "hermes.db")
		db, err := Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations(version, name, applied_at) VALUES (999, '0999_future.sql', 'x')`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before := checkpointed(t, file)
		_, err = Open(ctx, file)
		if !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("err = %v; want ErrNewerSchema", err)
		}
		if !strings.Contains(err.Error(), "999") || !strings.Contains(err.Error(), file) {
			t.Errorf("error %q should name the file and the schema version", err)
		}
		if after := checkpointed(t, file); !bytes.Equal(before, after) {
			t.Error("database file changed after a refused open")
		}
	})

	t.Run("non-SQLite file is refused and not overwritten", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "hermes.db")
		junk := []byte("these are my notes, not a database\n")
		if err := os.WriteFile(file, junk, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, file)
		if !errors.Is(err, ErrNotDatabase) || !strings.Contains(err.Error(), file) {
			t.Fatalf("err = %v; want ErrNotDatabase naming the file", err)
		}
		got, _ := os.ReadFile(file)
		if !bytes.Equal(got, junk) {
			t.Error("file was modified")
		}
	})

	t.Run("corrupt SQLite file gives a clear error", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "hermes.db")
		db, err := Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		data := checkpointed(t, file)
		for i := 16; i < len(data); i++ { // keep the header, scramble the rest
			data[i] ^= 0x5a
		}
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err = Open(ctx, file)
		if err == nil || !strings.Contains(err.Error(), file) {
			t.Fatalf("err = %v; want an error naming %s", err, file)
		}
		got, _ := os.ReadFile(file)
		if !bytes.Equal(got, data) {
			t.Error("corrupt file was modified")
		}
	})
}

func TestTxRollsBackOnError(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	boom := errors.New("boom")
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value, updated_at) VALUES ('a', 'b', 'c')`); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	var n int
	db.QueryRowContext(ctx, `SELECT COUNT(*) FROM settings`).Scan(&n)
	if n != 0 {
		t.Fatalf("rows after rollback = %d", n)
	}
	if s, err := db.Integrity(ctx); err != nil || s != "ok" {
		t.Fatalf("integrity = %q, %v", s, err)
	}
}

// checkpointed returns the bytes of a closed database file, with the WAL folded in.
func checkpointed(t *testing.T, file string) []byte {
	t.Helper()
	if _, err := os.Stat(file + "-wal"); err == nil {
		t.Fatalf("%s-wal still exists after close", file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// twoProcesses opens one file twice, as two Hermes processes would (SQLite
// locks the file, not the connection pool).
func twoProcesses(t *testing.T) (*DB, *DB) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "hermes.db")
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	return dbs[0], dbs[1]
}

func TestIsBusy(t *testing.T) {
	ctx := context.Background()
	a, b := twoProcesses(t)
	holder, _ := a.Conn(ctx)
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	waiter, _ := b.Conn(ctx)
	defer waiter.Close()
	waiter.ExecContext(ctx, `PRAGMA busy_timeout = 10`)
	_, err := waiter.ExecContext(ctx, `CREATE TABLE t(x)`)
	if !IsBusy(err) {
		t.Fatalf("a write while another holds the lock: %v (IsBusy false)", err)
	}
	holder.ExecContext(ctx, `ROLLBACK`)
	if IsBusy(errors.New("database is locked")) {
		t.Error("IsBusy matches text, not the SQLite code")
	}
}

// TestTxSaysWhenItWaits: a transaction held up by another process's write lock
// tells OnWait, and again when it goes on.
func TestTxSaysWhenItWaits(t *testing.T) {
	ctx := context.Background()
	a, b := twoProcesses(t)
	var mu sync.Mutex
	var heard []bool
	b.OnWait = func(w bool) { mu.Lock(); heard = append(heard, w); mu.Unlock() }
	if err := b.Tx(ctx, func(*sql.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	holder, _ := a.Conn(ctx)
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(WaitNotice+300*time.Millisecond, func() { holder.ExecContext(ctx, `ROLLBACK`) })
	if err := b.Tx(ctx, func(tx *sql.Tx) error { _, err := tx.ExecContext(ctx, `CREATE TABLE w(x)`); return err }); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 2 || !heard[0] || heard[1] {
		t.Errorf("OnWait heard %v; want [true false] (and nothing for the unhindered transaction)", heard)
	}
}

// TestDamageIsNoticedAfterAnUncleanStop: a page of the file is overwritten and
// the WAL of a process that did not close the file is still there; Open runs
// the quick check and refuses the file, unchanged.
func TestDamageIsNoticedAfterAnUncleanStop(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "hermes.db")
	db, err := Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE filler(x TEXT)`); err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		db.ExecContext(ctx, `INSERT INTO filler VALUES (?)`, strings.Repeat(string(rune('a'+i%26)), 500))
	}
	db.Close()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), 4096*20)
	f.Close()
	before, _ := os.ReadFile(file)
	os.WriteFile(file+"-wal", []byte("left by a process that was killed"), 0o600)

	_, err = Open(ctx, file)
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "hermes doctor") {
		t.Fatalf("open of a damaged file after an unclean stop: %v", err)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Error("the damaged file was changed")
	}
}

// TestReadOnlyIsSaid: a file SQLite may not write is reported as read-only,
// not as "not a SQLite database".
func TestReadOnlyIsSaid(t *testing.T) {
	err := readOnlyError("/x/hermes.db", sqlite3.Error{Code: sqlite3.ErrReadonly})
	if !errors.Is(err, ErrReadOnly) || errors.Is(err, ErrNotDatabase) || !strings.Contains(err.Error(), "choose a writable --data-dir") {
		t.Fatalf("%v", err)
	}
	if !readOnly(sqlite3.Error{Code: sqlite3.ErrCantOpen}) || !readOnly(fmt.Errorf("x: %w", os.ErrPermission)) || readOnly(errors.New("disk I/O error")) {
		t.Error("readOnly misclassifies")
	}
}
