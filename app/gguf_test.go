package app

import (
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm"
)

// TestGGUFRefusalsAreCoded: a GGUF file refused for its structure reaches the
// UI as gguf_damaged with its file, reason and size, is bad input (exit 2 on
// the command line), and every reason has words in both dictionaries.
func TestGGUFRefusalsAreCoded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cut.gguf")
	if err := os.WriteFile(file, []byte("GGUF\x03\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := llm.CheckGGUF(file)
	b := errorBody(DescribeError(err, "", ""))
	if b.Code != CodeGGUFDamaged || b.Params["reason"] != llm.GGUFTruncated || b.Params["file"] != "cut.gguf" || b.Params["size"] != "8" || !IsBadInput(err) {
		t.Errorf("the 8-byte file: %+v (bad input: %v)", b, IsBadInput(err))
	}
	wordedByUI(t, "../backend/llm/ggufcheck.go", `(?m)^\s*GGUF\w+\s*=\s*"([a-z_]+)"`, "err.gguf_damaged.", 5)
}
