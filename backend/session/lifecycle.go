package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"hermes/backend/retrieval"
	"hermes/backend/store"
)

// Session states.
const (
	StateActive   = "active"
	StateIdle     = "idle"
	StateArchived = "archived"
)

// CloseHook summarizes and titles a session when it goes idle. It returns the summary
// and a title ("" keeps the current one).
type CloseHook func(ctx context.Context, s Session, msgs []Message) (summary, title string, err error)

// Lifecycle moves sessions from active to idle after IdleAfter without messages
// (running the close hook), and from idle to archived after ArchiveAfter.
type Lifecycle struct {
	Store        *Store
	IdleAfter    time.Duration
	ArchiveAfter time.Duration
	Close        CloseHook
	// Archived hears each session the sweep archived (working memories end with it).
	Archived func(ctx context.Context, sessionID string)
}

// EmptyKeptFor is how long a conversation without a single message is kept: a
// chat opened and never written in (a window that closed or crashed before its
// first message) goes at the next sweep after it, unless the user pinned or
// named it.
const EmptyKeptFor = 24 * time.Hour

// dropEmpty deletes the conversations that never got a message, a day on.
func (l *Lifecycle) dropEmpty(ctx context.Context, now time.Time) (int, error) {
	rows, err := l.Store.db.QueryContext(ctx, `SELECT id FROM sessions s WHERE s.updated_at < ? AND s.incognito_owner IS NULL AND s.import_id IS NULL
		AND s.pinned = 0 AND s.title_auto = 1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id)`, ts(now.Add(-EmptyKeptFor)))
	if err != nil {
		return 0, fmt.Errorf("sweep empty sessions: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for i, id := range ids {
		if _, err := l.Store.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			return i, fmt.Errorf("sweep empty sessions: %w", err)
		}
	}
	return len(ids), nil
}

// Sweep applies the lifecycle at now and returns how many sessions changed state.
// Due reports whether a conversation is due to close (the only sweep work that
// may ask the model): a sweep without it needs no model, nor a look for one.
func (l *Lifecycle) Due(ctx context.Context, now time.Time) (bool, error) {
	var due bool
	err := l.Store.db.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM sessions WHERE state = 'active' AND updated_at < ?)`,
		ts(now.Add(-l.IdleAfter))).Scan(&due)
	if err != nil {
		return false, fmt.Errorf("sweep sessions: %w", err)
	}
	return due, nil
}

func (l *Lifecycle) Sweep(ctx context.Context, now time.Time) (int, error) {
	changed, err := l.dropEmpty(ctx, now)
	if err != nil {
		return changed, err
	}
	rows, err := l.Store.db.QueryContext(ctx, `SELECT id FROM sessions WHERE state = 'active' AND updated_at < ?`, ts(now.Add(-l.IdleAfter)))
	if err != nil {
		return 0, fmt.Errorf("sweep sessions: %w", err)
	}
	var idle []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sweep sessions: %w", err)
		}
		idle = append(idle, id)
	}
	rows.Close()
	for _, id := range idle {
		if err := l.close(ctx, id, now); err != nil {
			return changed, err
		}
		changed++
	}
	if l.ArchiveAfter > 0 {
		rows, err := l.Store.db.QueryContext(ctx, `UPDATE sessions SET state = 'archived' WHERE state = 'idle' AND pinned = 0 AND updated_at < ?
			RETURNING id`, ts(now.Add(-l.ArchiveAfter)))
		if err != nil {
			return changed, fmt.Errorf("archive sessions: %w", err)
		}
		var archived []string
		for rows.Next() {
			var id string
			if rows.Scan(&id) == nil {
				archived = append(archived, id)
			}
		}
		rows.Close()
		changed += len(archived)
		if l.Archived != nil {
			for _, id := range archived {
				l.Archived(ctx, id)
			}
		}
	}
	return changed, nil
}

// close runs the close hook and marks the session idle.
func (l *Lifecycle) close(ctx context.Context, id string, now time.Time) error {
	s, err := l.Store.Get(ctx, id)
	if err != nil {
		return err
	}
	all, err := l.Store.Messages(ctx, id)
	if err != nil {
		return err
	}
	msgs := ChannelOnly(Visible(all), MainChannel) // the conversation as shown is what is titled
	summary, title := s.Summary, ""
	if l.Close != nil && len(msgs) > 0 {
		sum, t, err := l.Close(ctx, s, msgs)
		if err == nil {
			summary, title = sum, t
		}
	}
	if summary == "" {
		summary = ExtractiveSummary("", msgs)
	}
	_, err = l.Store.db.ExecContext(ctx, `UPDATE sessions SET state = 'idle', closed_at = ?, summary = ?,
		title = CASE WHEN title_auto = 1 AND ? <> '' THEN ? ELSE title END WHERE id = ?`,
		ts(now), summary, title, title, id)
	if err != nil {
		return fmt.Errorf("close session %s: %w", id, err)
	}
	return nil
}

// ExtractiveSummary is the summary used when no LLM is reachable: the previous summary
// followed by the first sentence of each user message.
func ExtractiveSummary(previous string, msgs []Message) string {
	var b strings.Builder
	b.WriteString(previous)
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		line := firstSentence(m.Content, 120)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("- The user said: ")
		b.WriteString(line)
	}
	return b.String()
}

func firstSentence(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.IndexAny(s, ".!?。！？\n"); i > 0 {
		end := i + 1
		for end < len(s) && (s[end]&0xC0) == 0x80 { // finish a multi-byte rune
			end++
		}
		s = s[:end]
	}
	r := []rune(s)
	if len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

func (st *Store) update(ctx context.Context, op, id, q string, args ...any) error {
	res, err := st.db.ExecContext(ctx, q, append(args, id, id)...)
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s %s: %w", op, id, ErrNotFound)
	}
	return nil
}

// Rename sets a session's title; it is no longer replaced automatically.
func (st *Store) Rename(ctx context.Context, id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return fmt.Errorf("rename session %s: %w: the title is empty", id, ErrInvalid)
	}
	return st.update(ctx, "rename session", id, `UPDATE sessions SET title = ?, title_auto = 0 WHERE id = ? OR ref = ?`, title)
}

// Pin keeps a session at the top of the list and out of automatic archiving.
func (st *Store) Pin(ctx context.Context, id string, pinned bool) error {
	return st.update(ctx, "pin session", id, `UPDATE sessions SET pinned = ? WHERE id = ? OR ref = ?`, pinned)
}

// Archive archives a session now; it stays searchable, and a new message resumes it.
func (st *Store) Archive(ctx context.Context, id string) error {
	return st.update(ctx, "archive session", id, `UPDATE sessions SET state = 'archived', closed_at = ? WHERE id = ? OR ref = ?`, ts(st.Now()))
}

// Unarchive brings an archived session back to the main list.
func (st *Store) Unarchive(ctx context.Context, id string) error {
	return st.update(ctx, "unarchive session", id, `UPDATE sessions SET state = 'idle', updated_at = ? WHERE id = ? OR ref = ?`, ts(st.Now()))
}

// SetSummary stores the rolling summary covering messages up to seq upto.
func (st *Store) SetSummary(ctx context.Context, id, summary, kind string, upto int) error {
	return st.update(ctx, "store summary of", id,
		`UPDATE sessions SET summary = ?, summary_kind = ?, summary_upto = ? WHERE id = ? OR ref = ?`, summary, kind, upto)
}

// DeleteReceipt proves a conversation's deletion reached the disk.
type DeleteReceipt struct {
	ID        string    `json:"id"` // the receipt's id
	SessionID string    `json:"session_id"`
	At        time.Time `json:"at"`
	Messages  int       `json:"messages"`
	// Documents are the files attached to its messages that were erased with
	// them, Images how many of those were images.
	Documents int `json:"documents"`
	Images    int `json:"images"`
	// LexicalMatches is what a search for the deleted messages' texts still
	// finds of them afterwards: 0 when the erase is complete.
	LexicalMatches int `json:"lexical_matches"`
	// Checkpointed is false when another process held the database open for
	// reading: the text is gone from every table and index, and a background
	// retry scrubs the WAL file and records it.
	Checkpointed bool `json:"checkpointed"`
}

// Summary says in one line what the receipt proves.
func (r DeleteReceipt) Summary() string {
	what := fmt.Sprintf("%d messages", r.Messages)
	switch {
	case r.Images > 0:
		what += fmt.Sprintf(" with %d attached files (%d images)", r.Documents, r.Images)
	case r.Documents > 0:
		what += fmt.Sprintf(" with %d attached files", r.Documents)
	}
	s := fmt.Sprintf("deleted %s (receipt %s): a new search finds %d of them", what, r.ID, r.LexicalMatches)
	if !r.Checkpointed {
		s += "; waiting to scrub the file (another Hermes process is reading the database; it is retried in the background)"
	}
	return s
}

// Delete deletes a session for good: its messages, their search-index entries
// (secure-delete, and a merge when a word is left without documents), its tool
// calls and prompt recipes (cascades); then the WAL is checkpointed so none of
// its text stays in the files.
func (st *Store) Delete(ctx context.Context, id string) (DeleteReceipt, error) {
	s, err := st.Get(ctx, id)
	if err != nil {
		return DeleteReceipt{}, fmt.Errorf("delete session: %w", err)
	}
	r := DeleteReceipt{ID: st.NewID(), SessionID: s.ID, At: st.Now().UTC()}
	var texts []string
	rowids := map[int64]bool{}
	err = st.db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, content FROM messages WHERE session_id = ?`, s.ID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var rowid int64
			var c string
			if err := rows.Scan(&rowid, &c); err != nil {
				rows.Close()
				return err
			}
			rowids[rowid] = true
			texts = append(texts, c)
		}
		rows.Close()
		texts = append(texts, s.Title, s.Summary)
		summaries, err := channelSummaryTexts(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		texts = append(texts, summaries...)
		if _, err := tx.ExecContext(ctx, `DELETE FROM channel_summaries WHERE session_id = ?`, s.ID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(kind = 'image'), 0) FROM documents
			WHERE message_id IN (SELECT id FROM messages WHERE session_id = ?)`, s.ID).Scan(&r.Documents, &r.Images); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM messages WHERE session_id = ?)`, s.ID); err != nil {
			return err
		}
		// The documents go with their messages (ON DELETE CASCADE), an image's
		// bytes with them: secure_delete zeroes the pages they held.
		res, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ?`, s.ID)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		r.Messages = int(n)
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, s.ID); err != nil {
			return err
		}
		return store.PurgeTerms(ctx, tx, "messages_fts", texts)
	})
	st.hist.forget(s.ID)
	if err != nil {
		return DeleteReceipt{}, fmt.Errorf("delete session %s: %w", id, err)
	}
	r.LexicalMatches = st.stillFound(ctx, texts, rowids)
	if r.Checkpointed, err = st.db.Scrub(ctx, r.ID, "session"); err != nil {
		return r, fmt.Errorf("delete session %s: %w", id, err)
	}
	return r, nil
}

// UserTexts returns the distinct texts of a session's user messages, every
// version and every channel included (what the user typed in it).
func (st *Store) UserTexts(ctx context.Context, id string) ([]string, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT DISTINCT content FROM messages WHERE session_id = ? AND role = 'user'`, id)
	if err != nil {
		return nil, fmt.Errorf("read user messages of %s: %w", id, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("read user messages of %s: %w", id, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read user messages of %s: %w", id, err)
	}
	return out, nil
}

// SaidElsewhere reports whether a user message of another session than id
// has exactly this text.
func (st *Store) SaidElsewhere(ctx context.Context, id, content string) (bool, error) {
	var n int
	err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE role = 'user' AND content = ? AND session_id <> ? LIMIT 1)`, content, id).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look for a message elsewhere: %w", err)
	}
	return n > 0, nil
}

// stillFound searches the index for each deleted text again and counts hits
// on the deleted rows.
func (st *Store) stillFound(ctx context.Context, texts []string, rowids map[int64]bool) int {
	n := 0
	for _, gone := range texts {
		expr := retrieval.MatchAll(gone)
		if expr == "" {
			continue
		}
		rows, err := st.db.QueryContext(ctx, `SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?`, expr)
		if err != nil {
			continue
		}
		for rows.Next() {
			var id int64
			if rows.Scan(&id) == nil && rowids[id] {
				n++
			}
		}
		rows.Close()
	}
	return n
}

// IncognitoOwners are the incognito sessions and the process each belongs to
// (a procid string), oldest first.
func (st *Store) IncognitoOwners(ctx context.Context) (map[string]string, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id, incognito_owner FROM sessions WHERE incognito_owner IS NOT NULL ORDER BY created_at`)
	if err != nil {
		return nil, fmt.Errorf("list incognito sessions: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, owner string
		if err := rows.Scan(&id, &owner); err != nil {
			return nil, fmt.Errorf("list incognito sessions: %w", err)
		}
		out[id] = owner
	}
	return out, rows.Err()
}
