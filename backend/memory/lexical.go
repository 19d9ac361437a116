package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"hermes/backend/retrieval"
	"hermes/backend/store"
	"hermes/backend/text"
)

// The lexical index (memories_fts) holds the active memories: body is the text
// segmented for CJK by text.Segment, scope one token naming the profile.

// scopeToken is the FTS token of a profile.
func scopeToken(profile string) string { return "p" + store.Digest("profile\x00" + profile)[:20] }

func ftsInsert(ctx context.Context, tx *sql.Tx, rid int64, profile, body, key string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO memories_fts(rowid, body, scope) VALUES (?, ?, ?)`, rid, text.Segment(indexText(body, key)), scopeToken(profile))
	return err
}

// indexText is what the indexes see of a memory: its text and the words of its key
// ("pets.cats" adds "pets cats"), so a question about pets finds the cats.
func indexText(text, key string) string {
	if key == "" {
		return text
	}
	return text + "\n" + strings.NewReplacer(".", " ", "_", " ", "-", " ").Replace(key)
}

func ftsDelete(ctx context.Context, tx *sql.Tx, rids ...int64) error {
	for _, rid := range rids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories_fts WHERE rowid = ?`, rid); err != nil {
			return err
		}
	}
	return nil
}

// matchAny is an FTS5 query for rows whose body has any of terms; with profile set,
// only rows of that profile.
func matchAny(profile string, terms []string) string {
	var scopes []string
	if profile != "" {
		scopes = []string{scopeToken(profile)}
	}
	return retrieval.MatchAny(terms, scopes)
}

// lexHit is one lexical result: the memory's rowid and its BM25 score (higher is better).
type lexHit struct {
	rid     int64
	score   float64
	profile string
}

// lexical ranks the active memories of profile matching any term by BM25. A
// term in more than retrieval.CommonShare of the memories costs a BM25 score for each of
// them (tens of milliseconds at 100,000) and tells little: such terms only add
// their newest rows after the ranked ones (the reranker weighs them all again).
func (s *Store) lexical(ctx context.Context, profile string, terms []string, n int) ([]lexHit, error) {
	if len(terms) == 0 || n <= 0 {
		return nil, nil
	}
	rare, common := s.words.Split(ctx, terms)
	hits, err := s.ranked(ctx, profile, rare, n)
	if err != nil || len(common) == 0 || len(hits) == n {
		return hits, err
	}
	seen := map[int64]bool{}
	for _, h := range hits {
		seen[h.rid] = true
	}
	newest, err := s.lexicalQuery(ctx, `SELECT rowid, 0, ? FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT ?`,
		profile, matchAny(profile, common), n)
	if err != nil {
		return nil, err
	}
	for _, h := range newest {
		if len(hits) < n && !seen[h.rid] {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// ranked ranks the active memories of profile matching any term by BM25. The
// profile filter inside FTS5 costs a pass over all of the profile's rows, so the
// first try ranks every profile's rows and filters after; only when other profiles
// crowd the top does it rank again with the filter inside.
func (s *Store) ranked(ctx context.Context, profile string, terms []string, n int) ([]lexHit, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	limit := 2 * n
	rows, err := s.lexicalQuery(ctx, `SELECT f.rowid, f.rank, m.profile FROM (SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) f
		JOIN memories m ON m.rid = f.rowid ORDER BY f.rank`, matchAny("", terms), limit)
	if err != nil {
		return nil, err
	}
	var hits []lexHit
	for _, r := range rows {
		if r.profile == profile && len(hits) < n {
			hits = append(hits, r)
		}
	}
	if len(hits) == n || len(rows) < limit {
		return hits, nil // complete: nothing beyond the limit could have been missed
	}
	scoped, err := s.words.Rank(ctx, retrieval.Ranking{Expr: matchAny(profile, terms), Limit: n})
	if err != nil {
		return nil, fmt.Errorf("lexical search: %w", err)
	}
	hits = make([]lexHit, len(scoped))
	for i, h := range scoped {
		hits[i] = lexHit{rid: h.ID, score: h.Score, profile: profile}
	}
	return hits, nil
}

func (s *Store) lexicalQuery(ctx context.Context, q string, args ...any) ([]lexHit, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("lexical search: %w", err)
	}
	defer rows.Close()
	var out []lexHit
	for rows.Next() {
		var h lexHit
		if err := rows.Scan(&h.rid, &h.score, &h.profile); err != nil {
			return nil, fmt.Errorf("lexical search: %w", err)
		}
		h.score = -h.score
		out = append(out, h)
	}
	return out, rows.Err()
}

// RebuildLexical indexes the active memories again (after a recovery, which
// copies the memories but not their index, or when text.Segment's form
// changed); the old index is emptied whole, no old term's bytes stay.
func RebuildLexical(ctx context.Context, db *store.DB) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')`); err != nil {
			return fmt.Errorf("rebuild memory index: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT rid, profile, text, key FROM memories WHERE status = 'active'`)
		if err != nil {
			return fmt.Errorf("rebuild memory index: %w", err)
		}
		type row struct {
			rid                int64
			profile, text, key string
		}
		var all []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.rid, &r.profile, &r.text, &r.key); err != nil {
				rows.Close()
				return fmt.Errorf("rebuild memory index: %w", err)
			}
			all = append(all, r)
		}
		rows.Close()
		for _, r := range all {
			if err := ftsInsert(ctx, tx, r.rid, r.profile, r.text, r.key); err != nil {
				return fmt.Errorf("rebuild memory index: %w", err)
			}
		}
		return nil
	})
}
