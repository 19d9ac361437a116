package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"hermes/backend/text"
)

// PurgeTerms merges an FTS5 index (table, with a <table>_vocab fts5vocab
// table beside it) when erased texts leave a term that no document has any
// more: secure-delete removes the erased entries at once, but the term's own
// bytes stay in its segment until a merge.
func PurgeTerms(ctx context.Context, tx *sql.Tx, table string, texts []string) error {
	if len(texts) == 0 {
		return nil
	}
	terms := map[string]bool{}
	for _, gone := range texts {
		for _, t := range ftsTokens(text.Segment(gone)) {
			terms[t] = true
		}
	}
	orphan := len(terms) > 500 // too many to look up: merge
	for t := range terms {
		if orphan {
			break
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+`_vocab WHERE term = ?`, t).Scan(&n); err != nil {
			return err
		}
		orphan = n == 0
	}
	if !orphan {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+table+`(`+table+`) VALUES ('optimize')`)
	return err
}

// ftsTokens approximates the unicode61 tokenizer (remove_diacritics 2). It splits
// only where unicode61 surely splits (spaces, punctuation, symbols, controls); where
// it differs, its token is not in the index's vocabulary, which counts as an
// orphan and so merges: the safe side.
func ftsTokens(text string) []string {
	text = strings.ToLower(text)
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsControl(r)
	}) {
		var b strings.Builder
		for _, r := range norm.NFD.String(f) {
			if !unicode.Is(unicode.Mn, r) {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// IndexForm is the form the database's full-text indexes were written in
// (text.SegmentForm when they are current).
func (db *DB) IndexForm(ctx context.Context) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT form FROM index_form`).Scan(&n); err != nil {
		return 0, fmt.Errorf("read the index form: %w", err)
	}
	return n, nil
}

// SetIndexForm records the form the full-text indexes were written in, once
// every one of them is.
func (db *DB) SetIndexForm(ctx context.Context, form int) error {
	if _, err := db.ExecContext(ctx, `UPDATE index_form SET form = ?`, form); err != nil {
		return fmt.Errorf("record the index form: %w", err)
	}
	return nil
}
