package datagen

import (
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/intent/dataset"
)

var modelDir = filepath.Join("..", "..", "..", "models", "intent")

// The committed train.jsonl, dev.jsonl and test.jsonl are what the generator
// makes. Regenerate with: go run ./backend/intent/cmd/intent-data
func TestCommittedDataIsGenerated(t *testing.T) {
	sp, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, exs := range map[string][]dataset.Example{"train.jsonl": sp.Train, "dev.jsonl": sp.Dev, "test.jsonl": sp.Test} {
		want, err := os.ReadFile(filepath.Join(modelDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(dataset.Marshal(exs)) != string(want) {
			t.Errorf("models/intent/%s is not what the generator makes; run go run ./backend/intent/cmd/intent-data", name)
		}
	}
}

func TestDataShape(t *testing.T) {
	train, err := dataset.ReadFile(filepath.Join(modelDir, "train.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	test, err := dataset.ReadFile(filepath.Join(modelDir, "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	count := func(exs []dataset.Example) map[[2]string]int {
		m := map[[2]string]int{}
		for _, ex := range exs {
			m[[2]string{ex.Label, ex.Lang}]++
		}
		return m
	}
	trc, tec := count(train), count(test)
	for _, label := range dataset.Labels {
		t.Run(label, func(t *testing.T) {
			en, zh := trc[[2]string{label, "en"}], trc[[2]string{label, "zh"}]
			if en+zh < 100 {
				t.Errorf("train has %d examples, want at least 100", en+zh)
			}
			if share := float64(en) / float64(en+zh); share < 0.35 || share > 0.65 {
				t.Errorf("train is %.0f%% English, want about half", 100*share)
			}
			for _, lang := range dataset.Langs {
				if n := tec[[2]string{label, lang}]; n < 25 {
					t.Errorf("test has %d %s examples, want at least 25", n, lang)
				}
			}
		})
	}
}

// No text occurs twice, within or across splits, even after normalization
// (case, width, spacing, punctuation), and no text has two labels.
func TestNoDuplicates(t *testing.T) {
	seen := map[string]string{} // key -> "split label"
	for _, split := range []string{"train.jsonl", "dev.jsonl", "test.jsonl"} {
		exs, err := dataset.ReadFile(filepath.Join(modelDir, split))
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range exs {
			k := Key(ex.Text)
			if prev, ok := seen[k]; ok {
				t.Errorf("%q (%s %s) duplicates an example in %s", ex.Text, split, ex.Label, prev)
			}
			seen[k] = split + " " + ex.Label
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	s1, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := Generate(DefaultOptions())
	for _, p := range [][2][]dataset.Example{{s1.Train, s2.Train}, {s1.Dev, s2.Dev}, {s1.Test, s2.Test}} {
		if string(dataset.Marshal(p[0])) != string(dataset.Marshal(p[1])) {
			t.Fatal("two runs with one seed differ")
		}
	}
	opt := DefaultOptions()
	opt.Seed++
	s3, _ := Generate(opt)
	if string(dataset.Marshal(s1.Train)) == string(dataset.Marshal(s3.Train)) {
		t.Fatal("another seed gives the same data")
	}
}

// The split is by template family: no template contributes to two splits.
// Checked on literal templates, whose one base message must appear (maybe
// decorated) in a single split.
func TestSplitByTemplate(t *testing.T) {
	sp, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for name, exs := range map[string][]dataset.Example{"train": sp.Train, "dev": sp.Dev, "test": sp.Test} {
		for _, ex := range exs {
			where[Key(ex.Text)] = name
		}
	}
	checked := 0
	for _, byLang := range templates {
		for _, tpls := range byLang {
			for _, tpl := range tpls {
				if slotRE.MatchString(tpl) || weightRE.MatchString(tpl) {
					continue
				}
				if _, ok := where[Key(tpl)]; !ok {
					continue // a duplicate of another template's message
				}
				checked++
			}
		}
	}
	if checked < 500 || len(sp.Dev) < 500 || len(sp.Test) < 1000 {
		t.Fatalf("checked %d literal templates; dev %d, test %d examples", checked, len(sp.Dev), len(sp.Test))
	}
}

// No generated example, in any split, is a message of the hand-written
// challenge set (backend/intent/testdata/challenge.jsonl), which no
// generator reads.
func TestChallengeSetUntouched(t *testing.T) {
	ch, err := dataset.ReadFile(filepath.Join("..", "testdata", "challenge.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, ex := range ch {
		keys[Key(ex.Text)] = true
	}
	sp, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, exs := range [][]dataset.Example{sp.Train, sp.Dev, sp.Test} {
		for _, ex := range exs {
			if keys[Key(ex.Text)] {
				t.Errorf("generated %q is in the challenge set", ex.Text)
			}
		}
	}
}

// A family's split depends on its id alone: adding a template moves no
// other family, and the hard-border families are always trained on.
func TestSplitIsStable(t *testing.T) {
	opt := DefaultOptions()
	base, err := Generate(opt)
	if err != nil {
		t.Fatal(err)
	}
	where := func(sp Splits) map[string]string {
		m := map[string]string{}
		for name, exs := range map[string][]dataset.Example{"train": sp.Train, "dev": sp.Dev, "test": sp.Test} {
			for _, ex := range exs {
				m[ex.Text] = name
			}
		}
		return m
	}
	before := where(base)
	saved := templates["task"]["en"]
	templates["task"]["en"] = append([]string{"please frobnicate the {food} for me"}, saved...)
	defer func() { templates["task"]["en"] = saved }()
	moved, err := Generate(opt)
	if err != nil {
		t.Fatal(err)
	}
	after := where(moved)
	changed := 0
	for text, split := range before {
		if s, ok := after[text]; !ok || s != split {
			changed++
		}
	}
	if changed > 0 {
		t.Errorf("adding one template moved or dropped %d of %d examples", changed, len(before))
	}
	for _, id := range hardBorders {
		if s := SplitOf(id, opt); s != Train {
			t.Errorf("hard border %q is in split %d", id, s)
		}
	}
	held := 0
	for label, byLang := range templates {
		for lang, tpls := range byLang {
			for _, tpl := range tpls {
				if SplitOf(familyID(label, lang, tpl), opt) != Train {
					held++
				}
			}
		}
	}
	if held == 0 {
		t.Fatal("no family is held out")
	}
}

// TestHandwrittenAwayFromChallenge keeps the hand-written training messages
// away from the hand-written challenge set, which nothing may be trained
// on: no hand-written message is near (Near) a challenge message of its
// language.
func TestHandwrittenAwayFromChallenge(t *testing.T) {
	hand, err := Handwritten()
	if err != nil {
		t.Fatal(err)
	}
	if len(hand) < 500 {
		t.Fatalf("%d hand-written messages, want at least 500", len(hand))
	}
	challenge, err := dataset.ReadFile("../testdata/challenge.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hand {
		for _, c := range challenge {
			if c.Lang != h.Lang {
				continue
			}
			if Near(h.Text, c.Text, h.Lang) {
				t.Errorf("hand-written %q is too close to challenge %q", h.Text, c.Text)
			}
		}
	}
}
