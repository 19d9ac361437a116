package datagen

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"

	"hermes/backend/intent/dataset"
)

// handwrittenJSONL holds messages written by hand, as people type them,
// without the templates or the challenge set in view (EN and ZH, every
// label, in plain, hurried-phone, careful-adult and label-border styles).
// They train the model and a fifth of them join the development split; the
// held-out split stays template families the model never saw, so its
// figures stay comparable. Messages near a challenge message
// (TestHandwrittenAwayFromChallenge) were left out when the file was
// written.
//
//go:embed handwritten.jsonl
var handwrittenJSONL []byte

// Handwritten returns the hand-written training messages.
func Handwritten() ([]dataset.Example, error) {
	exs, err := dataset.Read(bytes.NewReader(handwrittenJSONL), "handwritten.jsonl")
	if err != nil {
		return nil, fmt.Errorf("hand-written messages: %w", err)
	}
	return exs, nil
}

// addHandwritten appends the hand-written messages as written (a decorated
// variant of each, as templates get, did no better on dev) to the training
// split, and a fifth of them to the development split (handSplit). A
// message whose text a template already gave is left out, whatever its split
// (a held-out text never enters training), and so is one near (Similarity) a
// held-out or development message: a paraphrase would flatter their figures.
// A message with another label than a literal template's text is an error,
// as two templates that disagree are (a slot expansion that happens to
// match, "6*66" and the slang "666", is not).
func addHandwritten(out *Splits, owner map[string]string, literal map[string]bool, opt Options) error {
	exs, err := Handwritten()
	if err != nil {
		return err
	}
	held := newNearIndex(append(slices.Clone(out.Dev), out.Test...))
	for _, ex := range exs {
		k := Key(ex.Text)
		if prev, ok := owner[k]; ok {
			if prev != ex.Label && literal[k] {
				return fmt.Errorf("generate: hand-written %q is %s, a template says %s", ex.Text, ex.Label, prev)
			}
			continue
		}
		if held.near(ex) {
			continue
		}
		owner[k] = ex.Label
		if handSplit(k, opt) == Dev {
			out.Dev = append(out.Dev, ex)
			continue
		}
		out.Train = append(out.Train, ex)
	}
	return nil
}

// handSplit puts a hand-written message in Dev with probability
// opt.HandDevFraction, by a hash of its text, else in Train: the model and
// its calibration are then chosen on people's wording too, not only on the
// templates' (the challenge set stays out of every choice).
func handSplit(key string, opt Options) Split {
	h := fnv64a("hermes-intent-hand/" + key)
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	h ^= h >> 29
	if float64(h>>11)/(1<<53) < opt.HandDevFraction {
		return Dev
	}
	return Train
}

// NearJaccard is the similarity (Similarity) at which two messages count as
// one wording.
const (
	NearJaccard  = 0.5
	near3, near2 = 3, 2
)

// Similarity is the Jaccard index of two texts' character n-grams: trigrams
// of the letters and digits (Key) in English, bigrams in Chinese.
func Similarity(a, b, lang string) float64 {
	n := ngramSize(lang)
	return jaccard(ngrams(Key(a), n), ngrams(Key(b), n))
}

func ngramSize(lang string) int {
	if lang == "zh" {
		return near2
	}
	return near3
}

func jaccard(a, b map[string]bool) float64 {
	both := 0
	for g := range a {
		if b[g] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

func ngrams(s string, n int) map[string]bool {
	r := []rune(s)
	out := map[string]bool{}
	if len(r) < n {
		out[s] = true
		return out
	}
	for i := 0; i+n <= len(r); i++ {
		out[string(r[i:i+n])] = true
	}
	return out
}

// nearIndex finds whether a message is near one of a set.
type nearIndex map[string][]map[string]bool // language -> n-gram sets

func newNearIndex(exs []dataset.Example) nearIndex {
	ix := nearIndex{}
	for _, e := range exs {
		ix[e.Lang] = append(ix[e.Lang], ngrams(Key(e.Text), ngramSize(e.Lang)))
	}
	return ix
}

func (ix nearIndex) near(ex dataset.Example) bool {
	g := ngrams(Key(ex.Text), ngramSize(ex.Lang))
	for _, o := range ix[ex.Lang] {
		if jaccard(g, o) >= NearJaccard {
			return true
		}
	}
	return false
}
