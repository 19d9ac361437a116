package text

import (
	"strings"
	"unicode"
)

// The full-text index's form of a text (conversations and memories both): Latin
// words as they are, CJK runs as overlapping bigrams plus characters; and the
// FTS5 query that finds it.

// Segment rewrites text for the search index: Latin words stay as they are (the
// unicode61 tokenizer splits and folds them); every CJK run becomes its characters
// overlapping bigrams followed by its characters, so "我昨天买了耳机" is found by
// "耳机", "昨天买了" or "耳".
func Segment(text string) string {
	var b strings.Builder
	runes := []rune(text)
	for i := 0; i < len(runes); {
		if !IsCJK(runes[i]) {
			j := i
			for j < len(runes) && !IsCJK(runes[j]) {
				j++
			}
			b.WriteString(string(runes[i:j]))
			b.WriteByte(' ')
			i = j
			continue
		}
		j := i
		for j < len(runes) && IsCJK(runes[j]) {
			j++
		}
		run := runes[i:j]
		// Bigrams first, adjacent to each other, so a phrase of bigrams matches a
		// longer word; then the single characters.
		for k := 0; k+1 < len(run); k++ {
			b.WriteString(string(run[k : k+2]))
			b.WriteByte(' ')
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
