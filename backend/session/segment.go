package session

import (
	"strings"
	"unicode"
)

// IsCJK reports whether r is written without spaces between words (Han, Kana, Hangul).
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

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

// queryTerms splits a search query into terms: Latin words, and CJK runs.
func queryTerms(q string) []string {
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

// MatchExpr builds an FTS5 query: every term must match; Latin terms match as
// prefixes, CJK terms as the phrase of their bigrams. Terms are quoted, so user
// input is never FTS5 syntax.
func MatchExpr(q string) string {
	var parts []string
	for _, t := range queryTerms(q) {
		r := []rune(t)
		if IsCJK(r[0]) {
			if len(r) == 1 {
				parts = append(parts, `"`+t+`"`)
				continue
			}
			grams := make([]string, 0, len(r)-1)
			for i := 0; i+1 < len(r); i++ {
				grams = append(grams, string(r[i:i+2]))
			}
			parts = append(parts, `"`+strings.Join(grams, " ")+`"`)
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(t, `"`, `""`)+`"*`)
	}
	return strings.Join(parts, " AND ")
}

// Segment of a snippet: Match marks the text that matched the query.
type Fragment struct {
	Text  string `json:"text"`
	Match bool   `json:"match"`
}

// Snippet cuts a window of about width runes around the first match of any term and
// marks every match inside it.
func Snippet(content, query string, width int) []Fragment {
	terms := queryTerms(query)
	lower := []rune(strings.ToLower(content))
	orig := []rune(content)
	if len(lower) != len(orig) { // case folding changed the length: match on the original
		lower = orig
	}
	matchAt := func(i int) int { // length of the term matching at i, or 0
		for _, t := range terms {
			tr := []rune(t)
			if i+len(tr) <= len(lower) && string(lower[i:i+len(tr)]) == t {
				return len(tr)
			}
		}
		return 0
	}
	first := -1
	for i := range lower {
		if matchAt(i) > 0 {
			first = i
			break
		}
	}
	start, end := 0, len(orig)
	if first >= 0 {
		start = max(0, first-width/3)
	}
	if end-start > width {
		end = start + width
	}
	var out []Fragment
	if start > 0 {
		out = append(out, Fragment{Text: "…"})
	}
	plain := start
	for i := start; i < end; {
		if n := matchAt(i); n > 0 {
			if plain < i {
				out = append(out, Fragment{Text: string(orig[plain:i])})
			}
			stop := min(i+n, len(orig))
			out = append(out, Fragment{Text: string(orig[i:stop]), Match: true})
			i, plain = stop, stop
			continue
		}
		i++
	}
	if plain < end {
		out = append(out, Fragment{Text: string(orig[plain:end])})
	}
	if end < len(orig) {
		out = append(out, Fragment{Text: "…"})
	}
	return out
}
