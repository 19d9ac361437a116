package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The full-text index's form of a text (conversations, memories and knowledge
// passages alike): Latin words as they are, CJK runs as overlapping bigrams; and
// the FTS5 query that finds it.

// Segment rewrites text for the search index: Latin words stay as they are (the
// unicode61 tokenizer splits and folds them); every CJK run becomes its
// overlapping bigrams followed by its last character, so "我昨天买了耳机" is found
// by "耳机", "昨天买了" or, through CharTerm, "耳". Each character is thus the
// first of one token, once: a character alone would double the index (and the
// time to write it) for the rare query of one character.
//
// SegmentForm names this form; an index written in another one is rebuilt
// (docs/architecture.md, "Retrieval").
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
		// Bigrams adjacent to each other, so a phrase of bigrams matches a
		// longer word; then the last character, the first of no bigram.
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
		_, last := utf8.DecodeLastRuneInString(run)
		b.WriteString(run[len(run)-last:])
		b.WriteByte(' ')
		i = j
	}
	return b.String()
}

// SegmentForm is the version of Segment's form. Change it with the form: the
// indexes written in the old one are then written again when the database opens.
const SegmentForm = 2

// CharTerm is the FTS5 term that finds a CJK character wherever Segment put it:
// as the first of a bigram, or as the last character of a run. It is a prefix
// query of the character, quoted.
func CharTerm(c string) string { return `"` + c + `"*` }

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
