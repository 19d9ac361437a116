package session

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

const messageCols = `id, session_id, COALESCE(ref, ''), seq, role, content, status, error, model,
	channel, intent, intent_confidence, pinned, kind, tool_name, created_at`

func scanMessage(row interface{ Scan(...any) error }) (Message, error) {
	var m Message
	var created string
	err := row.Scan(&m.ID, &m.SessionID, &m.Ref, &m.Seq, &m.Role, &m.Content, &m.Status, &m.Error, &m.Model,
		&m.Channel, &m.Intent, &m.IntentConfidence, &m.Pinned, &m.Kind, &m.ToolName, &created)
	m.CreatedAt = parseTS(created)
	return m, err
}

func (st *Store) queryMessages(ctx context.Context, op, q string, args ...any) ([]Message, error) {
	rows, err := st.db.QueryContext(ctx, q, args...)
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
		`SELECT `+messageCols+` FROM messages WHERE session_id = ? ORDER BY seq`, sessionID)
}

// Recent returns the newest n messages of a session, oldest first.
func (st *Store) Recent(ctx context.Context, sessionID string, n int) ([]Message, error) {
	msgs, err := st.queryMessages(ctx, "load recent messages of "+sessionID,
		`SELECT `+messageCols+` FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?`, sessionID, n)
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	return msgs, err
}

// ValidateText refuses an empty or oversized message.
func ValidateText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: the message is empty", ErrInvalid)
	}
	if len(text) > MaxMessageBytes {
		return fmt.Errorf("%w: the message is %d KiB; the limit is %d KiB", ErrInvalid, len(text)>>10, MaxMessageBytes>>10)
	}
	return nil
}

// Append stores a message at the end of its session and returns it with its id,
// sequence number and time. It is acknowledged only after COMMIT. A message to an
// idle or archived session resumes it.
func (st *Store) Append(ctx context.Context, m Message) (Message, error) {
	if m.Role == "user" {
		if err := ValidateText(m.Content); err != nil {
			return Message{}, fmt.Errorf("append message: %w", err)
		}
	}
	m.ID = st.NewID()
	m.CreatedAt = st.Now().UTC()
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		return st.insert(ctx, tx, &m, true)
	})
	if err != nil {
		return Message{}, fmt.Errorf("append message: %w", err)
	}
	return m, nil
}

// insert writes one message and its search row inside tx. touch updates the session.
func (st *Store) insert(ctx context.Context, tx *sql.Tx, m *Message, touch bool) error {
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
	var rowid int64
	err := tx.QueryRowContext(ctx, `INSERT INTO messages(id, session_id, ref, seq, role, content, status, error, model, channel,
		intent, intent_confidence, pinned, kind, tool_name, created_at)
		SELECT ?, ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM messages WHERE session_id = ?
		RETURNING rowid, seq`,
		m.ID, m.SessionID, ref, m.Role, m.Content, m.Status, m.Error, m.Model, m.Channel,
		m.Intent, m.IntentConfidence, m.Pinned, m.Kind, m.ToolName, ts(m.CreatedAt), m.SessionID).Scan(&rowid, &m.Seq)
	if err != nil {
		if strings.Contains(err.Error(), "FOREIGN KEY") {
			return fmt.Errorf("%q: %w", m.SessionID, ErrNotFound)
		}
		return err
	}
	if m.Content != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages_fts(rowid, body) VALUES (?, ?)`, rowid, Segment(m.Content)); err != nil {
			return err
		}
	}
	if !touch {
		return nil
	}
	title := ""
	if m.Role == "user" {
		title = TitleFrom(m.Content)
	}
	_, err = tx.ExecContext(ctx, `UPDATE sessions SET updated_at = ?, state = 'active', closed_at = NULL,
		title = CASE WHEN title = '' AND title_auto = 1 AND ? <> '' THEN ? ELSE title END WHERE id = ?`,
		ts(m.CreatedAt), title, title, m.SessionID)
	return err
}

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
