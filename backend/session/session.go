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

	"hermes/backend/retrieval"
	"hermes/backend/store"
)

// ErrNotFound is returned for an unknown session id.
var ErrNotFound = errors.New("session not found")

// ErrInvalid marks bad input: an empty or oversized message, a malformed import line.
var ErrInvalid = errors.New("invalid input")

// MaxMessageBytes is the largest message accepted (about 50 pages of text).
const MaxMessageBytes = 256 << 10

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
	MessageCount int    // every message, the summary's arithmetic
	Shown        int    // the messages a person sees: user messages and replies on the shown path
	State        string // active, idle, archived
	Pinned       bool
	Summary      string // rolling summary of turns that no longer fit the context
	SummaryUpto  int    // last message seq the summary covers
	SummaryKind  string // "llm" or "extractive"
	Rev          int64  // counts changes to the messages; see History
	// ProjectID is the project the conversation is in ("" none).
	ProjectID string
	// Incognito is a chat kept only while the Hermes that started it runs:
	// no search finds it, and it is erased when that process closes.
	Incognito bool
}

// Message is one stored message.
type Message struct {
	ID        string
	SessionID string
	Ref       string
	Seq       int
	Role      string
	Content   string
	// Thinking is a reply's reasoning (a thinking model's); never sent back to the model.
	Thinking         string
	Status           string
	Error            string
	Model            string
	Channel          string
	Intent           string
	IntentConfidence float32
	Pinned           bool
	Kind             string // message, routing, final
	ToolName         string
	Details          string // JSON the agent keeps with the message (tool call, loop stop); '' for none
	// Parent is the message before it on its branch when Linked; an unlinked
	// message follows the previous message of the main channel (see Visible).
	Parent   string
	Linked   bool
	Selected bool // the shown one of its versions
	// Context is written with the message into turn_contexts (see TurnContext); it is
	// not read back with the message.
	Context   string
	CreatedAt time.Time
}

// Store keeps sessions in the database.
type Store struct {
	db    *store.DB
	Now   func() time.Time
	NewID func() string
	// Profile names the memory profile a new session belongs to (the user's
	// active one); nil is "personal".
	Profile func(ctx context.Context) string
	hist    historyCache
	words   *retrieval.Index // the messages' full-text index (messages_fts)
}

// NewStore returns a session store over db.
func NewStore(db *store.DB) *Store {
	return &Store{db: db, Now: time.Now, NewID: newID, words: retrieval.NewIndex(db, "messages_fts", `SELECT COUNT(*) FROM messages`)}
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
	return st.create(ctx, title, "")
}

// CreateIncognito starts an incognito session owned by the process named
// owner (a procid string): see Session.Incognito and Incognito.
func (st *Store) CreateIncognito(ctx context.Context, owner string) (Session, error) {
	if owner == "" {
		return Session{}, fmt.Errorf("create incognito session: %w: no owner", ErrInvalid)
	}
	return st.create(ctx, "", owner)
}

func (st *Store) create(ctx context.Context, title, owner string) (Session, error) {
	now := st.Now()
	profile := "personal"
	if st.Profile != nil {
		profile = st.Profile(ctx)
	}
	s := Session{ID: st.NewID(), Title: title, Profile: profile, CreatedAt: now.UTC(), UpdatedAt: now.UTC(), State: StateActive, Incognito: owner != ""}
	_, err := st.db.ExecContext(ctx, `INSERT INTO sessions(id, title, title_auto, profile, created_at, updated_at, incognito_owner)
		VALUES (?, ?, ?, ?, ?, ?, NULLIF(?, ''))`, s.ID, s.Title, title == "", s.Profile, ts(now), ts(now), owner)
	if err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	return s, nil
}

const sessionCols = `s.id, COALESCE(s.ref, ''), s.title, s.profile, s.created_at, s.updated_at,
	(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.import_id IS NULL), ` + shownCount + `,
	s.state, s.pinned, s.summary, s.summary_upto, s.summary_kind, s.rev, s.incognito_owner IS NOT NULL, COALESCE(s.project_id, '')`

// shownCount counts what Visible shows of the main channel, less tool records:
// every user message and reply while the conversation is a line (leaf_id
// NULL), else those on the path from the shown leaf up its parents (see
// branch.go).
const shownCount = `CASE WHEN s.leaf_id IS NULL THEN
		(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.import_id IS NULL
			AND m.channel = 'main' AND m.role IN ('user', 'assistant'))
	ELSE (WITH RECURSIVE up(id) AS (SELECT s.leaf_id
			UNION ALL SELECT m.parent_id FROM messages m JOIN up ON m.id = up.id WHERE m.parent_id <> '')
		SELECT COUNT(*) FROM up JOIN messages m ON m.id = up.id WHERE m.role IN ('user', 'assistant'))
	END`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated string
	err := row.Scan(&s.ID, &s.Ref, &s.Title, &s.Profile, &created, &updated, &s.MessageCount, &s.Shown,
		&s.State, &s.Pinned, &s.Summary, &s.SummaryUpto, &s.SummaryKind, &s.Rev, &s.Incognito, &s.ProjectID)
	s.CreatedAt, s.UpdatedAt = parseTS(created), parseTS(updated)
	return s, err
}

const getSession = `SELECT ` + sessionCols + ` FROM sessions s WHERE s.id = ? OR s.ref = ?`

// Get returns one session by id or ref.
func (st *Store) Get(ctx context.Context, id string) (Session, error) {
	q, err := st.db.Stmt(ctx, getSession) // every turn reads it
	if err != nil {
		return Session{}, fmt.Errorf("get session %q: %w", id, err)
	}
	s, err := scanSession(q.QueryRowContext(ctx, id, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("get session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("get session %q: %w", id, err)
	}
	return s, nil
}

// Entry is a conversation as a list shows it: no summary, and of its
// messages only the count a person sees.
type Entry struct {
	ID                   string
	Title                string
	CreatedAt, UpdatedAt time.Time
	Shown                int // as Session.Shown
	State                string
	Pinned, Incognito    bool
	ProjectID            string
}

// Entry is the session as a list shows it.
func (s Session) Entry() Entry {
	return Entry{ID: s.ID, Title: s.Title, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Shown: s.Shown,
		State: s.State, Pinned: s.Pinned, Incognito: s.Incognito, ProjectID: s.ProjectID}
}

const listSessions = `SELECT s.id, s.title, s.created_at, s.updated_at, ` + shownCount + `, s.state, s.pinned,
	s.incognito_owner IS NOT NULL, COALESCE(s.project_id, '') FROM sessions s WHERE s.import_id IS NULL
	ORDER BY s.pinned DESC, s.updated_at DESC, s.id DESC`

// List returns the conversations, most recently active first.
func (st *Store) List(ctx context.Context) ([]Entry, error) {
	rows, err := st.db.QueryContext(ctx, listSessions)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := make([]Entry, 0, 64)
	for rows.Next() {
		var e Entry
		var created, updated string
		if err := rows.Scan(&e.ID, &e.Title, &created, &updated, &e.Shown, &e.State, &e.Pinned, &e.Incognito, &e.ProjectID); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		e.CreatedAt, e.UpdatedAt = parseTS(created), parseTS(updated)
		out = append(out, e)
	}
	return out, rows.Err()
}

// TitleFrom makes a short title from the first words of a message.
func TitleFrom(text string) string {
	if refs := DocumentRefs(text); len(refs) > 0 { // a document's line is no title; its name is
		if text = WithoutDocumentRefs(text); strings.TrimSpace(text) == "" {
			text = refs[0].Name
		}
	}
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
