package intent

import (
	"bytes"
	"io/fs"
	"os"
	"testing"
)

// TestBuiltInReadsTheModelInPlace: a BuiltIn model's graph reaches the checks
// (and ONNX Runtime) as the very bytes given, not a copy; through fs.FS the
// same file reads the same, and the other files come from FS.
func TestBuiltInReadsTheModelInPlace(t *testing.T) {
	dir := os.DirFS(modelDir)
	graph, err := fs.ReadFile(dir, ModelFile)
	if err != nil {
		t.Fatal(err)
	}
	b := BuiltIn{FS: dir, InPlace: map[string][]byte{ModelFile: graph}}
	md, err := readModel(b, "(built in)")
	if err != nil {
		t.Fatal(err)
	}
	if len(md.onnx) != len(graph) || &md.onnx[0] != &graph[0] {
		t.Fatalf("the model was copied (or not read): %d bytes", len(md.onnx))
	}
	if got, err := fs.ReadFile(b, ModelFile); err != nil || !bytes.Equal(got, graph) {
		t.Fatalf("through fs.FS: %d bytes, %v", len(got), err)
	}
	if fi, err := fs.Stat(b, ModelFile); err != nil || fi.Size() != int64(len(graph)) || fi.IsDir() {
		t.Fatalf("stat: %v, %v", fi, err)
	}
	want, _ := fs.ReadFile(dir, LabelsFile)
	if got, err := fs.ReadFile(b, LabelsFile); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("labels from FS: %q, %v", got, err)
	}
	c := openTest(t, Config{Model: b, ModelDir: "(built in)"})
	if r, err := c.Classify(t.Context(), "please remember that I am allergic to peanuts"); err != nil || r.Label == "" {
		t.Fatalf("classify: %+v, %v", r, err)
	}
}
