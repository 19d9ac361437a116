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
	trainBytes, err := os.ReadFile(filepath.Join(dataDir, TrainFile))
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	testBytes, err := os.ReadFile(filepath.Join(dataDir, TestFile))
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	trainEx, err := dataset.Read(strings.NewReader(string(trainBytes)), TrainFile)
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	testEx, err := dataset.Read(strings.NewReader(string(testBytes)), TestFile)
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	devBytes, err := os.ReadFile(filepath.Join(dataDir, DevFile))
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	devEx, err := dataset.Read(strings.NewReader(string(devBytes)), DevFile)
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}

	raw, err := Fit(fz, trainEx, cfg)
	if err != nil {
		return Result{}, err
	}
	// Temperature scaling on the development split (never on the held-out
	// split or the challenge set), folded into the weights.
	temp, nllBefore, nllAfter := FitTemperature(raw, fz, devEx)
	if cfg.Uncalibrated {
		temp, nllAfter = 1, nllBefore
	}
	m := raw.Scaled(temp)
	cal := Calibration{
		Split: DevFile, Examples: len(devEx), Temperature: R4(temp),
		NLLBefore: R4(nllBefore), NLLAfter: R4(nllAfter),
		ECEBefore:        R4(ECE(devEx, PredictAll(raw, fz, devEx))),
		ECEAfter:         R4(ECE(devEx, PredictAll(m, fz, devEx))),
		HeldOutECEBefore: R4(ECE(testEx, PredictAll(raw, fz, testEx))),
	}
	trainSHA := sha256.Sum256(trainBytes)
	testSHA := sha256.Sum256(testBytes)
	devSHA := sha256.Sum256(devBytes)
	meta := map[string]string{
		onnx.MetaLabels:         strings.Join(m.Labels, ","),
		onnx.MetaFeaturizer:     fcfg.Digest(),
		onnx.MetaFeaturizerDims: strconv.Itoa(fcfg.Dims),
		onnx.MetaTrainSHA:       hex.EncodeToString(trainSHA[:]),
		onnx.MetaTemperature:    strconv.FormatFloat(temp, 'f', 4, 64),
	}
	var model []byte
	if m.H > 0 {
		model, err = onnx.MLP{
			Inputs: m.D, Hidden: m.H, Outputs: m.L, W1: m.W1, B1: m.B1, W2: m.W, B2: m.B,
			ProducerVersion: ProducerVersion, Metadata: meta,
		}.Encode()
	} else {
		model, err = onnx.Linear{
			Inputs: m.D, Outputs: m.L, W: m.W, B: m.B, ProducerVersion: ProducerVersion, Metadata: meta,
		}.Encode()
	}
	if err != nil {
		return Result{}, fmt.Errorf("train intent model: %w", err)
	}
	modelSHA := sha256.Sum256(model)

	testPreds := PredictAll(m, fz, testEx)
	rep := Report{
		HeldOut:     Evaluate(TestFile, testEx, testPreds),
		Dev:         Evaluate(DevFile, devEx, PredictAll(m, fz, devEx)),
		Calibration: cal,
		Training: Training{
			Config: cfg, Examples: len(trainEx),
			TrainAccuracy: Evaluate(TrainFile, trainEx, PredictAll(m, fz, trainEx)).Accuracy,
			TrainSHA256:   hex.EncodeToString(trainSHA[:]), TestSHA256: hex.EncodeToString(testSHA[:]),
			DevSHA256:  hex.EncodeToString(devSHA[:]),
			ModelBytes: len(model), ModelSHA256: hex.EncodeToString(modelSHA[:]),
		},
	}

	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return Result{}, fmt.Errorf("write intent model: %w", err)
	}
	files := []struct {
		name string
		data []byte
	}{
		{ModelFile, model},
		{LabelsFile, Marshal(LabelsJSON{Labels: m.Labels})},
		{MetricsFile, Marshal(rep)},
		{FeaturizerFile, fcfg.Marshal()},
	}
	var res Result
	for _, f := range files {
		p := filepath.Join(outDir, f.name)
		if err := writeFileAtomic(p, f.data); err != nil {
			return Result{}, fmt.Errorf("write intent model: %w", err)
		}
		res.Files = append(res.Files, p)
	}
	res.Report = rep
	for i, p := range testPreds {
		if dataset.Labels[p.Label] != testEx[i].Label {
			res.Misses = append(res.Misses, Miss{Example: testEx[i], Predicted: dataset.Labels[p.Label], Confidence: p.Confidence})
		}
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
