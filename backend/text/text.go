// Package text holds the language helpers shared by search, prompt, memory and
// embed: tokens, CJK segmentation, English stemming, stop words, a small offline
// concept lexicon and time cues. It does no I/O and needs no model.
package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold prepares text for tokenizing: Unicode NFKC and lower case.
func Fold(s string) string { return strings.ToLower(norm.NFKC.String(s)) }

// Tokens splits text into words: runs of letters and digits (apostrophes inside a
// word are dropped, so "don't" is "dont"), lower-cased, and runs of CJK characters.
func Tokens(s string) []string {
	var out []string
	var cur []rune
	cjk := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case IsCJK(r):
			if !cjk {
				flush()
			}
			cjk = true
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			if cjk {
				flush()
			}
			cjk = false
			cur = append(cur, unicode.ToLower(r))
		case (r == '\'' || r == '’') && !cjk && len(cur) > 0 && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			// inside a word: "don't", "I'm"
		default:
			flush()
			cjk = false
		}
	}
	flush()
	return out
}

// IsCJK reports whether r is written without spaces between words (Han, Kana, Hangul).
func IsCJK(r rune) bool {
	if r < 0x1100 { // below Hangul Jamo: Latin, Greek, Cyrillic, … (the common case, kept fast)
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// Bigrams returns the overlapping character pairs of a CJK run ("我的工作" ->
// "我的", "的工", "工作"), or the run itself when it is one character.
func Bigrams(run string) []string {
	r := []rune(run)
	if len(r) < 2 {
		return []string{run}
	}
	out := make([]string, 0, len(r)-1)
	for i := 0; i+1 < len(r); i++ {
		out = append(out, string(r[i:i+2]))
	}
	return out
}

// Term is one search term of a text: an English stem or a CJK bigram (or single
// character), with its position in the text (in tokens).
type Term struct {
	Text string
	Pos  int
	CJK  bool
}

// Terms returns the content terms of s: English words without stop words,
// stemmed; CJK runs as bigrams without stop-word pairs. Positions count terms
// and stop words alike, so nearby words have nearby positions.
func Terms(s string) []Term {
	var out []Term
	pos := 0
	for _, tok := range Tokens(Fold(s)) {
		r := []rune(tok)
		if IsCJK(r[0]) {
			for _, g := range Bigrams(tok) {
				if !IsStopword(g) && !ParticlePair(g) {
					out = append(out, Term{Text: g, Pos: pos, CJK: true})
				}
				pos++
			}
			continue
		}
		if !IsStopword(tok) {
			out = append(out, Term{Text: Stem(tok), Pos: pos})
		}
		pos++
	}
	return out
}

// particles are Chinese function characters that end or start no content word.
const particles = "的了是吗呢吧啊呀和与也就都这那么"

// ParticlePair reports whether a CJK bigram straddles a particle ("的工", "作是"):
// such pairs are artefacts of segmenting by bigrams, not words.
func ParticlePair(g string) bool {
	r := []rune(g)
	return len(r) == 2 && (strings.ContainsRune(particles, r[0]) || strings.ContainsRune(particles, r[1]))
}

// EditDistance is the Levenshtein distance between a and b, in runes: the
// fewest insertions, deletions and substitutions that make one the other
// (a mistyped key in a YAML file, a model name that is nearly one installed).
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
