// Package session keeps conversations and their messages in SQLite.
package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"hermes/backend/store"
)

// ErrNotFound is returned for an unknown session id.
var ErrNotFound = errors.New("session not found")

// Message statuses.
const (
	StatusOK        = "ok"
	StatusCancelled = "cancelled"
	StatusFailed    = "failed"
)

// Session is one conversation.
type Session struct {
	ID           string
	Ref          string
	Title        string
	Profile      string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	MessageCount int
}

// Message is one stored message.
type Message struct {
	ID               string
	SessionID        string
	Ref              string
	Seq              int
	Role             string
	Content          string
	Status           string
	Error            string
	Model            string
	Channel          string
	Intent           string
	IntentConfidence float32
	CreatedAt        time.Time
}

// Store keeps sessions in the database.
type Store struct {
	db    *store.DB
	Now   func() time.Time
	NewID func() string
}

// NewStore returns a session store over db.
func NewStore(db *store.DB) *Store {
	return &Store{db: db, Now: time.Now, NewID: newID}
}

// newID is a UUIDv7: time-ordered and collision-free.
func newID() string { return uuid.Must(uuid.NewV7()).String() }

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTS(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// Create starts a new session.
func (st *Store) Create(ctx context.Context, title string) (Session, error) {
	now := st.Now()
	s := Session{ID: st.NewID(), Title: title, Profile: "personal", CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	_, err := st.db.ExecContext(ctx, `INSERT INTO sessions(id, title, profile, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		s.ID, s.Title, s.Profile, ts(now), ts(now))
	if err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	return s, nil
}

const sessionCols = `s.id, COALESCE(s.ref, ''), s.title, s.profile, s.created_at, s.updated_at,
	(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated string
	err := row.Scan(&s.ID, &s.Ref, &s.Title, &s.Profile, &created, &updated, &s.MessageCount)
	s.CreatedAt, s.UpdatedAt = parseTS(created), parseTS(updated)
	return s, err
}

// Get returns one session by id or ref.
func (st *Store) Get(ctx context.Context, id string) (Session, error) {
	row := st.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ? OR s.ref = ?`, id, id)
	s, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("get session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("get session %q: %w", id, err)
	}
	return s, nil
}

// List returns sessions, most recently active first.
func (st *Store) List(ctx context.Context) ([]Session, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions s ORDER BY s.updated_at DESC, s.id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Messages returns a session's messages in order.
func (st *Store) Messages(ctx context.Context, sessionID string) ([]Message, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id, session_id, COALESCE(ref, ''), seq, role, content, status, error, model,
		channel, intent, intent_confidence, created_at FROM messages WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("load messages of %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		var created string
		if err := rows.Scan(&m.ID, &m.SessionID, &m.Ref, &m.Seq, &m.Role, &m.Content, &m.Status, &m.Error, &m.Model,
			&m.Channel, &m.Intent, &m.IntentConfidence, &created); err != nil {
			return nil, fmt.Errorf("load messages of %s: %w", sessionID, err)
		}
		m.CreatedAt = parseTS(created)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Append stores a message at the end of its session and returns it with its id,
// sequence number and time. It is acknowledged only after COMMIT.
func (st *Store) Append(ctx context.Context, m Message) (Message, error) {
	if m.Status == "" {
		m.Status = StatusOK
	}
	if m.Channel == "" {
		m.Channel = "main"
	}
	m.ID = st.NewID()
	m.CreatedAt = st.Now().UTC()
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		var title string
		if err := tx.QueryRowContext(ctx, `SELECT title FROM sessions WHERE id = ?`, m.SessionID).Scan(&title); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("%q: %w", m.SessionID, ErrNotFound)
			}
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = ?`, m.SessionID).Scan(&m.Seq); err != nil {
			return err
		}
		var ref any
		if m.Ref != "" {
			ref = m.Ref
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages(id, session_id, ref, seq, role, content, status, error, model, channel,
			intent, intent_confidence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.SessionID, ref, m.Seq, m.Role, m.Content, m.Status, m.Error, m.Model, m.Channel,
			m.Intent, m.IntentConfidence, ts(m.CreatedAt)); err != nil {
			return err
		}
		if title == "" && m.Role == "user" {
			title = TitleFrom(m.Content)
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET updated_at = ?, title = ? WHERE id = ?`, ts(m.CreatedAt), title, m.SessionID)
		return err
	})
	if err != nil {
		return Message{}, fmt.Errorf("append message: %w", err)
	}
	return m, nil
}

// TitleFrom makes a short title from the first words of a message.
func TitleFrom(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	const max = 48
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	r := []rune(text)[:max]
	if i := strings.LastIndex(string(r), " "); i > max/2 {
		return string(r)[:i] + "…"
	}
	return string(r) + "…"
}
