// Package datagen produces the intent training and held-out examples in
// models/intent from templates, slot values and seeded decorations (casual
// prefixes and suffixes, case, dropped punctuation, typos). It is
// deterministic: the same seed gives the same files.
//
// The split is made on undecorated base messages, before decoration, so no
// decorated variant of a held-out message is ever in the training split, and
// no two examples anywhere share a normalized text.
package datagen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode"

	"hermes/backend/intent/dataset"
	"hermes/backend/intent/feature"
)

// DefaultSeed is the seed the committed data was generated with.
const DefaultSeed = 20250311

// Options tune the generator.
type Options struct {
	Seed uint64
	// PerTemplate is how many distinct expansions a template with slots
	// yields.
	PerTemplate int
	// TestFraction of base messages per label and language go to the
	// held-out split, but at least MinTestBases.
	TestFraction float64
	MinTestBases int
}

// DefaultOptions are the options of the committed data.
func DefaultOptions() Options {
	return Options{Seed: DefaultSeed, PerTemplate: 5, TestFraction: 0.2, MinTestBases: 30}
}

// Generate returns the training and held-out examples.
func Generate(opt Options) (train, test []dataset.Example, err error) {
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	owner := map[string]string{} // dedup key -> label, across everything
	for _, lang := range dataset.Langs {
		slots := enSlots
		if lang == "zh" {
			slots = zhSlots
		}
		for _, label := range dataset.Labels {
			bases, err := expandAll(templates[label][lang], slots, opt.PerTemplate, rng)
			if err != nil {
				return nil, nil, fmt.Errorf("generate %s/%s: %w", label, lang, err)
			}
			var kept []string
			for _, b := range bases {
				k := Key(b)
				if prev, ok := owner[k]; ok {
					if prev != label {
						return nil, nil, fmt.Errorf("generate: %q is both %s and %s", b, prev, label)
					}
					continue
				}
				owner[k] = label
				kept = append(kept, b)
			}
			rng.Shuffle(len(kept), func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
			nTest := max(opt.MinTestBases, int(opt.TestFraction*float64(len(kept))+0.5))
			if nTest >= len(kept) {
				return nil, nil, fmt.Errorf("generate %s/%s: only %d base messages", label, lang, len(kept))
			}
			for i, b := range kept {
				variants := []string{b}
				// One or two decorated variants per base.
				for n := 1 + rng.IntN(2); n > 0; n-- {
					variants = append(variants, decorate(b, lang, rng))
				}
				for vi, v := range variants {
					k := Key(v)
					if vi > 0 {
						if _, ok := owner[k]; ok {
							continue
						}
						owner[k] = label
					}
					ex := dataset.Example{Text: v, Label: label, Lang: lang}
					if i < nTest {
						test = append(test, ex)
					} else {
						train = append(train, ex)
					}
				}
			}
		}
	}
	return train, test, nil
}

// Key is the deduplication key of a message: its normalized form with only
// letters and digits kept. Two messages with one key differ only in case,
// width, spacing or punctuation.
func Key(text string) string {
	var b strings.Builder
	for _, r := range feature.Normalize(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	slotRE = regexp.MustCompile(`\{([a-z]+)\}`)
	// weightRE matches a template's optional weight prefix "N* ": the
	// template yields N times PerTemplate expansions.
	weightRE = regexp.MustCompile(`^([2-9])\* `)
)

// expandAll turns templates into distinct base messages.
func expandAll(tpls []string, slots map[string][]string, per int, rng *rand.Rand) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, t := range tpls {
		n := per
		if m := weightRE.FindStringSubmatch(t); m != nil {
			n *= int(m[1][0] - '0')
			t = t[len(m[0]):]
		}
		if !slotRE.MatchString(t) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
			continue
		}
		got := 0
		for try := 0; try < n*8 && got < n; try++ {
			s, err := expand(t, slots, rng, 0)
			if err != nil {
				return nil, err
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			out = append(out, s)
			got++
		}
	}
	return out, nil
}

func expand(t string, slots map[string][]string, rng *rand.Rand, depth int) (string, error) {
	if depth > 3 {
		return "", fmt.Errorf("template %q nests too deep", t)
	}
	var err error
	s := slotRE.ReplaceAllStringFunc(t, func(m string) string {
		name := m[1 : len(m)-1]
		vals := slots[name]
		if len(vals) == 0 {
			err = fmt.Errorf("template %q: unknown slot %q", t, name)
			return m
		}
		v := vals[rng.IntN(len(vals))]
		if slotRE.MatchString(v) {
			v, err = expand(v, slots, rng, depth+1)
		}
		return v
	})
	return s, err
}

var (
	enPrefixes = []string{"hey ", "ok ", "so ", "um ", "btw ", "oh and ", "hi, ", "hello! ", "yo ", "hmm, ", "ok so ", "sorry, ", "alright, "}
	enSuffixes = []string{" thanks", " pls", " :)", " lol", "!!", " thx", " please", " ...", " haha"}
	zhPrefixes = []string{"嗯，", "那个，", "对了，", "哎，", "嘿，", "话说", "小助手，", "喂，", "唉，", "emm "}
	zhSuffixes = []string{"。", "！", "哈", "呀", "啊", " 谢谢", "～", "哈哈", "呢"}
	enCasual   = [][2]string{
		{"i'm ", "im "}, {"I'm ", "Im "}, {"what's ", "whats "}, {"you ", "u "}, {"please", "pls"},
		{"remember", "remeber"}, {"allergic", "alergic"}, {"tomorrow", "tmrw"}, {"because", "cuz"},
		{"don't", "dont"}, {"favorite", "fav"}, {"your", "ur"}, {"are ", "r "}, {"forget", "foget"},
		{"weather", "wether"}, {"birthday", "bday"}, {"minutes", "mins"}, {"thanks", "thnks"},
	}
	zhTypos = [][2]string{{"的", "得"}, {"在", "再"}, {"那", "哪"}, {"做", "作"}, {"记", "纪"}, {"已经", "以经"}, {"什么", "神马"}, {"吗", "嘛"}}
)

// decorate returns a casual variant of s: maybe a prefix or suffix, dropped
// final punctuation, a case change and a typo.
func decorate(s, lang string, rng *rand.Rand) string {
	if lang == "zh" {
		if rng.Float64() < 0.35 {
			s = zhPrefixes[rng.IntN(len(zhPrefixes))] + s
		}
		if rng.Float64() < 0.4 {
			s = strings.TrimRight(s, "？?。！!.")
		}
		if rng.Float64() < 0.3 {
			s = strings.TrimRight(s, "？?。！!.") + zhSuffixes[rng.IntN(len(zhSuffixes))]
		}
		if rng.Float64() < 0.25 {
			t := zhTypos[rng.IntN(len(zhTypos))]
			s = strings.Replace(s, t[0], t[1], 1)
		}
		if rng.Float64() < 0.2 {
			s = strings.NewReplacer("？", "?", "，", ",", "：", ":", "！", "!").Replace(s)
		}
		return s
	}
	if rng.Float64() < 0.35 {
		s = enPrefixes[rng.IntN(len(enPrefixes))] + s
	}
	if rng.Float64() < 0.35 {
		s = strings.TrimRight(s, "?.!")
	}
	if rng.Float64() < 0.3 {
		s += enSuffixes[rng.IntN(len(enSuffixes))]
	}
	switch x := rng.Float64(); {
	case x < 0.3:
		s = strings.ToLower(s)
	case x < 0.55:
		s = capitalize(s)
	case x < 0.58:
		s = strings.ToUpper(s)
	}
	switch x := rng.Float64(); {
	case x < 0.25:
		s = typo(s, rng)
	case x < 0.45:
		c := enCasual[rng.IntN(len(enCasual))]
		s = strings.Replace(s, c[0], c[1], 1)
	}
	return s
}

func capitalize(s string) string {
	for i, r := range s {
		if r >= 'a' && r <= 'z' {
			return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
		}
		if unicode.IsLetter(r) {
			return s
		}
	}
	return s
}

// typo applies one keyboard slip (swap, drop or double a letter) to a random
// ASCII word of four letters or more.
func typo(s string, rng *rand.Rand) string {
	words := strings.Split(s, " ")
	var cand []int
	for i, w := range words {
		if len(w) >= 4 && isASCIIWord(w) {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return s
	}
	wi := cand[rng.IntN(len(cand))]
	w := []byte(words[wi])
	p := 1 + rng.IntN(len(w)-2)
	switch rng.IntN(3) {
	case 0:
		w[p], w[p+1] = w[p+1], w[p]
	case 1:
		w = append(w[:p], w[p+1:]...)
	default:
		w = append(w[:p+1], w[p:]...)
	}
	words[wi] = string(w)
	return strings.Join(words, " ")
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// lines splits a block into trimmed, non-empty lines.
func lines(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
