package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

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
	Features(text, func(feature string, weight float32) {
		f := fnv.New64a()
		f.Write([]byte(feature))
		sum := f.Sum64()
		i := int(sum % uint64(h.dim))
		if sum>>63 == 1 {
			weight = -weight
		}
		v[i] += weight
	})
	return Normalize(v)
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

// Features calls fn for every feature of text with its weight. The memory package
// relies on the same word and stem rules for its lexical queries.
func Features(text string, fn func(feature string, weight float32)) {
	text = strings.ToLower(norm.NFKC.String(text))
	for _, tok := range Tokens(text) {
		r := []rune(tok)
		if IsCJK(r[0]) {
			for i := 0; i+1 < len(r); i++ {
				fn("p:"+string(r[i:i+2]), wCJKPair)
			}
			for _, c := range r {
				w := float32(wCJKChar)
				if IsStopword(string(c)) {
					w = wStopword
				}
				fn("c:"+string(c), w)
			}
			continue
		}
		if IsStopword(tok) {
			fn("w:"+tok, wStopword)
			continue
		}
		fn("w:"+tok, wWord)
		fn("s:"+Stem(tok), wStem) // also for a word that is its own stem: "drive" meets "driving"
		if len(r) >= 4 {
			padded := append(append([]rune{'<'}, r...), '>')
			for i := 0; i+3 <= len(padded); i++ {
				fn("t:"+string(padded[i:i+3]), wTrigram)
			}
		}
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
		if strings.HasSuffix(w, suf) && len([]rune(w))-len([]rune(suf)) >= 4 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}
