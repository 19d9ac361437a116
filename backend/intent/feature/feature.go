// Package feature turns an utterance into the fixed-size vector the intent
// model reads. The same code runs in the trainer and at inference, so a model
// and its featurizer.json always agree.
//
// The vector is a hashed bag of n-grams, L2-normalized:
//
//   - text is NFKC-normalized and lower-cased; digits become '0';
//   - Latin-script text is split into words (apostrophes inside words kept);
//     '?', '!' and arithmetic operators are tokens of their own;
//   - word n-grams (with sentence start and end markers) and character
//     n-grams of each word (padded with '<' and '>') are emitted;
//   - runs of CJK characters (Han, kana, Hangul) give character n-grams of
//     the run padded with '^' and '$' (unigrams from the run itself);
//   - every n-gram is hashed with 32-bit FNV-1a, seeded, into Dims buckets;
//     counts are summed and the vector is scaled to unit length.
package feature

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Version is the newest featurizer algorithm version this code implements
// (it also reads version 1, which has no cue classes). featurizer.json must
// name a version this build implements; a model trained with another is
// rejected instead of silently misread.
const Version = 2

// MaxDims bounds Config.Dims.
const MaxDims = 1 << 20

// Config is the content of featurizer.json.
type Config struct {
	Version int `json:"version"`
	// Dims is the number of hash buckets: the model's input width.
	Dims int `json:"dims"`
	// Seed is mixed into every hash.
	Seed uint32 `json:"seed"`
	// WordNgrams is the inclusive range of word n-gram lengths.
	WordNgrams [2]int `json:"word_ngrams"`
	// LatinCharNgrams is the inclusive range of character n-gram lengths
	// taken from each padded Latin-script word.
	LatinCharNgrams [2]int `json:"latin_char_ngrams"`
	// CJKCharNgrams is the inclusive range of character n-gram lengths taken
	// from each run of CJK characters.
	CJKCharNgrams [2]int `json:"cjk_char_ngrams"`
	// Cues adds the cue-class features of cues.go (version 2 only).
	Cues bool `json:"cues,omitempty"`
}

// DefaultConfig is the configuration the committed model was trained with.
func DefaultConfig() Config {
	return Config{
		Version:         Version,
		Dims:            65536,
		Seed:            0x4e524d53, // "HRMS"
		WordNgrams:      [2]int{1, 2},
		LatinCharNgrams: [2]int{2, 4},
		CJKCharNgrams:   [2]int{1, 3},
		Cues:            true,
	}
}

// Validate reports what is wrong with c, if anything.
func (c Config) Validate() error {
	if c.Version < 1 || c.Version > Version {
		return fmt.Errorf("featurizer version %d is not supported (this build implements versions 1 to %d)", c.Version, Version)
	}
	if c.Cues && c.Version < 2 {
		return fmt.Errorf("featurizer cues need version 2, not %d", c.Version)
	}
	if c.Dims < 2 || c.Dims > MaxDims {
		return fmt.Errorf("featurizer dims %d out of range [2, %d]", c.Dims, MaxDims)
	}
	for _, r := range []struct {
		name string
		v    [2]int
	}{{"word_ngrams", c.WordNgrams}, {"latin_char_ngrams", c.LatinCharNgrams}, {"cjk_char_ngrams", c.CJKCharNgrams}} {
		if r.v[0] < 1 || r.v[1] < r.v[0] || r.v[1] > 8 {
			return fmt.Errorf("featurizer %s %v is not a range within [1, 8]", r.name, r.v)
		}
	}
	return nil
}

// Load reads and validates a featurizer.json file.
func Load(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("load featurizer config: %w", err)
	}
	return Parse(b, path)
}

// Parse decodes and validates featurizer.json content; name is used in errors.
func Parse(b []byte, name string) (Config, error) {
	var c Config
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("load featurizer config %s: %w", name, err)
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("load featurizer config %s: %w", name, err)
	}
	return c, nil
}

// Marshal encodes c as featurizer.json content (indented, trailing newline).
func (c Config) Marshal() []byte {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		panic(err) // Config holds only ints.
	}
	return append(b, '\n')
}

// Digest is the hex SHA-256 of the canonical encoding of c. The trainer
// records it in the model, so a runtime can tell a featurizer.json that does
// not match the model it sits next to.
func (c Config) Digest() string {
	s := sha256.Sum256(c.Marshal())
	return hex.EncodeToString(s[:])
}

// Featurizer maps text to vectors. It is immutable and safe for concurrent use.
type Featurizer struct {
	cfg  Config
	base uint32      // FNV-1a state after the seed bytes
	cues *cueLexicon // nil without Config.Cues
}

// New returns a Featurizer for a valid configuration.
func New(cfg Config) (*Featurizer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("new featurizer: %w", err)
	}
	f := &Featurizer{cfg: cfg, base: seeded(cfg.Seed)}
	if cfg.Cues {
		f.cues = newCueLexicon()
	}
	return f, nil
}

// Config returns the featurizer's configuration.
func (f *Featurizer) Config() Config { return f.cfg }

// Dims returns the vector length.
func (f *Featurizer) Dims() int { return f.cfg.Dims }

// Sparse is a vector stored as ascending bucket indices and their values.
type Sparse struct {
	Index []int32
	Value []float32
}

// Sparse returns the L2-normalized feature vector of text in sparse form.
// Text without any feature (empty, only punctuation) gives the zero vector,
// which the model maps to its bias alone.
func (f *Featurizer) Sparse(text string) Sparse {
	buckets := f.buckets(text)
	slices.Sort(buckets)
	var out Sparse
	var counts []int
	for i, b := range buckets {
		if i > 0 && b == buckets[i-1] {
			counts[len(counts)-1]++
			continue
		}
		out.Index = append(out.Index, b)
		counts = append(counts, 1)
	}
	var sum float64
	for _, c := range counts {
		sum += float64(c * c)
	}
	out.Value = make([]float32, len(counts))
	if sum == 0 {
		return out
	}
	inv := 1 / math.Sqrt(sum)
	for i, c := range counts {
		out.Value[i] = float32(float64(c) * inv)
	}
	return out
}

// Dense writes the feature vector of text into dst, which must have length
// Dims; dst is overwritten. It returns the number of non-zero entries (0 for
// text without any feature).
func (f *Featurizer) Dense(dst []float32, text string) int {
	if len(dst) != f.cfg.Dims {
		panic(fmt.Sprintf("feature: dense vector length %d, want %d", len(dst), f.cfg.Dims))
	}
	clear(dst)
	s := f.Sparse(text)
	for i, k := range s.Index {
		dst[k] = s.Value[i]
	}
	return len(s.Index)
}

// Normalize returns the text the n-grams are taken from: NFKC, lower case,
// typographic apostrophes folded to ASCII and digits mapped to '0'.
func Normalize(text string) string {
	s := norm.NFKC.String(text)
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\u2019' || r == '\u2018' || r == '`' || r == '\u00b4':
			r = '\''
		case unicode.IsDigit(r):
			r = '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Tokens splits normalized text into Latin-script word tokens (including the
// single-character tokens for '?', '!' and operators) and CJK runs.
func Tokens(normalized string) (words []string, cjk []string) {
	rs := []rune(normalized)
	i := 0
	for i < len(rs) {
		r := rs[i]
		switch {
		case isCJK(r):
			j := i
			for j < len(rs) && isCJK(rs[j]) {
				j++
			}
			cjk = append(cjk, string(rs[i:j]))
			i = j
		case isWordRune(r):
			j := i
			for j < len(rs) {
				if isWordRune(rs[j]) {
					j++
					continue
				}
				// An apostrophe joins two word runes: "i'm", "don't".
				if rs[j] == '\'' && j+1 < len(rs) && isWordRune(rs[j+1]) && j > i {
					j++
					continue
				}
				break
			}
			words = append(words, string(rs[i:j]))
			i = j
		case isSymbolToken(r):
			words = append(words, string(r))
			i++
		default:
			i++
		}
	}
	return words, cjk
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

func isWordRune(r rune) bool {
	return !isCJK(r) && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

func isSymbolToken(r rune) bool {
	switch r {
	case '?', '!', '+', '*', '/', '=', '%', '^', '×', '÷':
		return true
	}
	return false
}

const (
	bos = "<s>"
	eos = "</s>"
)

// buckets returns the hash bucket of every n-gram of text, unsorted, with
// repeats.
func (f *Featurizer) buckets(text string) []int32 {
	words, cjk := Tokens(Normalize(text))
	out := make([]int32, 0, 16*(len(words)+len(cjk)))
	out = f.wordGrams(out, words)
	var offs []int
	for _, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		if size == len(w) && isSymbolToken(r) {
			continue
		}
		offs = f.charGrams(&out, offs, "<"+w+">", "c:", f.cfg.LatinCharNgrams, false)
	}
	for _, run := range cjk {
		offs = f.charGrams(&out, offs, "^"+run+"$", "h:", f.cfg.CJKCharNgrams, true)
	}
	if f.cues != nil {
		out, _ = f.cueGrams(out, offs, words, cjk)
	}
	return out
}

// wordGrams appends word n-grams over <s> w1 ... wn </s>; unigrams skip the
// markers. Text without Latin words has none, so text without any token has
// no feature at all.
func (f *Featurizer) wordGrams(out []int32, words []string) []int32 {
	if len(words) == 0 {
		return out
	}
	tok := func(i int) string {
		switch i {
		case 0:
			return bos
		case len(words) + 1:
			return eos
		}
		return words[i-1]
	}
	seqLen := len(words) + 2
	for n := f.cfg.WordNgrams[0]; n <= f.cfg.WordNgrams[1]; n++ {
		prefix := "w" + strconv.Itoa(n) + ":"
		for i := 0; i+n <= seqLen; i++ {
			if n == 1 && (i == 0 || i == seqLen-1) {
				continue
			}
			h := fnvString(f.base, prefix)
			for k := 0; k < n; k++ {
				if k > 0 {
					h = fnvString(h, " ")
				}
				h = fnvString(h, tok(i+k))
			}
			out = append(out, f.bucket(h))
		}
	}
	return out
}

// charGrams appends the character n-grams of padded (a word or CJK run with
// its two one-byte pad characters). With unpaddedUnigrams, n = 1 takes only
// the inner characters. It returns offs for reuse.
func (f *Featurizer) charGrams(out *[]int32, offs []int, padded, prefix string, rng [2]int, unpaddedUnigrams bool) []int {
	offs = offs[:0]
	for i := range padded {
		offs = append(offs, i)
	}
	offs = append(offs, len(padded))
	runes := len(offs) - 1
	for n := rng[0]; n <= rng[1]; n++ {
		lo, hi := 0, runes
		if n == 1 && unpaddedUnigrams {
			lo, hi = 1, runes-1
		}
		for i := lo; i+n <= hi; i++ {
			h := fnvString(fnvString(f.base, prefix), padded[offs[i]:offs[i+n]])
			*out = append(*out, f.bucket(h))
		}
	}
	return offs
}

// FNV-1a, 32 bit.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

func fnvString(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime
	}
	return h
}

func seeded(seed uint32) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < 4; i++ {
		h ^= (seed >> (8 * i)) & 0xff
		h *= fnvPrime
	}
	return h
}

// Hash returns the seeded 32-bit FNV-1a hash of the concatenated parts: the
// seed's four little-endian bytes come first. A feature's bucket is its hash
// modulo Dims; the feature strings are "w1:" + word, "w2:" + word + " " +
// word, "c:" + n-gram of "<word>" and "h:" + n-gram of "^run$".
func Hash(seed uint32, parts ...string) uint32 {
	h := seeded(seed)
	for _, p := range parts {
		h = fnvString(h, p)
	}
	return h
}

func (f *Featurizer) bucket(h uint32) int32 {
	return int32(h % uint32(f.cfg.Dims))
}
