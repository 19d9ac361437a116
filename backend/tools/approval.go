package tools

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"hermes/backend/store"
)

// Scope is how long a "yes" lasts.
type Scope string

// Scopes.
const (
	ScopeOnce    Scope = "once"    // this call only
	ScopeSession Scope = "session" // this tool, with this definition, for the rest of the session
)

// ApprovalRequest is what the user is shown before a call runs: the full
// arguments, unredacted, and what the tool is.
type ApprovalRequest struct {
	RequestID      string          `json:"request_id"`
	SessionID      string          `json:"session_id"`
	CallID         string          `json:"call_id"`
	Tool           string          `json:"tool"`
	Description    string          `json:"description"`
	Args           json.RawMessage `json:"args"`
	Annotations    Annotations     `json:"annotations"`
	DefinitionHash string          `json:"definition_hash"`
}

// Decision is the user's answer.
type Decision struct {
	Allow bool  `json:"allow"`
	Scope Scope `json:"scope"` // "" means once
}

// Approver asks the user (a dialog, a terminal prompt, or a policy such as --yes).
// It blocks until the user answers or ctx ends.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

// AllowAll approves every call (scripts run with --yes; a direct user call).
type AllowAll struct{}

// Approve allows the call once.
func (AllowAll) Approve(context.Context, ApprovalRequest) (Decision, error) {
	return Decision{Allow: true, Scope: ScopeOnce}, nil
}

// Grants remembers "allow for this session", bound to the tool's definition hash.
type Grants interface {
	Granted(ctx context.Context, sessionID, tool, hash string) (bool, error)
	Grant(ctx context.Context, sessionID, tool, hash string) error
}

// MemoryGrants keeps grants in memory (tests, or no database).
type MemoryGrants struct {
	mu sync.Mutex
	m  map[[2]string]string
}

// NewMemoryGrants returns an empty in-memory grant store.
func NewMemoryGrants() *MemoryGrants { return &MemoryGrants{m: map[[2]string]string{}} }

// Granted reports whether tool with this definition is allowed in the session.
func (g *MemoryGrants) Granted(_ context.Context, sessionID, tool, hash string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h, ok := g.m[[2]string{sessionID, tool}]
	return ok && h == hash, nil
}

// Grant allows tool with this definition for the rest of the session.
func (g *MemoryGrants) Grant(_ context.Context, sessionID, tool, hash string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.m[[2]string{sessionID, tool}] = hash
	return nil
}

// SQLGrants keeps grants in the tool_approvals table, so they last as long as the
// session (deleting the session deletes them).
type SQLGrants struct {
	db  *store.DB
	Now func() time.Time
}

// NewSQLGrants returns a grant store over db.
func NewSQLGrants(db *store.DB) *SQLGrants { return &SQLGrants{db: db, Now: time.Now} }

// Granted reports whether tool with this definition is allowed in the session.
func (g *SQLGrants) Granted(ctx context.Context, sessionID, tool, hash string) (bool, error) {
	var h string
	err := g.db.QueryRowContext(ctx, `SELECT definition_hash FROM tool_approvals WHERE session_id = ? AND tool = ?`, sessionID, tool).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read approval of %s: %w", tool, err)
	}
	return h == hash, nil
}

// Grant allows tool with this definition for the rest of the session.
func (g *SQLGrants) Grant(ctx context.Context, sessionID, tool, hash string) error {
	_, err := g.db.ExecContext(ctx, `INSERT INTO tool_approvals(session_id, tool, definition_hash, granted_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(session_id, tool) DO UPDATE SET definition_hash = excluded.definition_hash, granted_at = excluded.granted_at`,
		sessionID, tool, hash, g.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("store approval of %s: %w", tool, err)
	}
	return nil
}

// Revoke forgets every grant of a session (the user's "ask me again").
func (g *SQLGrants) Revoke(ctx context.Context, sessionID string) error {
	if _, err := g.db.ExecContext(ctx, `DELETE FROM tool_approvals WHERE session_id = ?`, sessionID); err != nil {
		return fmt.Errorf("revoke approvals of session %s: %w", sessionID, err)
	}
	return nil
}
