package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeConfigFilesAreRefused: an mcp.json, tools.yaml, workflows.yaml or
// agents.yaml far larger than any real one is one clear refusal naming it, and
// nothing reads it into memory.
func TestHugeConfigFilesAreRefused(t *testing.T) {
	for _, tc := range []struct {
		file string
		args []string
		want string
	}{
		{"mcp.json", []string{"mcp", "list"}, "mcp.json is larger than 1024 KiB"},
		{"tools.yaml", []string{"tools", "list"}, "larger than 1048576 bytes"},
		{"workflows.yaml", []string{"workflow", "list"}, "larger than 1048576 bytes"},
		{"agents.yaml", []string{"agent", "list"}, "larger than 1048576 bytes"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			f, err := os.Create(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(10 << 20); err != nil {
				t.Fatal(err)
			}
			f.Close()
			r := runCLI(t, map[string]string{"HERMES_DATA_DIR": dir}, "", tc.args...)
			if !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("%v: %+v", tc.args, r)
			}
		})
	}
}

// TestHugeMemoryImportIsRefused: a memory import far larger than any export is
// refused by its size (exit 2) before it is read into memory.
func TestHugeMemoryImportIsRefused(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "memories.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	r := runCLI(t, map[string]string{"HERMES_DATA_DIR": dir}, "", "memory", "import", "--jsonl", file)
	if r.code != 2 || !strings.Contains(r.stderr, "larger than 256 MiB") {
		t.Fatalf("%+v", r)
	}
}
