// Package retrieval holds the ranking rules every search of Hermes shares:
// how a question becomes full-text terms (QueryTerms, and PlainTerms for the
// plain-BM25 baseline), the FTS5 expression that matches them (MatchAny), and
// reciprocal rank fusion of ranked lists (Fuse). Long-term memory
// (backend/memory) and the knowledge base (backend/kb) rank through it; what
// differs between them (layers and decay, pages and headings) stays with the
// corpus. See docs/architecture.md, "Retrieval".
package retrieval

import (
	"strings"
	"unicode/utf8"

	"hermes/backend/text"
)

// QueryTerms turns a question into lexical terms: content words (function words
// dropped) matched by the prefix their Porter stem shares with them, so "driving"
// finds "drive" and "nurses" finds "nursing"; Chinese as the bigrams
// text.Segment indexes (pairs straddling a particle dropped), or the character
// of a one-character run (text.CharTerm).
func QueryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, tok := range text.Tokens(text.Fold(q)) {
		r := []rune(tok)
		if !text.IsCJK(r[0]) {
			if !text.IsStopword(tok) {
				add(FTSWord(tok))
			}
			continue
		}
		if len(r) == 1 {
			if !text.IsStopword(tok) {
				add(text.CharTerm(tok))
			}
			continue
		}
		for _, t := range cjkTerms(r) {
			add(t)
		}
	}
	return out
}

// cjkTerms are the terms of a CJK run: its bigrams, less stop words and pairs
// straddling a particle, and each content character no kept bigram covers
// ("蓍" of "蓍的别名", whose only bigram straddles 的).
func cjkTerms(r []rune) []string {
	var out []string
	covered := make([]bool, len(r))
	for i := 0; i+1 < len(r); i++ {
		g := string(r[i : i+2])
		if !text.IsStopword(g) && !text.ParticlePair(g) {
			out = append(out, CJKTerm(g))
			covered[i], covered[i+1] = true, true
		}
	}
	for i, c := range r {
		if !covered[i] && !text.IsStopword(string(c)) && !text.ParticlePair(string(c)+string(c)) {
			out = append(out, CJKTerm(string(c)))
		}
	}
	return out
}

// CJKTerm is the FTS5 term of a CJK bigram, or of a lone character.
func CJKTerm(g string) string {
	if utf8.RuneCountInString(g) == 1 {
		return text.CharTerm(g)
	}
	return `"` + g + `"`
}

// FTSWord is the FTS5 term of an English word: the prefix its stem shares with it
// (at least three letters) when the stem is shorter, else the word itself, as a
// prefix from four letters ("peanut" finds "peanuts").
func FTSWord(w string) string {
	st := text.Stem(w)
	p := 0
	for p < len(st) && p < len(w) && st[p] == w[p] {
		p++
	}
	switch {
	case p >= 3 && p < len(w):
		return `"` + w[:p] + `"*`
	case len(w) >= 4:
		return `"` + w + `"*`
	}
	return `"` + w + `"`
}

// PlainTerms are the terms of a plain BM25 search: every word as it is, Chinese as
// bigrams (a lone character as text.CharTerm). It is the baseline Hermes'
// rankings are measured against.
func PlainTerms(q string) []string {
	var out []string
	for _, tok := range text.Tokens(q) {
		r := []rune(tok)
		if text.IsCJK(r[0]) {
			out = append(out, CJKTerms(tok)...)
			continue
		}
		out = append(out, `"`+tok+`"`)
	}
	return out
}

// CJKTerms are the FTS5 terms of a CJK word's bigrams (CJKTerm each).
func CJKTerms(w string) []string {
	var out []string
	for _, g := range text.Bigrams(w) {
		out = append(out, CJKTerm(g))
	}
	return out
}

// CJKPhrase is the FTS5 term of a CJK word: the phrase of its bigrams, or
// text.CharTerm for one character.
func CJKPhrase(w string) string {
	if utf8.RuneCountInString(w) == 1 {
		return text.CharTerm(w)
	}
	return `"` + strings.Join(text.Bigrams(w), " ") + `"`
}

// MatchAll is the FTS5 expression of a find box (chat search, the erasure
// checks): every term of q must match; Latin terms match as
// prefixes, CJK terms as the phrase of their bigrams. Terms are quoted, so user
// input is never FTS5 syntax.
func MatchAll(q string) string {
	var parts []string
	for _, t := range text.QueryTerms(q) {
		if r, _ := utf8.DecodeRuneInString(t); text.IsCJK(r) {
			parts = append(parts, CJKPhrase(t))
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(t, `"`, `""`)+`"*`)
	}
	return strings.Join(parts, " AND ")
}

// MatchAny is an FTS5 expression for rows whose column body has any of terms
// and, with scopes given, whose column scope has one of those tokens; "" when
// there are no terms.
func MatchAny(terms, scopes []string) string {
	if len(terms) == 0 {
		return ""
	}
	expr := `{body} : (` + strings.Join(terms, " OR ") + `)`
	if len(scopes) > 0 {
		expr += ` AND {scope} : (` + strings.Join(quote(scopes), " OR ") + `)`
	}
	return expr
}

func quote(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = `"` + t + `"`
	}
	return out
}

// RRFK is reciprocal rank fusion's constant: score = Σ weight/(RRFK + rank).
const RRFK = 60

// RRF is what rank (1-based) in a list of weight adds to a fused score.
func RRF(weight float64, rank int) float64 { return weight / float64(RRFK+rank) }

// Ranked is one ranked list for Fuse: ids best first, and the weight the list
// is trusted with.
type Ranked struct {
	IDs    []int64
	Weight float64
}

// Fuse merges ranked lists by reciprocal rank fusion: each id's score is the sum
// over the lists that hold it of Weight/(RRFK + rank), rank 1-based. The result
// is every id, best first; equal scores keep the order in which ids were first met.
func Fuse(lists ...Ranked) []Scored {
	byID := map[int64]int{}
	var out []Scored
	for _, l := range lists {
		for i, id := range l.IDs {
			s := RRF(l.Weight, i+1)
			if j, ok := byID[id]; ok {
				out[j].Score += s
				continue
			}
			byID[id] = len(out)
			out = append(out, Scored{ID: id, Score: s})
		}
	}
	sortStable(out)
	return out
}

// Scored is an id and its fused score.
type Scored struct {
	ID    int64
	Score float64
}
