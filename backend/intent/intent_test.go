package intent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/intent/datagen"
	"hermes/backend/intent/dataset"
	"hermes/backend/intent/feature"
	"hermes/backend/intent/onnx"
	"hermes/backend/intent/train"
)

var modelDir = filepath.Join("..", "..", "models", "intent")

// testRT is the one ONNX Runtime environment of this test process, started
// on first use. The library is found like the app finds it
// ($HERMES_ORT_LIB, next to the binary, the setup directory); tests never
// skip when it is missing, they fail and say how to install it.
var (
	testRT     *Runtime
	testLibErr error
)

func TestMain(m *testing.M) {
	if os.Getenv("HERMES_INTENT_HELPER") != "" {
		os.Exit(helper())
	}
	lib, err := LocateLibrary()
	testLibErr = err
	testRT = NewRuntime(lib)
	code := m.Run()
	if err := testRT.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close runtime:", err)
		code = 1
	}
	os.Exit(code)
}

func requireLib(t testing.TB) {
	t.Helper()
	if testLibErr != nil {
		t.Fatalf("the intent tests need the ONNX Runtime library: %v", testLibErr)
	}
}

func openTest(t testing.TB, cfg Config) *Classifier {
	t.Helper()
	requireLib(t)
	cfg.Runtime = testRT
	if cfg.ModelDir == "" {
		cfg.ModelDir = modelDir
	}
	c, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// The hard borders of issue 3, in both languages.
func TestHardBorders(t *testing.T) {
	c := openTest(t, Config{})
	for _, tc := range []struct{ text, want string }{
		{"I'm allergic to peanuts", "remember"},
		{"my friend is allergic to peanuts", "hypothetical"},
		{"what if I were allergic", "hypothetical"},
		{"what am I allergic to?", "recall"},
		{"forget my allergy", "forget"},
		{"what time is it", "task"},
		{"我对花生过敏", "remember"},
		{"我朋友对花生过敏", "hypothetical"},
		{"如果我对花生过敏呢？", "hypothetical"},
		{"我对什么过敏？", "recall"},
		{"忘掉我的过敏", "forget"},
		{"现在几点了", "task"},
		{"hello there!", "chitchat"},
		{"你好呀", "chitchat"},
		{"how do vaccines work?", "question"},
		{"光合作用是什么？", "question"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			r, err := c.Classify(context.Background(), tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if r.Label != tc.want {
				t.Fatalf("Classify(%q) = %s (%.3f), want %s; scores %v", tc.text, r.Label, r.Confidence, tc.want, r.Scores)
			}
		})
	}
}

func TestResultShape(t *testing.T) {
	c := openTest(t, Config{})
	r, err := c.Classify(context.Background(), "set a timer for 10 minutes")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scores) != len(dataset.Labels) {
		t.Fatalf("scores %v", r.Scores)
	}
	var sum float64
	for _, l := range dataset.Labels {
		sum += float64(r.Scores[l])
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Fatalf("scores sum to %v", sum)
	}
	if r.Scores[r.Label] != r.Confidence {
		t.Fatalf("confidence %v is not the score of %s", r.Confidence, r.Label)
	}
}

func TestThresholdAndUnknown(t *testing.T) {
	for _, tc := range []struct {
		name      string
		threshold float32
		text      string
		want      string
	}{
		{"empty text", 0, "", Unknown},
		{"punctuation only", 0, "... ,,, ~~", Unknown},
		{"confident", 0, "what time is it", "task"},
		{"strict threshold", 0.9999, "hmm", Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := openTest(t, Config{Threshold: tc.threshold})
			r, err := c.Classify(context.Background(), tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if r.Label != tc.want {
				t.Fatalf("label %s (%.3f), want %s", r.Label, r.Confidence, tc.want)
			}
			if len(r.Scores) != len(dataset.Labels) {
				t.Fatal("an unknown result still carries every score")
			}
		})
	}
	t.Run("default", func(t *testing.T) {
		if c := openTest(t, Config{}); c.Threshold() != DefaultThreshold {
			t.Fatalf("threshold %v", c.Threshold())
		}
	})
	for _, bad := range []float32{-0.1, 1, 2} {
		t.Run(fmt.Sprintf("invalid %v", bad), func(t *testing.T) {
			if _, err := Open(Config{Runtime: testRT, ModelDir: modelDir, Threshold: bad}); err == nil || !strings.Contains(err.Error(), "threshold") {
				t.Fatalf("Open = %v", err)
			}
		})
	}
}

func testTexts(t testing.TB) []string {
	t.Helper()
	exs, err := dataset.ReadFile(filepath.Join(modelDir, "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(exs))
	for i, ex := range exs {
		texts[i] = ex.Text
	}
	return texts
}

func TestBatchMatchesSingle(t *testing.T) {
	c := openTest(t, Config{})
	texts := testTexts(t)[:batchChunk*2+7] // crosses chunk boundaries
	texts = append(texts, "")
	batch, err := c.ClassifyBatch(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(batch) != len(texts) {
		t.Fatalf("%d results for %d texts", len(batch), len(texts))
	}
	for i, text := range texts {
		one, err := c.Classify(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		if one.Label != batch[i].Label || math.Abs(float64(one.Confidence-batch[i].Confidence)) > 1e-5 {
			t.Fatalf("%q: single %s %.6f, batch %s %.6f", text, one.Label, one.Confidence, batch[i].Label, batch[i].Confidence)
		}
	}
	empty, err := c.ClassifyBatch(context.Background(), nil)
	if err != nil || len(empty) != 0 {
		t.Fatalf("empty batch: %v, %v", empty, err)
	}
}

// Many goroutines share one classifier (run with -race).
func TestConcurrentClassify(t *testing.T) {
	c := openTest(t, Config{})
	texts := testTexts(t)[:40]
	want, err := c.ClassifyBatch(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 5; round++ {
				for i := range texts {
					j := (i + g) % len(texts)
					r, err := c.Classify(context.Background(), texts[j])
					if err != nil {
						errs <- err
						return
					}
					if r.Label != want[j].Label {
						errs <- fmt.Errorf("%q: %s concurrently, %s alone", texts[j], r.Label, want[j].Label)
						return
					}
				}
				if g%2 == 0 {
					if _, err := c.ClassifyBatch(context.Background(), texts); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The committed model, run through ONNX Runtime, reproduces the held-out
// figures the trainer wrote into metrics.json (which the trainer computed in
// Go from the same weights).
func TestCommittedModelReproducesMetrics(t *testing.T) {
	c := openTest(t, Config{})
	exs, err := dataset.ReadFile(filepath.Join(modelDir, "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(exs))
	for i, ex := range exs {
		texts[i] = ex.Text
	}
	results, err := c.ClassifyBatch(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]train.Prediction, len(results))
	for i, r := range results {
		best := 0
		for j, l := range c.Labels() {
			if r.Scores[l] > r.Scores[c.Labels()[best]] {
				best = j
			}
		}
		preds[i] = train.Prediction{Label: best, Confidence: float64(r.Confidence)}
	}
	got := train.Marshal(train.Evaluate(train.TestFile, exs, preds))
	b, err := os.ReadFile(filepath.Join(modelDir, train.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	var committed train.Report
	if err := json.Unmarshal(b, &committed); err != nil {
		t.Fatal(err)
	}
	want := train.Marshal(committed.HeldOut)
	if string(got) != string(want) {
		t.Fatalf("held-out metrics through onnxruntime differ from metrics.json:\n got %s\nwant %s", got, want)
	}
}

func TestClosed(t *testing.T) {
	requireLib(t)
	c, err := Open(Config{Runtime: testRT, ModelDir: modelDir})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.Classify(context.Background(), "hi"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Classify after Close = %v", err)
	}
	if _, err := c.ClassifyBatch(context.Background(), []string{"hi"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("ClassifyBatch after Close = %v", err)
	}
}

func TestContextCancelled(t *testing.T) {
	c := openTest(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Classify(ctx, "hi"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Classify = %v", err)
	}
	if _, err := c.ClassifyBatch(ctx, []string{"hi"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("ClassifyBatch = %v", err)
	}
}

// copyModel copies the committed model directory into a temp dir.
func copyModel(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{ModelFile, LabelsFile, FeaturizerFile} {
		b, err := os.ReadFile(filepath.Join(modelDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func encode(t *testing.T, m onnx.Linear) []byte {
	t.Helper()
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenRejectsBadModel(t *testing.T) {
	requireLib(t)
	model, err := os.ReadFile(filepath.Join(modelDir, ModelFile))
	if err != nil {
		t.Fatal(err)
	}
	fcfg := feature.DefaultConfig()
	L := len(dataset.Labels)
	for _, tc := range []struct {
		name  string
		files map[string][]byte // replaced files; nil content removes
		is    error
		want  []string
	}{
		{"missing model", map[string][]byte{ModelFile: nil}, ErrNoModel, []string{ModelFile, "is missing", "task model:intent"}},
		{"missing labels", map[string][]byte{LabelsFile: nil}, ErrNoModel, []string{LabelsFile, "is missing"}},
		{"missing featurizer", map[string][]byte{FeaturizerFile: nil}, ErrNoModel, []string{FeaturizerFile, "is missing"}},
		{"truncated model", map[string][]byte{ModelFile: model[:len(model)/2]}, ErrBadModel, []string{ModelFile, "not a valid ONNX model", "truncated"}},
		{"truncated by one byte", map[string][]byte{ModelFile: model[:len(model)-1]}, ErrBadModel, []string{"not a valid ONNX model"}},
		{"empty model", map[string][]byte{ModelFile: {}}, ErrBadModel, []string{"not a valid ONNX model"}},
		{"wrong input width", map[string][]byte{ModelFile: encode(t, onnx.Linear{Inputs: 16, Outputs: L, W: make([]float32, 16*L), B: make([]float32, L)})},
			ErrBadModel, []string{"expects 16 features", fmt.Sprintf("dims %d", fcfg.Dims)}},
		{"wrong output width", map[string][]byte{ModelFile: encode(t, onnx.Linear{Inputs: fcfg.Dims, Outputs: 3, W: make([]float32, fcfg.Dims*3), B: make([]float32, 3)})},
			ErrBadModel, []string{"shape [-1 3]", "7 labels"}},
		{"wrong dims in featurizer.json", map[string][]byte{FeaturizerFile: func() []byte { c := fcfg; c.Dims = 4096; return c.Marshal() }()},
			ErrBadModel, []string{fmt.Sprintf("expects %d features", fcfg.Dims), "dims 4096"}},
		{"other featurizer seed", map[string][]byte{FeaturizerFile: func() []byte { c := fcfg; c.Seed++; return c.Marshal() }()},
			ErrBadModel, []string{"different featurizer"}},
		{"unsupported featurizer version", map[string][]byte{FeaturizerFile: []byte(strings.Replace(string(fcfg.Marshal()), `"version": 2`, `"version": 9`, 1))},
			ErrBadModel, []string{"version 9"}},
		{"labels reordered", map[string][]byte{LabelsFile: []byte(`{"labels":["question","chitchat","task","remember","recall","forget","hypothetical"]}`)},
			ErrBadModel, []string{"trained with labels"}},
		{"labels not json", map[string][]byte{LabelsFile: []byte(`chitchat`)}, ErrBadModel, []string{LabelsFile}},
		{"inputs renamed", map[string][]byte{ModelFile: []byte(strings.ReplaceAll(string(model), onnx.IndicesName, "indexes"))},
			ErrBadModel, []string{`want inputs "indices" and "values"`, `"indexes"`}},
		{"feature table renamed", map[string][]byte{ModelFile: []byte(strings.ReplaceAll(string(encode(t, onnx.Linear{Inputs: fcfg.Dims, Outputs: L, W: make([]float32, fcfg.Dims*L), B: make([]float32, L)})), "B\x01W", "B\x01V"))},
			ErrBadModel, []string{`no feature table "W"`}},
		{"graph onnxruntime cannot run", map[string][]byte{ModelFile: []byte(strings.Replace(string(encode(t, onnx.Linear{Inputs: fcfg.Dims, Outputs: L, W: make([]float32, fcfg.Dims*L), B: make([]float32, L)})), "Softmax", "Softmix", 1))},
			ErrBadModel, []string{"onnxruntime rejected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyModel(t)
			for name, content := range tc.files {
				p := filepath.Join(dir, name)
				if content == nil {
					os.Remove(p)
					continue
				}
				if err := os.WriteFile(p, content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Open(Config{Runtime: testRT, ModelDir: dir})
			if err == nil {
				c.Close()
				t.Fatal("Open accepted a broken model directory")
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if !strings.HasPrefix(err.Error(), "load intent model: ") {
				t.Errorf("error %q does not name the operation", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestMissingLibrary(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "libonnxruntime.so.1")
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"no such file", Config{LibPath: missing, ModelDir: modelDir}, []string{missing, "no such file", "task setup:ort", "build/setup/ort.sh"}},
		{"no path", Config{ModelDir: modelDir}, []string{"no path given", "task setup:ort"}},
		{"shared runtime", Config{Runtime: NewRuntime(missing), ModelDir: modelDir}, []string{missing}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Open(tc.cfg)
			if err == nil {
				c.Close()
				t.Fatal("Open succeeded without a library")
			}
			if !errors.Is(err, ErrNoLibrary) {
				t.Errorf("error %v is not ErrNoLibrary", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// A second runtime in one process is refused clearly while the first lives.
func TestSecondRuntimeRefused(t *testing.T) {
	openTest(t, Config{}) // makes sure testRT is started
	lib, _ := LocateLibrary()
	c, err := Open(Config{LibPath: lib, ModelDir: modelDir})
	if err == nil {
		c.Close()
		t.Fatal("a second environment started")
	}
	if !strings.Contains(err.Error(), "share one intent.Runtime") {
		t.Fatalf("error %v", err)
	}
	// The first runtime still works.
	if _, err := openTest(t, Config{}).Classify(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
}

// A file that is not a shared library fails with ErrNoLibrary. It runs in a
// child process, because loading fails inside the process-wide environment.
func TestLibraryNotLoadable(t *testing.T) {
	bogus := filepath.Join(t.TempDir(), "libonnxruntime.so.1")
	if err := os.WriteFile(bogus, []byte("not an ELF file"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "HERMES_INTENT_HELPER=bogus-lib", "HERMES_INTENT_HELPER_LIB="+bogus, "HERMES_INTENT_HELPER_MODEL="+modelDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	for _, w := range []string{"ErrNoLibrary=true", bogus, "task setup:ort"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("helper output %q does not mention %q", out, w)
		}
	}
}

// helper runs in the child processes of TestLibraryNotLoadable and
// BenchmarkColdStart.
func helper() int {
	if os.Getenv("HERMES_INTENT_HELPER") == "cold-start" {
		start := time.Now()
		c, err := Open(Config{LibPath: os.Getenv("HERMES_INTENT_HELPER_LIB"), ModelDir: os.Getenv("HERMES_INTENT_HELPER_MODEL")})
		if err != nil {
			fmt.Println(err)
			return 1
		}
		if _, err := c.Classify(context.Background(), "hello"); err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Printf("%.3f\n", float64(time.Since(start).Microseconds())/1e3)
		c.Close()
		return 0
	}
	_, err := Open(Config{LibPath: os.Getenv("HERMES_INTENT_HELPER_LIB"), ModelDir: os.Getenv("HERMES_INTENT_HELPER_MODEL")})
	if err == nil {
		fmt.Println("opened a bogus library")
		return 1
	}
	fmt.Printf("ErrNoLibrary=%v %v\n", errors.Is(err, ErrNoLibrary), err)
	return 0
}

// TestChallengeSet evaluates the committed model, through ONNX Runtime, on
// the hand-written challenge set (backend/intent/testdata/challenge.jsonl:
// messages written by hand, no generator reads them, nothing is trained,
// tuned or chosen on them) and on the held-out generated split. It logs
// accuracy, macro-F1, per-label F1, per-language accuracy, ECE and the
// errors made with confidence >= 0.9, and fails below the figures the
// committed model reaches (regression floors).
//
// The floors below are near what the committed model reaches, at or above
// issue 16's bars: challenge accuracy and macro-F1 >= 0.95 (reached: 0.974
// and 0.974), every label F1 >= 0.90 (reached: 0.936 at worst), confident
// errors <= 1% (reached: 0.26%); held-out >= 0.97 (reached: 0.9719, macro-F1
// 0.9712, split by template family).
func TestChallengeSet(t *testing.T) {
	c := openTest(t, Config{})
	type floor struct {
		acc, macroF1, labelF1, langAcc, confErr, ece float64
		min                                          int
	}
	for _, tc := range []struct {
		file string
		f    floor
	}{
		{filepath.Join("testdata", "challenge.jsonl"), floor{acc: 0.97, macroF1: 0.97, labelF1: 0.93, langAcc: 0.96, confErr: 0.008, ece: 0.025, min: 300}},
		{filepath.Join(modelDir, "test.jsonl"), floor{acc: 0.97, macroF1: 0.965, labelF1: 0.93, langAcc: 0.96, confErr: 0.008, ece: 0.015, min: 1000}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			exs, err := dataset.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(exs) < tc.f.min {
				t.Fatalf("%d examples, want >= %d", len(exs), tc.f.min)
			}
			preds, err := Predictions(context.Background(), c, exs)
			if err != nil {
				t.Fatal(err)
			}
			h := train.Evaluate(tc.file, exs, preds)
			t.Logf("accuracy %.4f, macro-F1 %.4f, ECE %.4f, errors with confidence >= 0.9: %d of %d (%.2f%%)",
				float64(h.Accuracy), float64(h.MacroF1), float64(h.ECE), h.ConfidentErrors, h.Examples, 100*float64(h.ConfidentErrorRate))
			if float64(h.Accuracy) < tc.f.acc || float64(h.MacroF1) < tc.f.macroF1 {
				t.Errorf("accuracy %.4f, macro-F1 %.4f, want >= %.2f, %.2f", float64(h.Accuracy), float64(h.MacroF1), tc.f.acc, tc.f.macroF1)
			}
			if float64(h.ECE) > tc.f.ece || float64(h.ConfidentErrorRate) > tc.f.confErr {
				t.Errorf("ECE %.4f, confident errors %.4f, want <= %.3f, %.3f", float64(h.ECE), float64(h.ConfidentErrorRate), tc.f.ece, tc.f.confErr)
			}
			for _, l := range h.PerLabel {
				t.Logf("  %-12s F1 %.4f (en %.3f, zh %.3f)", l.Label, float64(l.F1), float64(l.AccuracyEN), float64(l.AccuracyZH))
				if float64(l.F1) < tc.f.labelF1 {
					t.Errorf("%s F1 %.4f, want >= %.2f", l.Label, float64(l.F1), tc.f.labelF1)
				}
			}
			for _, l := range h.PerLang {
				t.Logf("  %s: %d examples, accuracy %.4f", l.Lang, l.Examples, float64(l.Accuracy))
				if float64(l.Accuracy) < tc.f.langAcc {
					t.Errorf("%s accuracy %.4f, want >= %.2f", l.Lang, float64(l.Accuracy), tc.f.langAcc)
				}
			}
			if testing.Verbose() {
				for i, p := range preds {
					if got := dataset.Labels[p.Label]; got != exs[i].Label {
						t.Logf("  miss: %-12s -> %-12s %.2f %s", exs[i].Label, got, p.Confidence, exs[i].Text)
					}
				}
			}
		})
	}
}

// The challenge set is hand-written and separate: at least 40 messages per
// label, both languages, and none of them is in any generated split.
func TestChallengeSetShape(t *testing.T) {
	exs, err := dataset.ReadFile(filepath.Join("testdata", "challenge.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	perLabel, perLang := map[string]int{}, map[string]int{}
	for _, ex := range exs {
		perLabel[ex.Label]++
		perLang[ex.Lang]++
	}
	for _, l := range dataset.Labels {
		if perLabel[l] < 40 {
			t.Errorf("%s: %d messages, want >= 40", l, perLabel[l])
		}
	}
	if len(exs) < 300 || perLang["en"] < 100 || perLang["zh"] < 100 {
		t.Errorf("%d messages (%v), want >= 300 in both languages", len(exs), perLang)
	}
	seen := map[string]string{}
	for _, split := range []string{"train.jsonl", "dev.jsonl", "test.jsonl"} {
		gen, err := dataset.ReadFile(filepath.Join(modelDir, split))
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range gen {
			seen[datagen.Key(ex.Text)] = split
		}
	}
	dup := map[string]bool{}
	for _, ex := range exs {
		k := datagen.Key(ex.Text)
		if split, ok := seen[k]; ok {
			t.Errorf("challenge %q is in %s", ex.Text, split)
		}
		if dup[k] {
			t.Errorf("challenge %q is there twice", ex.Text)
		}
		dup[k] = true
	}
}

// TestMLPExportMatchesTraining: the perceptron the trainer can make (compared
// with the committed linear model) exports to an ONNX graph that ONNX Runtime
// runs to the same predictions as the trainer's own arithmetic.
func TestMLPExportMatchesTraining(t *testing.T) {
	cfg := train.MLPConfig()
	cfg.Epochs = 2
	dir := t.TempDir()
	res, err := train.Run(modelDir, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := openTest(t, Config{ModelDir: dir})
	exs, err := dataset.ReadFile(filepath.Join(modelDir, "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for _, ex := range exs {
		r, err := c.Classify(context.Background(), ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		best, p := "", float32(-1)
		for l, s := range r.Scores { // the argmax, whatever the threshold says
			if s > p {
				best, p = l, s
			}
		}
		if best == ex.Label {
			right++
		}
	}
	got, want := float64(right)/float64(len(exs)), float64(res.Report.HeldOut.Accuracy)
	if math.Abs(got-want) > 0.002 || want < 0.6 {
		t.Fatalf("ONNX Runtime accuracy %.4f, trainer's %.4f", got, want)
	}
}
