package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The full-text index's form of a text (conversations and memories both): Latin
// words as they are, CJK runs as overlapping bigrams plus characters; and the
// FTS5 query that finds it.

// Segment rewrites text for the search index: Latin words stay as they are (the
// unicode61 tokenizer splits and folds them); every CJK run becomes its characters
// overlapping bigrams followed by its characters, so "我昨天买了耳机" is found by
// "耳机", "昨天买了" or "耳".
func Segment(text string) string {
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // each invalid byte as U+FFFD
	}
	var b strings.Builder
	b.Grow(len(text) * 3)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		j := i + n
		if !IsCJK(r) {
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if IsCJK(r) {
					break
				}
				j += n
			}
			b.WriteString(text[i:j])
			b.WriteByte(' ')
			i = j
			continue
		}
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !IsCJK(r) {
				break
			}
			j += n
		}
		run := text[i:j]
		// Bigrams first, adjacent to each other, so a phrase of bigrams matches a
		// longer word; then the single characters.
		for k := 0; k < len(run); {
			_, n := utf8.DecodeRuneInString(run[k:])
			if k+n == len(run) {
				break
			}
			_, m := utf8.DecodeRuneInString(run[k+n:])
			b.WriteString(run[k : k+n+m])
			b.WriteByte(' ')
			k += n
		}
		for _, r := range run {
			b.WriteRune(r)
			b.WriteByte(' ')
		}
		i = j
	}
	return b.String()
}

// QueryTerms splits a search query into terms: Latin words, and CJK runs.
func QueryTerms(q string) []string {
	var terms []string
	var cur []rune
	cjk := false
	flush := func() {
		if len(cur) > 0 {
			terms = append(terms, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range q {
		switch {
		case IsCJK(r):
			if !cjk {
				flush()
			}
			cjk = true
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			if cjk {
				flush()
			}
			cjk = false
			cur = append(cur, unicode.ToLower(r))
		default:
			flush()
			cjk = false
		}
	}
	flush()
	return terms
}
