package intent

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

// TestInstall: the built-in model files are written where ONNX Runtime reads
// them; an identical file is left alone (its time unchanged), a changed one is
// replaced; a binary without a model file says so.
func TestInstall(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "models", "intent")
	model := fstest.MapFS{ModelFile: {Data: []byte("onnx")}, LabelsFile: {Data: []byte("[]")}, FeaturizerFile: {Data: []byte("{}")}}
	if err := Install(model, dir); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, LabelsFile), old, old)
	os.WriteFile(filepath.Join(dir, ModelFile), []byte("stale"), 0o600)
	if err := Install(model, dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ModelFile)); string(b) != "onnx" {
		t.Errorf("a changed file was not replaced: %q", b)
	}
	if st, _ := os.Stat(filepath.Join(dir, LabelsFile)); !st.ModTime().Equal(old.Truncate(0)) && st.ModTime().After(old.Add(time.Second)) {
		t.Errorf("an identical file was rewritten")
	}
	delete(model, LabelsFile)
	if err := Install(model, t.TempDir()); !errors.Is(err, ErrNoModel) {
		t.Errorf("a missing file: %v", err)
	}
}
