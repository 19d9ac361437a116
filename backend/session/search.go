package session

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"hermes/backend/text"
)

// Hit is one search result.
type Hit struct {
	SessionID    string
	SessionTitle string
	MessageID    string
	Seq          int
	Role         string
	Snippet      []Fragment
	Score        float64 // higher is better
	CreatedAt    string
	State        string
}

// Search finds messages across all sessions (archived ones too), best match first
// (BM25), with snippets. It works for English and Chinese.
func (st *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	expr := text.MatchExpr(query)
	if expr == "" {
		return nil, fmt.Errorf("search: %w: the query has no words", ErrInvalid)
	}
	if limit <= 0 || limit > 200 {
		limit = 20
	}
	if err := st.flushSearch(ctx); err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	// Ranking every match of a very common word is the slow part of FTS5, so rank the
	// newest messages first; only when they hold too few matches is the whole history
	// ranked (then there are few matches, and that is fast).
	var newest int64
	if err := st.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), 0) FROM messages`).Scan(&newest); err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	out, err := st.search(ctx, query, expr, newest-searchWindow, limit)
	if err == nil && len(out) < limit && newest > searchWindow {
		out, err = st.search(ctx, query, expr, 0, limit)
	}
	return out, err
}

// flushSearch writes the search rows still in the backlog (a user's message whose
// reply has not been stored yet, or was never stored because the app stopped), so
// a search sees every message.
func (st *Store) flushSearch(ctx context.Context) error {
	var pending bool
	if err := st.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM search_backlog)`).Scan(&pending); err != nil || !pending {
		return err
	}
	return st.db.Tx(ctx, func(tx *sql.Tx) error { return st.drainSearch(ctx, tx) })
}

// searchWindow is how many of the newest messages are ranked first.
const searchWindow = 20000

func (st *Store) search(ctx context.Context, query, expr string, minRowid int64, limit int) ([]Hit, error) {
	rows, err := st.db.QueryContext(ctx, `
		SELECT m.session_id, s.title, m.id, m.seq, m.role, m.content, f.rank, m.created_at, s.state
		FROM (SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? AND rowid > ? ORDER BY rank LIMIT ?) f
		JOIN messages m ON m.rowid = f.rowid
		JOIN sessions s ON s.id = m.session_id
		WHERE m.import_id IS NULL AND s.incognito_owner IS NULL
		ORDER BY f.rank`, expr, minRowid, limit)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		var content string
		var rank float64
		if err := rows.Scan(&h.SessionID, &h.SessionTitle, &h.MessageID, &h.Seq, &h.Role, &content, &rank, &h.CreatedAt, &h.State); err != nil {
			return nil, fmt.Errorf("search %q: %w", query, err)
		}
		h.Score = -rank
		h.Snippet = Snippet(content, query, 120)
		out = append(out, h)
	}
	return out, rows.Err()
}

// SnippetText renders a snippet as plain text with the matches in [brackets].
func SnippetText(frags []Fragment) string {
	var b strings.Builder
	for _, f := range frags {
		if f.Match {
			b.WriteString("[" + f.Text + "]")
		} else {
			b.WriteString(f.Text)
		}
	}
	return b.String()
}

// RebuildSearch indexes every message again (after a recovery, which copies
// the messages but not their index): they go to the search backlog, which is
// written out here.
func (st *Store) RebuildSearch(ctx context.Context) error {
	return st.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages_fts`); err != nil {
			return fmt.Errorf("rebuild search: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO search_backlog(message_rowid) SELECT rowid FROM messages WHERE content <> ''`); err != nil {
			return fmt.Errorf("rebuild search: %w", err)
		}
		return st.drainSearch(ctx, tx)
	})
}
