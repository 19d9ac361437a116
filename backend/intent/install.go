package intent

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ModelFiles are the files a model folder holds.
var ModelFiles = []string{ModelFile, LabelsFile, FeaturizerFile}

// Install writes the model files of model (e.g. the ones built into the binary)
// into dir, where ONNX Runtime reads them; a file already there with the same
// bytes is left alone, any other is replaced atomically.
func Install(model fs.FS, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("install intent model: %w", err)
	}
	for _, name := range ModelFiles {
		want, err := fs.ReadFile(model, name)
		if err != nil {
			return fmt.Errorf("install intent model: %s is not built into this binary: %w; %s", name, ErrNoModel, ModelHint)
		}
		path := filepath.Join(dir, name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, want) {
			continue
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, want, 0o600); err != nil {
			return fmt.Errorf("install intent model: %w", err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("install intent model: %w", err)
		}
	}
	return nil
}
