package retrieval

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// Querier is what an Index reads through (*sql.DB, *store.DB).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Index is one corpus's full-text index as every search of Hermes ranks it: an
// FTS5 table (columns body and, where a corpus has scopes, scope) with its
// fts5vocab table of kind 'row' named Table+"_vocab", and a cache of the
// counts the common-term rule and term weights read. Memories, knowledge
// passages and chat messages each have one; what is theirs (which rows, what
// a scope is) is given to it, not written again beside it.
type Index struct {
	db    Querier
	table string
	count string // SQL: how many rows are indexed

	mu   sync.Mutex
	rows int       // -1: not read since the last Reset
	at   time.Time // when rows was read
	by   map[string]int
	gen  uint64 // bumped by Reset: a count read before it is not kept

	floor int // CommonFloor unless SetCommonFloor (tests) lowered it
}

// countTTL is how long counts stay cached when nothing calls Reset.
const countTTL = time.Minute

// NewIndex is the index table of db, whose indexed rows count query counts.
func NewIndex(db Querier, table, count string) *Index {
	return &Index{db: db, table: table, count: count, rows: -1, floor: CommonFloor}
}

// SetCommonFloor sets the fewest rows a common term matches (CommonFloor):
// tests lower it to see the common-term rule on a few rows.
func (ix *Index) SetCommonFloor(n int) { ix.floor = n }

// Vocab is the name of the index's fts5vocab table.
func (ix *Index) Vocab() string { return ix.table + "_vocab" }

// Reset forgets the cached counts: the corpus changed.
func (ix *Index) Reset() {
	ix.mu.Lock()
	ix.rows, ix.by = -1, nil
	ix.gen++
	ix.mu.Unlock()
}

// Rows is how many rows are indexed (at least 1), cached until Reset or for a
// minute; reading it again empties the cached term counts too.
func (ix *Index) Rows(ctx context.Context) int {
	ix.mu.Lock()
	rows, fresh, gen := ix.rows, time.Since(ix.at) < countTTL, ix.gen
	ix.mu.Unlock()
	if rows >= 0 && fresh {
		return max(rows, 1)
	}
	var n int // counted without the lock: searches do not wait on it
	if err := ix.db.QueryRowContext(ctx, ix.count).Scan(&n); err != nil {
		return max(rows, 1)
	}
	ix.mu.Lock()
	if ix.gen == gen {
		ix.rows, ix.at, ix.by = n, time.Now(), nil
	}
	ix.mu.Unlock()
	return max(n, 1)
}

// Stat is the integer query gives, cached under key until the counts are read
// again; ok is false (and nothing cached) when the query fails.
func (ix *Index) Stat(ctx context.Context, key, query string, args ...any) (n int, ok bool) {
	ix.Rows(ctx) // refreshes the cache when it is old
	ix.mu.Lock()
	n, ok = ix.by[key]
	gen := ix.gen
	ix.mu.Unlock()
	if ok {
		return n, true
	}
	if err := ix.db.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, false
	}
	ix.mu.Lock()
	if ix.gen == gen { // else the corpus changed while it was read
		if ix.by == nil {
			ix.by = map[string]int{}
		}
		ix.by[key] = n
	}
	ix.mu.Unlock()
	return n, true
}

// TermRows is how many rows an FTS term matches at most (termRowsQuery),
// cached; 0 when unknown (an error), ranked like any term.
func (ix *Index) TermRows(ctx context.Context, term string) int {
	q, args := termRowsQuery(ix.Vocab(), term)
	n, _ := ix.Stat(ctx, "\x01"+term, q, args...)
	return n
}

// Split parts terms, in their order, into rare and common: a common one
// matches more than CommonShare of the index's rows, and more than its floor.
func (ix *Index) Split(ctx context.Context, terms []string) (rare, common []string) {
	limit := max(ix.floor, int(CommonShare*float64(ix.Rows(ctx))))
	for _, t := range terms {
		if ix.TermRows(ctx, t) > limit {
			common = append(common, t)
		} else {
			rare = append(rare, t)
		}
	}
	return rare, common
}

// Hit is one row found: its rowid and its BM25 score (higher is better).
type Hit struct {
	ID    int64
	Score float64
}

// Ranking is one full-text query: the rows matching Expr, best BM25 first, at
// most Limit; Where (with Args) narrows the index's rows further ("rowid > ?").
type Ranking struct {
	Expr  string
	Limit int
	Where string
	Args  []any
}

// Rank runs r; no expression finds nothing.
func (ix *Index) Rank(ctx context.Context, r Ranking) ([]Hit, error) {
	if r.Expr == "" || r.Limit <= 0 {
		return nil, nil
	}
	where, args := "", []any{r.Expr}
	if r.Where != "" {
		where = " AND (" + r.Where + ")"
		args = append(args, r.Args...)
	}
	args = append(args, r.Limit)
	rows, err := ix.db.QueryContext(ctx, `SELECT rowid, rank FROM `+ix.table+` WHERE `+ix.table+` MATCH ?`+where+` ORDER BY rank LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("rank %s: %w", ix.table, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.ID, &h.Score); err != nil {
			return nil, fmt.Errorf("rank %s: %w", ix.table, err)
		}
		h.Score = -h.Score
		out = append(out, h)
	}
	return out, rows.Err()
}

// IDs are the hits' rowids, in their order.
func IDs(hits []Hit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
