package train

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"hermes/backend/intent/dataset"
	"hermes/backend/intent/feature"
	"hermes/backend/intent/onnx"
)

// File names in a model directory.
const (
	ModelFile      = "intent.onnx"
	LabelsFile     = "labels.json"
	MetricsFile    = "metrics.json"
	FeaturizerFile = "featurizer.json"
	TrainFile      = "train.jsonl"
	TestFile       = "test.jsonl"
	DevFile        = "dev.jsonl"
)

// ProducerVersion is written into the ONNX model.
const ProducerVersion = "1"

// LabelsJSON is the content of labels.json.
type LabelsJSON struct {
	Labels []string `json:"labels"`
}

// Result is what Run produced.
type Result struct {
	Report Report
	Files  []string
	// Misses are the held-out examples the model got wrong, with what it
	// predicted.
	Misses []Miss
}

// Miss is one held-out error.
type Miss struct {
	Example    dataset.Example
	Predicted  string
	Confidence float64
}

// Run trains on dataDir/train.jsonl with dataDir/featurizer.json, fits the
// calibration temperature on dataDir/dev.jsonl, evaluates on
// dataDir/test.jsonl and writes intent.onnx, labels.json, metrics.json and
// featurizer.json into outDir.
func Run(dataDir, outDir string, cfg Config) (Result, error) {
	fcfg, err := feature.Load(filepath.Join(dataDir, FeaturizerFile))
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	fz, err := feature.New(fcfg)
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	train, err := readSplit(dataDir, TrainFile)
	if err != nil {
		return Result{}, err
	}
	test, err := readSplit(dataDir, TestFile)
	if err != nil {
		return Result{}, err
	}
	dev, err := readSplit(dataDir, DevFile)
	if err != nil {
		return Result{}, err
	}
	raw, err := Fit(fz, train.examples, cfg)
	if err != nil {
		return Result{}, err
	}
	m, cal, temp := calibrate(raw, fz, dev.examples, test.examples, cfg)
	model, err := encodeModel(m, fcfg, train.sha, temp)
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	modelSHA := sha256.Sum256(model)
	testPreds := PredictAll(m, fz, test.examples)
	rep := Report{
		HeldOut:     Evaluate(TestFile, test.examples, testPreds),
		Dev:         Evaluate(DevFile, dev.examples, PredictAll(m, fz, dev.examples)),
		Calibration: cal,
		Training: Training{
			Config: cfg, Examples: len(train.examples),
			TrainAccuracy: Evaluate(TrainFile, train.examples, PredictAll(m, fz, train.examples)).Accuracy,
			TrainSHA256:   hex.EncodeToString(train.sha[:]), TestSHA256: hex.EncodeToString(test.sha[:]),
			DevSHA256:  hex.EncodeToString(dev.sha[:]),
			ModelBytes: len(model), ModelSHA256: hex.EncodeToString(modelSHA[:]),
		},
	}
	res, err := writeModel(outDir, map[string][]byte{
		ModelFile: model, LabelsFile: Marshal(LabelsJSON{Labels: m.Labels}), MetricsFile: Marshal(rep), FeaturizerFile: fcfg.Marshal(),
	})
	if err != nil {
		return Result{}, err
	}
	res.Report = rep
	for i, p := range testPreds {
		if dataset.Labels[p.Label] != test.examples[i].Label {
			res.Misses = append(res.Misses, Miss{Example: test.examples[i], Predicted: dataset.Labels[p.Label], Confidence: p.Confidence})
		}
	}
	return res, nil
}

// split is one dataset file: its examples and the SHA-256 of its bytes.
type split struct {
	examples []dataset.Example
	sha      [sha256.Size]byte
}

func readSplit(dataDir, name string) (split, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, name))
	if err != nil {
		return split{}, fmt.Errorf("train intent model: %w", err)
	}
	ex, err := dataset.Read(strings.NewReader(string(b)), name)
	if err != nil {
		return split{}, fmt.Errorf("train intent model: %w", err)
	}
	return split{examples: ex, sha: sha256.Sum256(b)}, nil
}

// calibrate fits the temperature on the development split (never on the
// held-out split or the challenge set) and folds it into the weights.
func calibrate(raw *Model, fz *feature.Featurizer, devEx, testEx []dataset.Example, cfg Config) (*Model, Calibration, float64) {
	temp, nllBefore, nllAfter := FitTemperature(raw, fz, devEx)
	if cfg.Uncalibrated {
		temp, nllAfter = 1, nllBefore
	}
	m := raw.Scaled(temp)
	return m, Calibration{
		Split: DevFile, Examples: len(devEx), Temperature: R4(temp),
		NLLBefore: R4(nllBefore), NLLAfter: R4(nllAfter),
		ECEBefore:        R4(ECE(devEx, PredictAll(raw, fz, devEx))),
		ECEAfter:         R4(ECE(devEx, PredictAll(m, fz, devEx))),
		HeldOutECEBefore: R4(ECE(testEx, PredictAll(raw, fz, testEx))),
	}, temp
}

// encodeModel is m as ONNX (the linear model, or the MLP), with its labels,
// featurizer, training data and temperature in the metadata.
func encodeModel(m *Model, fcfg feature.Config, trainSHA [sha256.Size]byte, temp float64) ([]byte, error) {
	meta := map[string]string{
		onnx.MetaLabels:         strings.Join(m.Labels, ","),
		onnx.MetaFeaturizer:     fcfg.Digest(),
		onnx.MetaFeaturizerDims: strconv.Itoa(fcfg.Dims),
		onnx.MetaTrainSHA:       hex.EncodeToString(trainSHA[:]),
		onnx.MetaTemperature:    strconv.FormatFloat(temp, 'f', 4, 64),
	}
	if m.H > 0 {
		return onnx.MLP{
			Inputs: m.D, Hidden: m.H, Outputs: m.L, W1: m.W1, B1: m.B1, W2: m.W, B2: m.B,
			ProducerVersion: ProducerVersion, Metadata: meta,
		}.Encode()
	}
	return onnx.Linear{
		Inputs: m.D, Outputs: m.L, W: m.W, B: m.B, ProducerVersion: ProducerVersion, Metadata: meta,
	}.Encode()
}

// writeModel writes the model's files into outDir, each atomically, in the
// order Result lists them (model, labels, metrics, featurizer).
func writeModel(outDir string, files map[string][]byte) (Result, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return Result{}, fmt.Errorf("write intent model: %w", err)
	}
	var res Result
	for _, name := range []string{ModelFile, LabelsFile, MetricsFile, FeaturizerFile} {
		p := filepath.Join(outDir, name)
		if err := writeFileAtomic(p, files[name]); err != nil {
			return Result{}, fmt.Errorf("write intent model: %w", err)
		}
		res.Files = append(res.Files, p)
	}
	return res, nil
}

// PredictAll runs the Go model over examples.
func PredictAll(m *Model, fz *feature.Featurizer, exs []dataset.Example) []Prediction {
	out := make([]Prediction, len(exs))
	for i, ex := range exs {
		p := m.Predict(fz.Sparse(ex.Text))
		best := 0
		for c := range p {
			if p[c] > p[best] {
				best = c
			}
		}
		out[i] = Prediction{Label: best, Confidence: p[best]}
	}
	return out
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
