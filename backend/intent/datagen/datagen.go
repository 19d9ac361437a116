// Package datagen produces the intent training and held-out examples in
// models/intent from templates, slot values and seeded decorations (casual
// prefixes and suffixes, case, dropped punctuation, typos), plus messages
// written by hand (handwritten.go) for training and development. It is
// deterministic: the same seed gives the same files.
//
// The split is made by template family, before decoration, so no expansion
// or decorated variant of a held-out template is ever in the training split,
// and no two examples anywhere share a normalized text. A family's split is
// a hash of its id, so adding a template reshuffles nothing else.
package datagen

import (
	"fmt"
	"hermes/backend/lazyre"
	"math/rand/v2"
	"slices"
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
	// TestFraction of template families go to the held-out split and
	// DevFraction to the development split (which the trainer uses to fit
	// the calibration temperature and to choose the model), by a hash of
	// each family's id (SplitOf). Generate fails if a label and language
	// gets fewer than MinTestBases held-out or MinDevBases development base
	// messages.
	TestFraction float64
	MinTestBases int
	DevFraction  float64
	MinDevBases  int
	// HandDevFraction of the hand-written messages go to the development
	// split (by a hash of each text), the rest to training.
	HandDevFraction float64
}

// DefaultOptions are the options of the committed data.
func DefaultOptions() Options {
	return Options{Seed: DefaultSeed, PerTemplate: 5, TestFraction: 0.15, MinTestBases: 12, DevFraction: 0.1, MinDevBases: 8, HandDevFraction: 0.2}
}

// Splits are the generated examples.
type Splits struct {
	Train, Dev, Test []dataset.Example
}

// hardBorders are the template families the hard borders between the intent labels
// (docs/architecture.md, "Intent labels") are taught by (backend/intent TestHardBorders): a fact about
// the user (remember), the same fact about someone else or as a what-if
// (hypothetical), asking what the assistant knows (recall), asking to delete
// it (forget), and live data (task). They are always in the training split,
// whatever their hash says; every other family is held out by chance. Each
// entry is "label/lang/template" with the template as written, less any
// weight prefix; Generate fails if one names no template.
var hardBorders = []string{
	"remember/en/I'm allergic to {food}",
	"remember/zh/我对{food}过敏",
	"hypothetical/en/{person} is allergic to {food}",
	"hypothetical/en/what if I were allergic to {food}?",
	"hypothetical/en/what if I were allergic",
	"hypothetical/zh/{person}对{food}过敏",
	"hypothetical/zh/要是我对{food}过敏呢？",
	"hypothetical/zh/如果我对{food}过敏会怎么样？",
	"recall/en/what am I allergic to?",
	"recall/zh/我对什么过敏？",
	"forget/en/forget my allergy",
	"forget/zh/忘掉我的过敏",
	"task/en/what time is it?",
	"task/en/what time is it",
	"task/zh/现在几点了？",
	"chitchat/en/hello there, how are you?",
	"chitchat/zh/你好",
}

// Split names a family's destination.
type Split int

// The splits.
const (
	Train Split = iota
	Dev
	Test
)

// familyID names a template family: its label, language and template text
// (less any weight prefix). It does not depend on the family's position, so
// adding or removing a template moves no other family.
func familyID(label, lang, tpl string) string {
	return label + "/" + lang + "/" + tpl
}

// fnv64a is the 64-bit FNV-1a hash of s.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// SplitOf returns the split of the family with the given id: a hard border
// is always Train; any other goes to Test with probability
// opt.TestFraction and to Dev with probability opt.DevFraction, by a hash of
// the id alone (not the seed, not the family's position).
func SplitOf(id string, opt Options) Split {
	if slices.Contains(hardBorders, id) {
		return Train
	}
	h := fnv64a("hermes-intent-split/" + id)
	// Finalize (splitmix64) so that ids differing only at the end spread.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	u := float64(h>>11) / (1 << 53)
	switch {
	case u < opt.TestFraction:
		return Test
	case u < opt.TestFraction+opt.DevFraction:
		return Dev
	}
	return Train
}

// Generate returns the training, development and held-out examples. The
// split is made by template family: every expansion of one template (and
// every decorated variant of those) lands in one split, chosen by SplitOf,
// so the held-out and development figures measure wordings the model never
// saw, not only new slot values (the development split also gets
// hand-written messages kept apart from training ones, addHandwritten). Each
// family draws its slot values and decorations from its own generator,
// seeded by the seed and the family's id, so adding a template changes no
// other family's examples (except where its messages now claim a text
// first).
func Generate(opt Options) (Splits, error) {
	var out Splits
	owner := map[string]string{} // dedup key -> label, across everything
	literal := map[string]bool{} // dedup key -> a literal template's text
	known := map[string]bool{}
	for _, lang := range dataset.Langs {
		slots := enSlots
		if lang == "zh" {
			slots = zhSlots
		}
		for _, label := range dataset.Labels {
			var bases [3]int
			for _, tpl := range templates[label][lang] {
				n := opt.PerTemplate
				if m := weightRE.FindStringSubmatch(tpl); m != nil {
					n *= int(m[1][0] - '0')
					tpl = tpl[len(m[0]):]
				}
				id := familyID(label, lang, tpl)
				if known[id] {
					continue
				}
				known[id] = true
				h := fnv64a(id)
				rng := rand.New(rand.NewPCG(opt.Seed^h, h^0x9e3779b97f4a7c15))
				fam, err := expandFamily(tpl, slots, n, rng)
				if err != nil {
					return Splits{}, fmt.Errorf("generate %s/%s: %w", label, lang, err)
				}
				split := SplitOf(id, opt)
				dst := &out.Train
				switch split {
				case Dev:
					dst = &out.Dev
				case Test:
					dst = &out.Test
				}
				for _, b := range fam {
					k := Key(b)
					if prev, ok := owner[k]; ok {
						// Two templates that say one thing with two labels
						// contradict each other; a slot expansion that
						// happens to match another label's text (an
						// expression "6*66" and the slang "666") is dropped.
						if prev != label && literal[k] && !slotRE.MatchString(tpl) {
							return Splits{}, fmt.Errorf("generate: %q is both %s and %s", b, prev, label)
						}
						continue
					}
					owner[k] = label
					literal[k] = !slotRE.MatchString(tpl)
					bases[split]++
					*dst = append(*dst, dataset.Example{Text: b, Label: label, Lang: lang})
					// One or two decorated variants per base.
					for n := 1 + rng.IntN(2); n > 0; n-- {
						v := decorate(b, lang, rng)
						k := Key(v)
						if _, ok := owner[k]; ok {
							continue
						}
						owner[k] = label
						*dst = append(*dst, dataset.Example{Text: v, Label: label, Lang: lang})
					}
				}
			}
			if bases[Test] < opt.MinTestBases || bases[Dev] < opt.MinDevBases {
				return Splits{}, fmt.Errorf("generate %s/%s: %d test and %d dev base messages, want at least %d and %d", label, lang, bases[Test], bases[Dev], opt.MinTestBases, opt.MinDevBases)
			}
		}
	}
	if err := addHandwritten(&out, owner, literal, opt); err != nil {
		return Splits{}, err
	}
	for _, id := range hardBorders {
		if !known[id] {
			return Splits{}, fmt.Errorf("generate: hard border %q names no template", id)
		}
	}
	return out, nil
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
	slotRE = lazyre.New(`\{([a-z]+[0-9]*)\}`)
	// weightRE matches a template's optional weight prefix "N* ": the
	// template yields N times PerTemplate expansions.
	weightRE = lazyre.New(`^([2-9])\* `)
)

// expandFamily turns one template into up to n distinct base messages (a
// literal template into itself).
func expandFamily(t string, slots map[string][]string, n int, rng *rand.Rand) ([]string, error) {
	if !slotRE.MatchString(t) {
		return []string{t}, nil
	}
	var fam []string
	seen := map[string]bool{}
	for try := 0; try < n*8 && len(fam) < n; try++ {
		s, err := expand(t, slots, rng, 0)
		if err != nil {
			return nil, err
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		fam = append(fam, s)
	}
	return fam, nil
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
