package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"hermes/backend/jsonl"
)

// ImportLine is one line of a JSONL import (DESIGN.md section 7): "session" is the
// session's ref, "id" the message's ref.
type ImportLine struct {
	Session   string `json:"session"`
	ID        string `json:"id"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	CreatedAt string `json:"created_at"`
}

// ImportResult counts what an import did.
type ImportResult struct {
	Sessions int `json:"sessions"`
	Messages int `json:"messages"`
	Skipped  int `json:"skipped"` // lines whose message ref was already imported
}

// LineError names the line of an import that is wrong.
type LineError = jsonl.LineError

var validRoles = map[string]bool{"user": true, "assistant": true, "system": true, "tool": true}

// ParseImport reads and validates every line before anything is written.
func ParseImport(r io.Reader) ([]ImportLine, error) {
	lines, err := jsonl.Decode(r, jsonl.Options{MaxLine: 2 * MaxMessageBytes, Strict: true,
		Shape: "a JSON object with session, id, role, content, created_at"}, func(_ int, l ImportLine) error {
		switch {
		case l.Session == "":
			return errors.New(`"session" (the session's ref) is missing`)
		case l.ID == "":
			return errors.New(`"id" (the message's ref) is missing`)
		case !validRoles[l.Role]:
			return fmt.Errorf(`"role" is %q; use user, assistant, system or tool`, l.Role)
		case len(l.Content) > MaxMessageBytes:
			return fmt.Errorf(`"content" is over %d KiB`, MaxMessageBytes>>10)
		}
		if l.CreatedAt != "" {
			if _, err := time.Parse(time.RFC3339Nano, l.CreatedAt); err != nil {
				return fmt.Errorf(`"created_at" %q is not an RFC 3339 time such as 2026-01-31T09:30:00Z`, l.CreatedAt)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import: nothing was imported: %w: %w", ErrInvalid, err)
	}
	return lines, nil
}

// Import writes validated lines in one transaction: all of it or nothing. Sessions are
// found or created by ref; a message whose ref is already in its session is skipped.
func (st *Store) Import(ctx context.Context, lines []ImportLine) (ImportResult, error) {
	var res ImportResult
	sessions := map[string]string{}  // ref -> id
	firstUser := map[string]string{} // id -> first user message imported
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, l := range lines {
			id, ok := sessions[l.Session]
			if !ok {
				err := tx.QueryRowContext(ctx, `SELECT id FROM sessions WHERE ref = ?`, l.Session).Scan(&id)
				if errors.Is(err, sql.ErrNoRows) {
					id = st.NewID()
					now := ts(st.Now())
					if _, err := tx.ExecContext(ctx, `INSERT INTO sessions(id, ref, title, created_at, updated_at, state) VALUES (?, ?, '', ?, ?, 'idle')`,
						id, l.Session, now, now); err != nil {
						return err
					}
					res.Sessions++
				} else if err != nil {
					return err
				}
				sessions[l.Session] = id
			}
			var exists int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE session_id = ? AND ref = ?`, id, l.ID).Scan(&exists); err != nil {
				return err
			}
			if exists > 0 {
				res.Skipped++
				continue
			}
			m := Message{ID: st.NewID(), SessionID: id, Ref: l.ID, Role: l.Role, Content: l.Content, CreatedAt: st.Now().UTC()}
			if l.CreatedAt != "" {
				m.CreatedAt, _ = time.Parse(time.RFC3339Nano, l.CreatedAt)
			}
			if _, err := st.insert(ctx, tx, &m, false); err != nil {
				return err
			}
			res.Messages++
			if _, seen := firstUser[id]; !seen && l.Role == "user" {
				firstUser[id] = l.Content
			}
		}
		for _, id := range sessions {
			if _, err := tx.ExecContext(ctx, `UPDATE sessions SET
				created_at = COALESCE((SELECT MIN(created_at) FROM messages WHERE session_id = ?), created_at),
				updated_at = COALESCE((SELECT MAX(created_at) FROM messages WHERE session_id = ?), updated_at)
				WHERE id = ?`, id, id, id); err != nil {
				return err
			}
			if first, ok := firstUser[id]; ok {
				if _, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ? AND title = '' AND title_auto = 1`, TitleFrom(first), id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", err)
	}
	return res, nil
}

// Export is a session as JSON.
type Export struct {
	Session  ExportSession   `json:"session"`
	Messages []ExportMessage `json:"messages"`
}

// ExportSession is the session part of an export.
type ExportSession struct {
	ID        string `json:"id"`
	Ref       string `json:"ref,omitempty"`
	Title     string `json:"title"`
	Profile   string `json:"profile"`
	State     string `json:"state"`
	Summary   string `json:"summary,omitempty"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// ExportMessage is one message of an export.
type ExportMessage struct {
	ID        string `json:"id"`
	Ref       string `json:"ref,omitempty"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	Status    string `json:"status"`
	Model     string `json:"model,omitempty"`
	Channel   string `json:"channel"`
	CreatedAt string `json:"created_at"`
}

// ExportJSON returns a session with all its messages.
func (st *Store) ExportJSON(ctx context.Context, id string) (Export, error) {
	s, err := st.Get(ctx, id)
	if err != nil {
		return Export{}, fmt.Errorf("export: %w", err)
	}
	msgs, err := st.Messages(ctx, s.ID)
	if err != nil {
		return Export{}, fmt.Errorf("export: %w", err)
	}
	e := Export{Session: ExportSession{ID: s.ID, Ref: s.Ref, Title: s.Title, Profile: s.Profile, State: s.State, Summary: s.Summary,
		CreatedAt: ts(s.CreatedAt), UpdatedAt: ts(s.UpdatedAt)}, Messages: []ExportMessage{}}
	for _, m := range msgs {
		e.Messages = append(e.Messages, ExportMessage{ID: m.ID, Ref: m.Ref, Role: m.Role, Content: m.Content, Status: m.Status,
			Model: m.Model, Channel: m.Channel, CreatedAt: ts(m.CreatedAt)})
	}
	return e, nil
}

// ExportMarkdown renders a session as a Markdown document.
func (st *Store) ExportMarkdown(ctx context.Context, id string) (string, error) {
	e, err := st.ExportJSON(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	title := e.Session.Title
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n_Exported from Hermes. Session %s, started %s._\n", title, e.Session.ID, e.Session.CreatedAt)
	names := map[string]string{"user": "You", "assistant": "Hermes", "system": "System", "tool": "Tool"}
	for _, m := range e.Messages {
		fmt.Fprintf(&b, "\n## %s · %s\n\n%s\n", names[m.Role], m.CreatedAt, m.Content)
		if m.Status != StatusOK {
			fmt.Fprintf(&b, "\n_(%s)_\n", m.Status)
		}
	}
	return b.String(), nil
}
