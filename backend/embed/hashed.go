package embed

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	textpkg "hermes/backend/text"
)

// HashedName is the name of the offline embedder; the suffix is its feature
// version, bumped whenever the features change so old vectors are reindexed.
const HashedName = "hermes-hash-v1"

// DefaultHashedDim is the offline embedder's default dimension: enough for short
// memories, small enough that an exact scan of 100,000 of them stays within the
// recall budget on a two-core laptop (128 dimensions cost about twice as much;
// memory recall raises its vector threshold for small dimensions).
const DefaultHashedDim = 64

// Hashed is the offline fallback embedder: a signed feature-hashing of words,
// word stems and character trigrams (Latin scripts) and of characters and
// character bigrams (Chinese, Japanese, Korean), L2-normalized. It needs no model,
// is deterministic, and finds texts that share words, word forms or characters;
// it knows no synonyms.
type Hashed struct {
	dim int
}

// NewHashed returns the offline embedder with dim dimensions (DefaultHashedDim when dim <= 0).
func NewHashed(dim int) *Hashed {
	if dim <= 0 {
		dim = DefaultHashedDim
	}
	return &Hashed{dim: dim}
}

// Name is HashedName.
func (h *Hashed) Name() string { return HashedName }

// Dim is the vector length.
func (h *Hashed) Dim() int { return h.dim }

// Embed returns one unit vector per text (a zero vector for a text without words).
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("embed with %s: %w", HashedName, ctx.Err())
		}
		out[i] = h.vector(t)
	}
	return out, nil
}

func (h *Hashed) vector(text string) []float32 {
	v := make([]float32, h.dim)
	features(text, func(kind byte, feature string, weight float32) {
		sum := fnvFeature(kind, feature)
		i := int(sum % uint64(h.dim))
		if sum>>63 == 1 {
			weight = -weight
		}
		v[i] += weight
	})
	return Normalize(v)
}

// fnvFeature is FNV-1a (64 bits) of the feature "K:feature" (kind K), as
// hash/fnv computes it, without building the string.
func fnvFeature(kind byte, feature string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(kind)) * prime
	h = (h ^ uint64(':')) * prime
	for i := 0; i < len(feature); i++ {
		h = (h ^ uint64(feature[i])) * prime
	}
	return h
}

// Feature weights: whole words and CJK bigrams carry the meaning; stems, trigrams
// and single CJK characters let related forms ("drive", "driving"; "北京", "北京市") meet.
const (
	wWord     = 1.0
	wStem     = 0.7
	wTrigram  = 0.25
	wStopword = 0.1
	wCJKPair  = 1.0
	wCJKChar  = 0.35
)

// Features calls fn for every feature of text with its weight ("w:word",
// "s:stem", "t:tri", "p:对子", "c:字").
func Features(text string, fn func(feature string, weight float32)) {
	features(text, func(kind byte, feature string, weight float32) { fn(string(kind)+":"+feature, weight) })
}

// features is Features with each feature's kind apart from its text (the
// vector hashes them without joining them).
func features(text string, fn func(kind byte, feature string, weight float32)) {
	text = strings.ToLower(norm.NFKC.String(text))
	for _, tok := range Tokens(text) {
		r := []rune(tok)
		if IsCJK(r[0]) {
			cjkFeatures(tok, r, fn)
			continue
		}
		if IsStopword(tok) {
			fn('w', tok, wStopword)
			continue
		}
		fn('w', tok, wWord)
		fn('s', Stem(tok), wStem) // also for a word that is its own stem: "drive" meets "driving"
		if len(r) >= 4 {
			padded := "<" + tok + ">"
			for i, j := 0, 0; j < len(padded); i = j {
				// the three runes from byte i
				k := i
				for n := 0; n < 3 && k < len(padded); n++ {
					_, size := utf8.DecodeRuneInString(padded[k:])
					k += size
				}
				if utf8.RuneCountInString(padded[i:k]) < 3 {
					break
				}
				fn('t', padded[i:k], wTrigram)
				_, size := utf8.DecodeRuneInString(padded[i:])
				j = i + size
			}
		}
	}
}

// cjkFeatures are a CJK run's bigrams and characters.
func cjkFeatures(tok string, r []rune, fn func(kind byte, feature string, weight float32)) {
	offs := make([]int, 0, len(r)+1)
	for i := range tok {
		offs = append(offs, i)
	}
	offs = append(offs, len(tok))
	for i := 0; i+1 < len(r); i++ {
		fn('p', tok[offs[i]:offs[i+2]], wCJKPair)
	}
	for i := range r {
		c := tok[offs[i]:offs[i+1]]
		w := float32(wCJKChar)
		if IsStopword(c) {
			w = wStopword
		}
		fn('c', c, w)
	}
}

// Tokens splits text into words (text.Tokens).
func Tokens(s string) []string { return textpkg.Tokens(s) }

// IsCJK reports whether r is written without spaces between words (text.IsCJK).
func IsCJK(r rune) bool { return textpkg.IsCJK(r) }

// Stem strips one common English suffix, keeping at least four letters, so
// "driving", "drives" and "drive" share "driv". It is deliberately crude: it only
// has to make forms of one word meet. It is part of hermes-hash-v1's features
// (changing it changes every stored vector); search uses text.Stem (Porter).
func Stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ingly", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "ly", "s", "e", "y"} {
		if strings.HasSuffix(w, suf) && utf8.RuneCountInString(w)-len(suf) >= 4 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}
