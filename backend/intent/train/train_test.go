package train

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/intent/dataset"
)

var modelDir = filepath.Join("..", "..", "..", "models", "intent")

var outFiles = []string{ModelFile, LabelsFile, MetricsFile, FeaturizerFile}

// The committed model is what the trainer makes from the committed data, and
// two runs give byte-identical files.
// Retrain with: go tool task model:intent
func TestTrainerReproducesCommittedModel(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		if _, err := Run(modelDir, d, DefaultConfig()); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range outFiles {
		t.Run(name, func(t *testing.T) {
			a, err := os.ReadFile(filepath.Join(dirs[0], name))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dirs[1], name))
			if err != nil {
				t.Fatal(err)
			}
			if string(a) != string(b) {
				t.Fatalf("two training runs wrote different %s", name)
			}
			committed, err := os.ReadFile(filepath.Join(modelDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if string(a) != string(committed) {
				t.Fatalf("models/intent/%s is not what the trainer makes from the committed data; run go tool task model:intent", name)
			}
		})
	}
}

// The figures of the committed model hold (regression floors: the split is
// by template family since issue 16, so these measure unseen wordings).
func TestCommittedMetrics(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(modelDir, MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.HeldOut.MacroF1 < 0.95 {
		t.Errorf("held-out macro-F1 %.4f, want >= 0.95", rep.HeldOut.MacroF1)
	}
	if rep.HeldOut.Examples < 1000 {
		t.Errorf("held-out split has %d examples, want >= 1000", rep.HeldOut.Examples)
	}
	c := rep.Calibration
	if c.Split != DevFile || c.Examples < 500 || c.Temperature <= 0 {
		t.Errorf("calibration %+v: want a temperature fitted on >= 500 dev examples", c)
	}
	if c.NLLAfter > c.NLLBefore || c.ECEAfter > c.ECEBefore || rep.HeldOut.ECE > c.HeldOutECEBefore {
		t.Errorf("calibration made things worse: %+v, held-out ECE %.4f", c, rep.HeldOut.ECE)
	}
	if rep.HeldOut.ECE > 0.029 {
		t.Errorf("held-out ECE %.4f, want <= 0.029", rep.HeldOut.ECE)
	}
	st, err := os.Stat(filepath.Join(modelDir, ModelFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 5<<20 || int(st.Size()) != rep.Training.ModelBytes {
		t.Errorf("model is %d bytes (metrics say %d), want <= 5 MiB", st.Size(), rep.Training.ModelBytes)
	}
}

// Temperature scaling finds the temperature that was used to sharpen or
// soften a model's logits, and ECE is zero for perfectly calibrated bins.
func TestFitTemperatureAndECE(t *testing.T) {
	exs := []dataset.Example{{Text: "a", Label: "chitchat"}, {Text: "b", Label: "question"}}
	preds := []Prediction{{Label: 0, Confidence: 1}, {Label: 0, Confidence: 0.5}}
	// Bin of 1.0: accuracy 1; bin of 0.5: accuracy 0, gap 0.5, weight 1/2.
	if got := ECE(exs, preds); math.Abs(got-0.25) > 1e-12 {
		t.Fatalf("ECE = %v, want 0.25", got)
	}
	m := &Model{D: 1, L: 2, W: []float32{0, 0}, B: []float32{2, -2}}
	s := m.Scaled(2)
	if s.B[0] != 1 || s.B[1] != -1 || m.B[0] != 2 {
		t.Fatalf("Scaled(2) = %v (original %v)", s.B, m.B)
	}
}

func TestEvaluate(t *testing.T) {
	// Three chitchat (one predicted as task), two task (both right).
	exs := []dataset.Example{
		{Text: "a", Label: "chitchat", Lang: "en"},
		{Text: "b", Label: "chitchat", Lang: "zh"},
		{Text: "c", Label: "chitchat", Lang: "en"},
		{Text: "d", Label: "task", Lang: "en"},
		{Text: "e", Label: "task", Lang: "zh"},
	}
	chit, task := dataset.LabelIndex("chitchat"), dataset.LabelIndex("task")
	preds := []Prediction{{chit, 0.9}, {chit, 0.8}, {task, 0.4}, {task, 0.95}, {task, 0.55}}
	h := Evaluate("x", exs, preds)
	if h.Accuracy != 0.8 {
		t.Errorf("accuracy %v, want 0.8", h.Accuracy)
	}
	for _, tc := range []struct {
		label   string
		p, r, f float64
		en, zh  float64
	}{
		{"chitchat", 1, 2.0 / 3, 0.8, 0.5, 1},
		{"task", 2.0 / 3, 1, 0.8, 1, 1},
		{"forget", 0, 0, 0, 0, 0},
	} {
		t.Run(tc.label, func(t *testing.T) {
			m := h.PerLabel[dataset.LabelIndex(tc.label)]
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"precision", float64(m.Precision), tc.p}, {"recall", float64(m.Recall), tc.r}, {"f1", float64(m.F1), tc.f}, {"accuracy_en", float64(m.AccuracyEN), tc.en}, {"accuracy_zh", float64(m.AccuracyZH), tc.zh}} {
				if math.Abs(c.got-c.want) > 1e-9 {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
		})
	}
	if h.Confusion[chit][task] != 1 || h.Confusion[chit][chit] != 2 || h.Confusion[task][task] != 2 {
		t.Errorf("confusion %v", h.Confusion)
	}
	// Threshold 0.5: one example below it, and it is the one error.
	for _, row := range h.Thresholds {
		if row.Threshold == 0.5 && (row.Coverage != 0.8 || row.AccuracyCovered != 1 || row.ErrorsCaught != 1 || row.Errors != 1) {
			t.Errorf("threshold 0.5 row %+v", row)
		}
	}
}

func TestR4(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{0, "0.0000"}, {1, "1.0000"}, {2.0 / 3, "0.6667"}, {0.12345, "0.1235"}} {
		b, _ := R4(tc.in).MarshalJSON()
		if string(b) != tc.want {
			t.Errorf("R4(%v) = %s, want %s", tc.in, b, tc.want)
		}
	}
}

// exp is the platform-independent replacement of math.Exp in training.
func TestExp(t *testing.T) {
	for x := -60.0; x <= 0; x += 0.173 {
		got, want := exp(x), math.Exp(x)
		if math.Abs(got-want) > 4e-16*want {
			t.Fatalf("exp(%v) = %v, math.Exp = %v", x, got, want)
		}
	}
	if exp(-1000) != 0 || exp(0) != 1 {
		t.Fatal("exp edge cases")
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no featurizer", map[string]string{TrainFile: "", TestFile: ""}, FeaturizerFile},
		{"bad label", map[string]string{
			FeaturizerFile: `{"version":1,"dims":64,"seed":1,"word_ngrams":[1,2],"latin_char_ngrams":[2,4],"cjk_char_ngrams":[1,3]}`,
			TrainFile:      `{"text":"hi","label":"greeting","lang":"en"}`, TestFile: "",
		}, `unknown label "greeting"`},
		{"missing label", map[string]string{
			FeaturizerFile: `{"version":1,"dims":64,"seed":1,"word_ngrams":[1,2],"latin_char_ngrams":[2,4],"cjk_char_ngrams":[1,3]}`,
			TrainFile:      `{"text":"hi","label":"chitchat","lang":"en"}`, TestFile: "", DevFile: "",
		}, `no examples of label "question"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Run(dir, t.TempDir(), DefaultConfig())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Run error = %v, want %q", err, tc.want)
			}
		})
	}
}
