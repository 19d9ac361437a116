package retrieval

import (
	"context"
	"strings"
)

// Common terms: a term in more than CommonShare of the rows (and at least
// CommonFloor) costs BM25 a score for each of them (tens of milliseconds at
// 100,000 rows) and tells little about which row answers; rankings use the
// rare terms, and the common ones only when no rare term is left.
const CommonShare = 0.02

// CommonFloor is the fewest rows a common term matches: below it no term is
// common (small indexes rank with every term).
const CommonFloor = 5000

// CommonFrom is how many rows make a term common in an index of rows rows.
func CommonFrom(rows int) int { return max(CommonFloor, int(CommonShare*float64(rows))) }

// Row is a query's one row.
type Row interface{ Scan(dest ...any) error }

// TermRows is how many rows an FTS term (a word, a "prefix"*, a "bigram" or a
// phrase) matches at most, from the index's fts5vocab table (vocab, of kind
// 'row'): the sum of its forms' document counts; a phrase matches no more rows
// than its first word. An error is 0: unknown, ranked like any term.
func TermRows(ctx context.Context, q func(ctx context.Context, query string, args ...any) Row, vocab, term string) int {
	w := strings.Trim(term, `"*`)
	var n int
	var err error
	switch {
	case strings.HasSuffix(term, "*"):
		err = q(ctx, `SELECT COALESCE(SUM(doc), 0) FROM `+vocab+` WHERE term >= ? AND term < ?`, w, w+"\uffff").Scan(&n)
	case strings.Contains(w, " "):
		err = q(ctx, `SELECT COALESCE(SUM(doc), 0) FROM `+vocab+` WHERE term = ?`, strings.Fields(w)[0]).Scan(&n)
	default:
		err = q(ctx, `SELECT COALESCE(SUM(doc), 0) FROM `+vocab+` WHERE term = ?`, w).Scan(&n)
	}
	if err != nil {
		return 0
	}
	return n
}

// SplitCommon splits terms into rare and common by rows (TermRows) against
// limit (CommonFrom), in their order.
func SplitCommon(terms []string, rows func(term string) int, limit int) (rare, common []string) {
	for _, t := range terms {
		if rows(t) > limit {
			common = append(common, t)
		} else {
			rare = append(rare, t)
		}
	}
	return rare, common
}
