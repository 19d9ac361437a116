package session

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"hermes/backend/retrieval"
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
	expr := retrieval.MatchAll(query)
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

// search ranks the messages matching expr above minRowid with the shared
// engine (retrieval.Index), then reads the found ones a chat list shows
// (imported history and incognito chats are not searched), best first.
func (st *Store) search(ctx context.Context, query, expr string, minRowid int64, limit int) ([]Hit, error) {
	found, err := st.words.Rank(ctx, retrieval.Ranking{Expr: expr, Limit: limit, Where: "rowid > ?", Args: []any{minRowid}})
	if err != nil || len(found) == 0 {
		return nil, wrapSearch(query, err)
	}
	args := make([]any, len(found))
	score := make(map[int64]float64, len(found))
	for i, h := range found {
		args[i], score[h.ID] = h.ID, h.Score
	}
	rows, err := st.db.QueryContext(ctx, `
		SELECT m.rowid, m.session_id, s.title, m.id, m.seq, m.role, m.content, m.created_at, s.state
		FROM messages m JOIN sessions s ON s.id = m.session_id
		WHERE m.rowid IN (?`+strings.Repeat(", ?", len(found)-1)+`) AND m.import_id IS NULL AND s.incognito_owner IS NULL`, args...)
	if err != nil {
		return nil, wrapSearch(query, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		var rowid int64
		var content string
		if err := rows.Scan(&rowid, &h.SessionID, &h.SessionTitle, &h.MessageID, &h.Seq, &h.Role, &content, &h.CreatedAt, &h.State); err != nil {
			return nil, wrapSearch(query, err)
		}
		h.Score = score[rowid]
		h.Snippet = Snippet(content, query, 120)
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out, wrapSearch(query, rows.Err())
}

func wrapSearch(query string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("search %q: %w", query, err)
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
// the messages but not their index, or when text.Segment's form changed): the
// old index is emptied whole (no old term's bytes stay) and every message goes
// to the search backlog, which is written out here.
func (st *Store) RebuildSearch(ctx context.Context) error {
	return st.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages_fts(messages_fts) VALUES ('delete-all')`); err != nil {
			return fmt.Errorf("rebuild search: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO search_backlog(message_rowid) SELECT rowid FROM messages WHERE content <> ''`); err != nil {
			return fmt.Errorf("rebuild search: %w", err)
		}
		return st.drainSearch(ctx, tx)
	})
}
