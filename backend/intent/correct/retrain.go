package correct

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"hermes/backend/intent/dataset"
	"hermes/backend/intent/train"
)

// UserModelDir is where a model retrained on this computer is installed, inside
// the installed model's folder; the installed model stays the fallback.
const UserModelDir = "user"

// Repeats is how many times each correction is added to the training data, so
// that one correction outweighs the generated examples near it.
const Repeats = 3

// ErrNoData is a Hermes that does not carry the training data.
var ErrNoData = errors.New("the intent training data is not here")

// Retrain trains the intent model from the shipped data in src (featurizer,
// train, dev and test splits) plus corrections, which replace the shipped
// examples of the same text, deterministically, and installs it in
// modelsDir/UserModelDir. It returns the training result and that folder.
func Retrain(src fs.FS, modelsDir string, corrections []Correction) (train.Result, string, error) {
	if err := os.MkdirAll(modelsDir, 0o700); err != nil {
		return train.Result{}, "", fmt.Errorf("train intent model: %w", err)
	}
	data, err := os.MkdirTemp(modelsDir, ".data-")
	if err != nil {
		return train.Result{}, "", fmt.Errorf("train intent model: %w", err)
	}
	defer os.RemoveAll(data)
	for _, name := range []string{train.FeaturizerFile, train.DevFile, train.TestFile, train.TrainFile} {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return train.Result{}, "", fmt.Errorf("train intent model: %w (%s): %w", ErrNoData, name, err)
		}
		if name == train.TrainFile && len(corrections) > 0 {
			if b, err = withCorrections(b, corrections); err != nil {
				return train.Result{}, "", err
			}
		}
		if err := os.WriteFile(filepath.Join(data, name), b, 0o600); err != nil {
			return train.Result{}, "", fmt.Errorf("train intent model: %w", err)
		}
	}
	out := filepath.Join(data, "model")
	res, err := train.Run(data, out, train.DefaultConfig())
	if err != nil {
		return train.Result{}, "", err
	}
	dst := filepath.Join(modelsDir, UserModelDir)
	if err := os.RemoveAll(dst); err != nil {
		return train.Result{}, "", fmt.Errorf("install trained intent model: %w", err)
	}
	if err := os.Rename(out, dst); err != nil {
		return train.Result{}, "", fmt.Errorf("install trained intent model: %w", err)
	}
	return res, dst, nil
}

// withCorrections drops the shipped examples whose text the user corrected and
// appends each correction Repeats times.
func withCorrections(trainJSONL []byte, corrections []Correction) ([]byte, error) {
	exs, err := dataset.Read(bytes.NewReader(trainJSONL), train.TrainFile)
	if err != nil {
		return nil, fmt.Errorf("train intent model: %w", err)
	}
	keys := map[string]bool{}
	for _, c := range corrections {
		keys[Key(c.Text)] = true
	}
	exs = slices.DeleteFunc(exs, func(ex dataset.Example) bool { return keys[Key(ex.Text)] })
	for _, c := range corrections {
		lang := "en"
		if strings.IndexFunc(c.Text, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			lang = "zh"
		}
		for range Repeats {
			exs = append(exs, dataset.Example{Text: c.Text, Label: c.Label, Lang: lang})
		}
	}
	return dataset.Marshal(exs), nil
}
