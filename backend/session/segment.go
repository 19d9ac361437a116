package session

import (
	"strings"

	"hermes/backend/text"
)

// Segment of a snippet: Match marks the text that matched the query.
type Fragment struct {
	Text  string `json:"text"`
	Match bool   `json:"match"`
}

// Snippet cuts a window of about width runes around the first match of any term and
// marks every match inside it.
func Snippet(content, query string, width int) []Fragment {
	terms := text.QueryTerms(query)
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
