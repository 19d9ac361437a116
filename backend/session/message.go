package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"hermes/backend/store"
	"hermes/backend/text"
)

const messageCols = `id, session_id, COALESCE(ref, ''), seq, role, content, status, error, model,
	channel, intent, intent_confidence, pinned, kind, tool_name, details, created_at, parent_id, selected, thinking`

func scanMessage(row interface{ Scan(...any) error }) (Message, error) {
	var m Message
	var created string
	var parent sql.NullString
	err := row.Scan(&m.ID, &m.SessionID, &m.Ref, &m.Seq, &m.Role, &m.Content, &m.Status, &m.Error, &m.Model,
		&m.Channel, &m.Intent, &m.IntentConfidence, &m.Pinned, &m.Kind, &m.ToolName, &m.Details, &created, &parent, &m.Selected, &m.Thinking)
	m.CreatedAt = parseTS(created)
	m.Parent, m.Linked = parent.String, parent.Valid
	return m, err
}

func (st *Store) queryMessages(ctx context.Context, op, q string, args ...any) ([]Message, error) {
	stmt, err := st.db.Stmt(ctx, q) // a handful of fixed queries, run on every turn
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// Messages returns a session's messages in order.
func (st *Store) Messages(ctx context.Context, sessionID string) ([]Message, error) {
	return st.queryMessages(ctx, "load messages of "+sessionID,
		`SELECT `+messageCols+` FROM messages WHERE session_id = ? AND import_id IS NULL ORDER BY seq`, sessionID)
}

// Recent returns the newest n messages of a session, oldest first.
func (st *Store) Recent(ctx context.Context, sessionID string, n int) ([]Message, error) {
	msgs, err := st.queryMessages(ctx, "load recent messages of "+sessionID,
		`SELECT `+messageCols+` FROM messages WHERE session_id = ? AND import_id IS NULL ORDER BY seq DESC LIMIT ?`, sessionID, n)
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	return msgs, err
}

// ValidateText refuses an empty or oversized message, and one that holds a NUL
// character or is not UTF-8 (what an import or export could not carry back).
func ValidateText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: the message is empty", ErrInvalid)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return fmt.Errorf(`%w: the message holds a NUL character (\u0000); remove it`, ErrInvalid)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: the message is not valid UTF-8 text", ErrInvalid)
	}
	if len(text) > MaxMessageBytes {
		return fmt.Errorf("%w: the message is %d KiB; the limit is %d KiB", ErrInvalid, len(text)>>10, MaxMessageBytes>>10)
	}
	return nil
}

// Prepare checks a message and gives it its id and time without storing it, so a
// caller can refer to the message while Append commits it.
func (st *Store) Prepare(m Message) (Message, error) {
	if m.Role == "user" {
		if err := ValidateText(m.Content); err != nil {
			return Message{}, fmt.Errorf("append message: %w", err)
		}
	}
	if m.ID == "" {
		m.ID = st.NewID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = st.Now()
	}
	m.CreatedAt = m.CreatedAt.UTC()
	return m, nil
}

// appendAttempts is how often Append tries a write the database kept busy.
const appendAttempts = 3

// Append stores a message at the end of its session and returns it with its id
// (kept when Prepare gave it one), sequence number and time. It is acknowledged
// only after COMMIT. A message to an idle or archived session resumes it.
// When another process holds the database longer than the busy timeout, the
// write is tried again (appendAttempts in all), so a streamed reply is not
// lost to a long import or forget elsewhere.
func (st *Store) Append(ctx context.Context, m Message) (Message, error) {
	m, err := st.Prepare(m)
	if err != nil {
		return Message{}, err
	}
	var rev int64
	for attempt := 1; ; attempt++ {
		err = st.db.Tx(ctx, func(tx *sql.Tx) error {
			var err error
			rev, err = st.insert(ctx, tx, &m, true)
			return err
		})
		if err == nil || !store.IsBusy(err) || attempt == appendAttempts || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return Message{}, fmt.Errorf("append message: %w", err)
	}
	m.Context = "" // stored apart and not read back with the message
	st.hist.appended(m, rev)
	return m, nil
}

// insert writes one message inside tx. With touch (a message added to a live
// conversation) it updates the session and returns its rev after the insert; a
// user's message then leaves its search row to the backlog (see drainSearch), and
// any other message writes the backlog's rows with its own.
func (st *Store) insert(ctx context.Context, tx *sql.Tx, m *Message, touch bool) (int64, error) {
	if m.Status == "" {
		m.Status = StatusOK
	}
	if m.Channel == "" {
		m.Channel = "main"
	}
	if m.Kind == "" {
		m.Kind = "message"
	}
	var ref any
	if m.Ref != "" {
		ref = m.Ref
	}
	// One statement numbers and inserts the message; the foreign key refuses an unknown session.
	ins, err := st.db.TxStmt(ctx, tx, insertMessage)
	if err != nil {
		return 0, err
	}
	var rowid int64
	var parent sql.NullString
	err = ins.QueryRowContext(ctx, m.ID, m.SessionID, ref, m.Role, m.Content, m.Status, m.Error, m.Model, m.Channel,
		m.Intent, m.IntentConfidence, m.Pinned, m.Kind, m.ToolName, m.Details, ts(m.CreatedAt), m.Thinking, m.Channel, m.SessionID,
		m.SessionID).Scan(&rowid, &m.Seq, &parent)
	m.Parent, m.Linked, m.Selected = parent.String, parent.Valid, true
	if err != nil {
		if strings.Contains(err.Error(), "FOREIGN KEY") {
			return 0, fmt.Errorf("%q: %w", m.SessionID, ErrNotFound)
		}
		return 0, err
	}
	switch {
	case m.Content == "":
	case touch && m.Role == "user":
		if err := st.exec(ctx, tx, deferSearchRow, rowid); err != nil {
			return 0, err
		}
	default:
		if err := st.exec(ctx, tx, insertSearchRow, rowid, text.Segment(m.Content)); err != nil {
			return 0, err
		}
	}
	if m.Context != "" {
		if err := st.exec(ctx, tx, insertTurnContext, m.ID, m.Context); err != nil {
			return 0, err
		}
	}
	if !touch {
		return 0, nil
	}
	if m.Role != "user" {
		if err := st.drainSearch(ctx, tx); err != nil {
			return 0, err
		}
	}
	title := ""
	if m.Role == "user" {
		title = TitleFrom(m.Content)
	}
	upd, err := st.db.TxStmt(ctx, tx, touchSession)
	if err != nil {
		return 0, err
	}
	var rev int64
	err = upd.QueryRowContext(ctx, ts(m.CreatedAt), title, title, m.Channel, m.ID, m.SessionID).Scan(&rev)
	return rev, err
}

// drainSearch writes the search rows of the messages in the backlog.
func (st *Store) drainSearch(ctx context.Context, tx *sql.Tx) error {
	q, err := st.db.TxStmt(ctx, tx, searchBacklog)
	if err != nil {
		return err
	}
	rows, err := q.QueryContext(ctx)
	if err != nil {
		return err
	}
	type pending struct {
		rowid   int64
		content string
	}
	var todo []pending
	for rows.Next() {
		var p pending
		if err := rows.Scan(&p.rowid, &p.content); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(todo) == 0 {
		return err
	}
	for _, p := range todo {
		if err := st.exec(ctx, tx, insertSearchRow, p.rowid, text.Segment(p.content)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM search_backlog`)
	return err
}

// exec runs a prepared statement inside tx.
func (st *Store) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	s, err := st.db.TxStmt(ctx, tx, query)
	if err != nil {
		return err
	}
	_, err = s.ExecContext(ctx, args...)
	return err
}

// The statements every message write runs, prepared once (store.DB.Stmt).
const (
	insertMessage = `INSERT INTO messages(id, session_id, ref, seq, role, content, status, error, model, channel,
		intent, intent_confidence, pinned, kind, tool_name, details, created_at, thinking, parent_id)
		SELECT ?, ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
			CASE WHEN ? = 'main' THEN (SELECT leaf_id FROM sessions WHERE id = ?) END FROM messages WHERE session_id = ?
		RETURNING rowid, seq, parent_id`
	insertSearchRow   = `INSERT INTO messages_fts(rowid, body) VALUES (?, ?)`
	deferSearchRow    = `INSERT INTO search_backlog(message_rowid) VALUES (?)`
	insertTurnContext = `INSERT INTO turn_contexts(message_id, recipe) VALUES (?, ?)`
	searchBacklog     = `SELECT b.message_rowid, m.content FROM search_backlog b JOIN messages m ON m.rowid = b.message_rowid WHERE m.content <> ''`
	touchSession      = `UPDATE sessions SET updated_at = ?, state = 'active', closed_at = NULL,
		title = CASE WHEN title = '' AND title_auto = 1 AND ? <> '' THEN ? ELSE title END,
		leaf_id = CASE WHEN leaf_id IS NOT NULL AND ? = 'main' THEN ? ELSE leaf_id END WHERE id = ? RETURNING rev`
)

// PinMessage pins or unpins a message; pinned messages are always offered to the model.
func (st *Store) PinMessage(ctx context.Context, messageID string, pinned bool) error {
	res, err := st.db.ExecContext(ctx, `UPDATE messages SET pinned = ? WHERE id = ? OR ref = ?`, pinned, messageID, messageID)
	if err != nil {
		return fmt.Errorf("pin message %s: %w", messageID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("pin message %s: %w", messageID, ErrNotFound)
	}
	return nil
}

// TurnContext returns the prompt recipe stored with a reply of the session — the one
// with id replyID, or with "" the newest shown one (History: a version that is not
// chosen is passed over) that has one — and that reply's id; "" when there is none.
func (st *Store) TurnContext(ctx context.Context, sessionID, replyID string) (recipe, messageID string, err error) {
	if replyID == "" {
		return st.shownTurnContext(ctx, sessionID)
	}
	err = st.db.QueryRowContext(ctx, `SELECT t.recipe, t.message_id FROM turn_contexts t JOIN messages m ON m.id = t.message_id
		WHERE m.session_id = ? AND t.message_id = ?`, sessionID, replyID).Scan(&recipe, &messageID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("turn context of %s: %w", sessionID, err)
	}
	return recipe, messageID, nil
}

// shownTurnContext is TurnContext of the newest shown reply that kept a recipe.
func (st *Store) shownTurnContext(ctx context.Context, sessionID string) (recipe, messageID string, err error) {
	rows, err := st.db.QueryContext(ctx, `SELECT t.message_id FROM turn_contexts t JOIN messages m ON m.id = t.message_id
		WHERE m.session_id = ? ORDER BY m.seq DESC`, sessionID)
	if err != nil {
		return "", "", fmt.Errorf("turn context of %s: %w", sessionID, err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return "", "", fmt.Errorf("turn context of %s: %w", sessionID, err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return "", "", err
	}
	s, err := st.Get(ctx, sessionID)
	if err != nil {
		return "", "", fmt.Errorf("turn context of %s: %w", sessionID, err)
	}
	hist, err := st.History(ctx, s)
	if err != nil {
		return "", "", fmt.Errorf("turn context of %s: %w", sessionID, err)
	}
	shown := make(map[string]bool, len(hist))
	for _, m := range hist {
		shown[m.ID] = true
	}
	for _, id := range ids {
		if shown[id] {
			return st.TurnContext(ctx, sessionID, id)
		}
	}
	return "", "", nil
}

// SessionOf returns the id of the session a message (by id or ref) belongs to.
func (st *Store) SessionOf(ctx context.Context, messageID string) (string, error) {
	var id string
	err := st.db.QueryRowContext(ctx, `SELECT session_id FROM messages WHERE id = ? OR ref = ? LIMIT 1`, messageID, messageID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("message %q: %w", messageID, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("find the session of message %s: %w", messageID, err)
	}
	return id, nil
}
