package retrieval

import (
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

// termRowsQuery is the query of how many rows an FTS term (a word, a
// "prefix"*, a "bigram" or a phrase) matches at most, from the index's
// fts5vocab table (vocab, of kind 'row'): the sum of its forms' document
// counts; a phrase matches no more rows than its first word.
func termRowsQuery(vocab, term string) (string, []any) {
	w := strings.Trim(term, `"*`)
	switch {
	case strings.HasSuffix(term, "*"):
		return `SELECT COALESCE(SUM(doc), 0) FROM ` + vocab + ` WHERE term >= ? AND term < ?`, []any{w, w + "\uffff"}
	case strings.Contains(w, " "):
		return `SELECT COALESCE(SUM(doc), 0) FROM ` + vocab + ` WHERE term = ?`, []any{strings.Fields(w)[0]}
	}
	return `SELECT COALESCE(SUM(doc), 0) FROM ` + vocab + ` WHERE term = ?`, []any{w}
}
