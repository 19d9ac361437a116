// Package store opens the one SQLite file that holds everything Hermes keeps,
// applies the embedded migrations and offers a transaction helper.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3" // the "sqlite3" driver (build with -tags sqlite_fts5)
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// ErrNewerSchema means the file was written by a newer Hermes; it is never altered.
var ErrNewerSchema = errors.New("database schema is newer than this build")

// ErrNotDatabase means the file at the path is not a readable SQLite database.
var ErrNotDatabase = errors.New("not a SQLite database")

// ErrReadOnly means the database or its directory cannot be written (a
// read-only disk or folder, or another user's file): nothing was changed.
var ErrReadOnly = errors.New("the data dir is read-only")

// ErrDamaged means SQLite's quick check found damage after an unclean stop:
// Hermes does not write to the file until the user restores or recovers it.
var ErrDamaged = errors.New("the database file is damaged")

// BusyTimeout is how long a write waits for another writer (another Hermes
// process importing, say) before it fails with "database is locked".
const BusyTimeout = 30 * time.Second

// IsBusy reports whether err is SQLite's "database is locked": another writer
// (another Hermes process) held the database for longer than BusyTimeout.
func IsBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// DB is an open Hermes database.
type DB struct {
	*sql.DB
	Path string

	stmts sync.Map // query text -> *sql.Stmt

	// OnWait, when set (by the composition root, before use), hears true when a
	// transaction has waited WaitNotice for the write lock (another process is
	// writing) and false once it has it: the UI says "waiting for another Hermes
	// process".
	OnWait func(waiting bool)

	opened os.FileInfo // the file as opened (CheckFile)
	// Created is whether this open made the schema (the file had none): its
	// tables hold nothing yet.
	Created bool
}

// WaitNotice is how long a transaction waits for the write lock before OnWait
// hears of it.
const WaitNotice = 500 * time.Millisecond

// Stmt returns query prepared once for the life of the database (database/sql keeps
// it prepared on each connection that runs it). For the hot paths: preparing costs
// about as much as running a short statement. Use it in a transaction with
// tx.StmtContext.
func (db *DB) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := db.stmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := db.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// TxStmt is Stmt bound to tx (closed with the transaction).
func (db *DB) TxStmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	s, err := db.Stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, s), nil
}

// Close closes the prepared statements and the database.
func (db *DB) Close() error {
	db.stmts.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
	return db.DB.Close()
}

// Migration is one embedded schema step.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations returns the embedded migrations in order.
func Migrations() ([]Migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("read migrations: bad file name %q (want NNNN_name.sql)", name)
		}
		body, err := migrationFiles.ReadFile(path.Join("migrations", name))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("read migrations: version %d out of sequence at %s", m.Version, m.Name)
		}
	}
	return out, nil
}

// Open opens (creating if needed) the database at file and migrates it to the
// newest schema this build knows. A file that is not SQLite, or one written by a
// newer schema, is refused and left untouched.
func Open(ctx context.Context, file string) (*DB, error) {
	if err := checkHeader(file); err != nil {
		return nil, err
	}
	// A WAL left behind means the last process did not close the file (it
	// crashed, or it still runs): check the pages before writing to them.
	// A damage found before is remembered beside the file (closing the file
	// removes the WAL), until a check finds the file sound again.
	unclean := false
	if fi, err := os.Stat(file + "-wal"); err == nil && fi.Size() > 0 {
		unclean = true
	}
	marker := file + "-check" // beside -wal and -shm
	if _, err := os.Stat(marker); err == nil {
		unclean = true
	}
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(BusyTimeout.Milliseconds(), 10))
	q.Set("_foreign_keys", "on")
	q.Set("_journal_mode", "WAL")
	q.Set("_secure_delete", "on")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: file}).EscapedPath() + "?" + q.Encode()
	sdb, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", file, err)
	}
	// Keep connections open: opening one runs the pragmas above, and a turn's
	// writes and reads run side by side.
	sdb.SetMaxIdleConns(8)
	db := &DB{DB: sdb, Path: file}
	if err := db.PingContext(ctx); err != nil {
		sdb.Close()
		if readOnly(err) {
			return nil, readOnlyError(file, err)
		}
		if IsDiskFull(err) {
			return nil, fmt.Errorf("open database %s: %w: free some space on that disk, then start Hermes again; the file was not changed (%v)", file, ErrDiskFull, err)
		}
		return nil, fmt.Errorf("open database %s: %w: %v", file, ErrNotDatabase, err)
	}
	if unclean {
		res, err := db.quickCheck(ctx)
		if err != nil {
			res = err.Error()
		}
		if res != "ok" {
			_ = os.WriteFile(marker, []byte(res+"\n"), 0o600)
			sdb.Close()
			return nil, fmt.Errorf("open database %s: %w (quick check: %s); it was not changed: run `hermes doctor` for what to do", file, ErrDamaged, res)
		}
		_ = os.Remove(marker)
	}
	if err := db.migrate(ctx); err != nil {
		sdb.Close()
		if readOnly(err) {
			return nil, readOnlyError(file, err)
		}
		if IsDiskFull(err) {
			return nil, fmt.Errorf("open database %s: %w: free some space on that disk, then start Hermes again (%v)", file, ErrDiskFull, err)
		}
		return nil, err
	}
	db.opened, _ = os.Stat(file)
	return db, nil
}

// readOnly reports whether err is SQLite refusing to write or create the file.
func readOnly(err error) bool {
	var se sqlite3.Error
	return errors.Is(err, os.ErrPermission) || errors.As(err, &se) && (se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrCantOpen || se.Code == sqlite3.ErrPerm)
}

func readOnlyError(file string, err error) error {
	return fmt.Errorf("open database %s: %w or not writable by this user (%v); fix its permissions, or choose a writable --data-dir; the file was not changed", file, ErrReadOnly, err)
}

// quickCheck runs SQLite's quick check; "ok" when no damage is found.
func (db *DB) quickCheck(ctx context.Context) (string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA quick_check(5)`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "; "), rows.Err()
}

// checkHeader refuses an existing non-empty file that is not SQLite, before the
// driver could touch it.
func checkHeader(file string) error {
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if errors.Is(err, os.ErrPermission) {
		return readOnlyError(file, err)
	}
	if err != nil {
		return fmt.Errorf("open database %s: %w", file, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && (errors.Is(err, io.EOF)) {
		return nil // an empty file becomes a new database
	}
	if err != nil || !bytes.Equal(head, sqliteHeader) {
		return fmt.Errorf("open database %s: %w (the file is corrupt or is something else); it was not changed: move it aside or choose another --data-dir", file, ErrNotDatabase)
	}
	return nil
}

func (db *DB) migrate(ctx context.Context) error {
	migs, err := Migrations()
	if err != nil {
		return err
	}
	latest := migs[len(migs)-1].Version
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate %s: %w: %v", db.Path, ErrNotDatabase, err)
	}
	current, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	db.Created = current == 0
	if current > latest {
		return fmt.Errorf("migrate %s: %w: the file has schema %d, this build knows up to %d; upgrade Hermes or use another --data-dir (the file was not changed)", db.Path, ErrNewerSchema, current, latest)
	}
	for _, m := range migs {
		if m.Version <= current {
			continue
		}
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)`,
				m.Version, m.Name, time.Now().UTC().Format(time.RFC3339Nano))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate %s to %s: %w", db.Path, m.Name, err)
		}
	}
	return nil
}

// SchemaVersion is the highest migration applied to the file.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version of %s: %w", db.Path, err)
	}
	return int(v.Int64), nil
}

// Tx runs fn in one immediate transaction; it commits when fn returns nil.
func (db *DB) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	var tx *sql.Tx
	var err error
	if db.OnWait == nil {
		tx, err = db.BeginTx(ctx, nil)
	} else {
		told := make(chan struct{})
		t := time.AfterFunc(WaitNotice, func() { db.OnWait(true); close(told) })
		tx, err = db.BeginTx(ctx, nil)
		if !t.Stop() {
			<-told
			db.OnWait(false)
		}
	}
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}

// Integrity runs SQLite's integrity check and returns its findings ("ok" when sound).
func (db *DB) Integrity(ctx context.Context) (string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return "", fmt.Errorf("integrity check of %s: %w", db.Path, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", fmt.Errorf("integrity check of %s: %w", db.Path, err)
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "; "), rows.Err()
}
