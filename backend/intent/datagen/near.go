package datagen

import "hermes/backend/intent/dataset"

// Two messages are one wording (Near) when their character n-grams (trigrams
// of the letters and digits, Key, in English; bigrams in Chinese) overlap by
// a Jaccard index of at least nearJaccard, or when one's n-grams lie nearly
// all (nearContained) in the other's and it has at least nearMinGrams of
// them: "just so you know, I'm left-handed" is "I'm left-handed" with context
// before it.
const (
	nearJaccard   = 0.5
	nearContained = 0.7
	nearMinGrams  = 4
)

// Near reports whether two messages of language lang are one wording.
func Near(a, b, lang string) bool {
	n := ngramSize(lang)
	ga, gb := ngrams(Key(a), n), ngrams(Key(b), n)
	both := 0
	for g := range ga {
		if gb[g] {
			both++
		}
	}
	return near(both, len(ga), len(gb))
}

// near decides from the shared n-gram count and the two set sizes.
func near(both, a, b int) bool {
	if float64(both) >= nearJaccard*float64(a+b-both) {
		return true
	}
	small := min(a, b)
	return small >= nearMinGrams && float64(both) >= nearContained*float64(small)
}

func ngramSize(lang string) int {
	if lang == "zh" {
		return 2
	}
	return 3
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

// nearIndex finds the first message of a set near a given one, through an
// inverted index of n-grams (only messages sharing one are compared). Each
// message carries a tag (the hand-written messages' split).
type nearIndex struct {
	sizes map[string][]int            // language -> n-gram count per message
	tags  map[string][]int            // language -> tag per message
	post  map[string]map[string][]int // language -> n-gram -> messages
}

func newNearIndex() *nearIndex {
	return &nearIndex{sizes: map[string][]int{}, tags: map[string][]int{}, post: map[string]map[string][]int{}}
}

func (ix *nearIndex) add(ex dataset.Example, tag int) {
	g := ngrams(Key(ex.Text), ngramSize(ex.Lang))
	id := len(ix.sizes[ex.Lang])
	ix.sizes[ex.Lang] = append(ix.sizes[ex.Lang], len(g))
	ix.tags[ex.Lang] = append(ix.tags[ex.Lang], tag)
	if ix.post[ex.Lang] == nil {
		ix.post[ex.Lang] = map[string][]int{}
	}
	for k := range g {
		ix.post[ex.Lang][k] = append(ix.post[ex.Lang][k], id)
	}
}

// find returns the tag of the first message (in the order added) near ex.
func (ix *nearIndex) find(ex dataset.Example) (int, bool) {
	g := ngrams(Key(ex.Text), ngramSize(ex.Lang))
	shared := map[int]int{}
	for k := range g {
		for _, id := range ix.post[ex.Lang][k] {
			shared[id]++
		}
	}
	best := -1
	for id, both := range shared {
		if (best < 0 || id < best) && near(both, len(g), ix.sizes[ex.Lang][id]) {
			best = id
		}
	}
	if best < 0 {
		return 0, false
	}
	return ix.tags[ex.Lang][best], true
}
