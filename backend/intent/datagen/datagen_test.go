package datagen

import (
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/intent/dataset"
)

var modelDir = filepath.Join("..", "..", "..", "models", "intent")

// The committed train.jsonl and test.jsonl are what the generator makes.
// Regenerate with: go run ./backend/intent/cmd/intent-data
func TestCommittedDataIsGenerated(t *testing.T) {
	train, test, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, exs := range map[string][]dataset.Example{"train.jsonl": train, "test.jsonl": test} {
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
	for _, split := range []string{"train.jsonl", "test.jsonl"} {
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
	a1, b1, err := Generate(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	a2, b2, _ := Generate(DefaultOptions())
	if string(dataset.Marshal(a1)) != string(dataset.Marshal(a2)) || string(dataset.Marshal(b1)) != string(dataset.Marshal(b2)) {
		t.Fatal("two runs with one seed differ")
	}
	opt := DefaultOptions()
	opt.Seed++
	a3, _, _ := Generate(opt)
	if string(dataset.Marshal(a1)) == string(dataset.Marshal(a3)) {
		t.Fatal("another seed gives the same data")
	}
}
