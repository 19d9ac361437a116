package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The digest is the file's sha256, with progress every 4 MiB; a file cut short while it is
// hashed (another program, a pulled USB stick) is an error, not a crash.
func TestHashFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.gguf")
	data := make([]byte, 24<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	var steps int
	got, err := hashFile(context.Background(), path, int64(len(data)), func(int64) error { steps++; return nil })
	if err != nil || got != "sha256:"+hex.EncodeToString(sum[:]) || steps != 6 {
		t.Fatalf("digest %s (%d steps), %v", got, steps, err)
	}

	_, err = hashFile(context.Background(), path, int64(len(data)), func(done int64) error {
		if done == 4<<20 {
			return os.Truncate(path, 1<<20)
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "changed or its disk went away") {
		t.Fatalf("a file cut short: %v", err)
	}
}
