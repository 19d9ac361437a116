package tools

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"

	"hermes/backend/store"
)

// AuditEntry is one row of the audit log.
type AuditEntry struct {
	ID             int64         `json:"id"`
	RequestID      string        `json:"request_id"`
	SessionID      string        `json:"session_id,omitempty"`
	CallID         string        `json:"call_id,omitempty"`
	Tool           string        `json:"tool"`
	Arguments      string        `json:"arguments"` // JSON, secrets redacted
	Status         Status        `json:"status"`
	ErrorKind      string        `json:"error_kind,omitempty"`
	Error          string        `json:"error,omitempty"`
	Latency        time.Duration `json:"latency_ns"`
	Breaker        string        `json:"breaker,omitempty"`
	DefinitionHash string        `json:"definition_hash,omitempty"`
	CreatedAt      time.Time     `json:"created_at"`
}

// AuditSink receives one entry per call; the executor writes every call to it.
type AuditSink interface {
	Record(ctx context.Context, e AuditEntry) error
}

// AuditFilter selects audit rows; zero fields match everything.
type AuditFilter struct {
	Tool      string
	Status    Status
	SessionID string
	RequestID string
	BeforeID  int64 // rows older than this id (paging); 0: from the newest
	Limit     int   // default 100, at most 1000
}

// AuditLog is the audit log in the tool_calls table.
type AuditLog struct {
	db *store.DB

	mu     sync.Mutex // one writer at a time: SQLite has one anyway, and a burst of calls should not open a connection each
	insert *sql.Stmt  // prepared on first use, under mu
}

// NewAuditLog returns the audit log over db.
func NewAuditLog(db *store.DB) *AuditLog { return &AuditLog{db: db} }

// maxStoredError caps the error text kept in one row.
const maxStoredError = 1 << 10

// Record appends an entry; it is written when Record returns nil.
func (l *AuditLog) Record(ctx context.Context, e AuditEntry) error {
	var session any
	if e.SessionID != "" {
		session = e.SessionID
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.insert == nil {
		stmt, err := l.db.PrepareContext(ctx, `INSERT INTO tool_calls(request_id, session_id, call_id, tool, arguments, status,
			error_kind, error, latency_us, breaker, definition_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("audit call of %s: %w", e.Tool, err)
		}
		l.insert = stmt
	}
	_, err := l.insert.ExecContext(ctx,
		e.RequestID, session, e.CallID, e.Tool, e.Arguments, string(e.Status), e.ErrorKind, truncate(e.Error, maxStoredError),
		e.Latency.Microseconds(), e.Breaker, e.DefinitionHash, e.CreatedAt.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("audit call of %s: %w", e.Tool, err)
	}
	return nil
}

// Query returns the newest rows that match f, newest first.
func (l *AuditLog) Query(ctx context.Context, f AuditFilter) ([]AuditEntry, error) {
	var where []string
	var args []any
	add := func(cond string, v any) { where = append(where, cond); args = append(args, v) }
	if f.Tool != "" {
		add("tool = ?", f.Tool)
	}
	if f.Status != "" {
		add("status = ?", string(f.Status))
	}
	if f.SessionID != "" {
		add("session_id = ?", f.SessionID)
	}
	if f.RequestID != "" {
		add("request_id = ?", f.RequestID)
	}
	if f.BeforeID > 0 {
		add("id < ?", f.BeforeID)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1000)
	q := `SELECT id, request_id, COALESCE(session_id, ''), call_id, tool, arguments, status, error_kind, error, latency_us,
		breaker, definition_hash, created_at FROM tool_calls`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, limit)
	rows, err := l.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query tool log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var status, created string
		var us int64
		if err := rows.Scan(&e.ID, &e.RequestID, &e.SessionID, &e.CallID, &e.Tool, &e.Arguments, &status, &e.ErrorKind, &e.Error,
			&us, &e.Breaker, &e.DefinitionHash, &created); err != nil {
			return nil, fmt.Errorf("query tool log: %w", err)
		}
		e.Status, e.Latency = Status(status), time.Duration(us)*time.Microsecond
		if e.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, fmt.Errorf("query tool log: row %d: bad time %q", e.ID, created)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query tool log: %w", err)
	}
	return out, nil
}

// ensure the SQL types satisfy the interfaces the executor consumes.
var (
	_ AuditSink = (*AuditLog)(nil)
	_ Grants    = (*SQLGrants)(nil)
	_ Grants    = (*MemoryGrants)(nil)
)

// Close releases the prepared statement; the database stays open.
func (l *AuditLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.insert == nil {
		return nil
	}
	err := l.insert.Close()
	l.insert = nil
	return err
}
