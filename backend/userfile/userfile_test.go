package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "huge.json")
	if err := os.WriteFile(small, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 20); err != nil { // 10 MB, sparse
		t.Fatal(err)
	}
	f.Close()
	if b, err := Read(small, 0); err != nil || string(b) != "{}" {
		t.Errorf("small: %q, %v", b, err)
	}
	var tb *TooBigError
	if _, err := Read(big, 0); !errors.Is(err, ErrTooBig) || !errors.As(err, &tb) || tb.Max != MaxSize {
		t.Errorf("big: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none.json"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Read(small, 1); !errors.Is(err, ErrTooBig) {
		t.Errorf("a limit of 1 byte: %v", err)
	}
}
