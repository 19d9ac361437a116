package llm

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
)

// TestImportIntoItsOwnOllama: into an Ollama Hermes started itself (its models
// folder known), the import copies the file into the blobs folder while it
// hashes it, and uploads nothing; anywhere else it uploads as before.
func TestImportIntoItsOwnOllama(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := llmtest.WriteGGUF(file, 9<<20); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := hashFile(context.Background(), file, int64(len(want)), func(int64) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// store makes Ollama's models folder with its blobs folder, as Ollama does when it starts.
	store := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "blobs"), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	blobFiles := func(t *testing.T, dir string) []string {
		t.Helper()
		entries, err := os.ReadDir(filepath.Join(dir, "blobs"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	withStore := func(dir string) func(*Config) { return func(c *Config) { c.Store = func() string { return dir } } }

	t.Run("copies the blob into the models folder and uploads nothing", func(t *testing.T) {
		dir := store(t)
		fake := llmtest.New()
		fake.Store = dir // the fake hashes the placed file at create: a wrong byte fails it
		c := newClient(t, fake, withStore(dir))
		var last Progress
		statuses := map[string]bool{}
		if err := c.ImportGGUF(ctx, file, "tiny", "", func(p Progress) error {
			statuses[p.Status] = true
			if p.Status == "copying" {
				last = p
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if fake.Uploads() != 0 {
			t.Errorf("%d uploads into an Ollama whose folder Hermes knows", fake.Uploads())
		}
		if names := blobFiles(t, dir); len(names) != 1 || names[0] != blobName(digest) {
			t.Errorf("blobs folder = %v, want only %s", names, blobName(digest))
		}
		got, _ := os.ReadFile(filepath.Join(dir, "blobs", blobName(digest)))
		if !bytes.Equal(got, want) {
			t.Errorf("the blob is not the file (%d bytes of %d)", len(got), len(want))
		}
		if last.Percent != 100 || !statuses["success"] {
			t.Errorf("progress: %v, last %+v", statuses, last)
		}
		list, _ := c.ModelDetails(ctx)
		if !hasModel(list, "tiny") {
			t.Errorf("tiny not listed: %+v", list)
		}
		// The same file again: Ollama has the blob; nothing is left over.
		if err := c.ImportGGUF(ctx, file, "tiny-again", "", nil); err != nil {
			t.Fatal(err)
		}
		if names := blobFiles(t, dir); len(names) != 1 || fake.Uploads() != 0 {
			t.Errorf("after a second import: %v, %d uploads", names, fake.Uploads())
		}
	})
	t.Run("uploads when Ollama keeps its models elsewhere, and takes its copy away", func(t *testing.T) {
		dir, elsewhere := store(t), store(t)
		fake := llmtest.New()
		fake.Store = elsewhere
		c := newClient(t, fake, withStore(dir))
		if err := c.ImportGGUF(ctx, file, "tiny", "", nil); err != nil {
			t.Fatal(err)
		}
		if fake.Uploads() != 1 || len(blobFiles(t, dir)) != 0 {
			t.Errorf("%d uploads; left in the wrong folder: %v", fake.Uploads(), blobFiles(t, dir))
		}
	})
	t.Run("uploads when the folder is not there", func(t *testing.T) {
		fake := llmtest.New()
		c := newClient(t, fake, withStore(filepath.Join(t.TempDir(), "no-such-folder")))
		if err := c.ImportGGUF(ctx, file, "tiny", "", nil); err != nil || fake.Uploads() != 1 {
			t.Fatalf("import: %v, %d uploads", err, fake.Uploads())
		}
	})
	t.Run("stopped mid-way, it leaves nothing in the folder", func(t *testing.T) {
		dir := store(t)
		fake := llmtest.New()
		fake.Store = dir
		c := newClient(t, fake, withStore(dir))
		stop := errors.New("stopped by the user")
		err := c.ImportGGUF(ctx, file, "tiny", "", func(p Progress) error {
			if p.Status == "copying" && p.Completed > 0 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Fatalf("import = %v, want the callback's error", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		err = c.ImportGGUF(cctx, file, "tiny", "", func(p Progress) error {
			if p.Completed > 0 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("import = %v, want cancelled", err)
		}
		if names := blobFiles(t, dir); len(names) != 0 || fake.Uploads() != 0 {
			t.Errorf("left: %v, %d uploads", names, fake.Uploads())
		}
		if list, _ := c.ModelDetails(ctx); hasModel(list, "tiny") {
			t.Error("a model was created by a stopped import")
		}
	})
}

// TestPlaceBlob: placeBlob itself, in 1 MiB steps (a test file is smaller
// than one production step): a stop mid-way, a file cut short and a file
// changed while it is read leave nothing in the folder.
func TestPlaceBlob(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) (file, blobs string) {
		file = filepath.Join(t.TempDir(), "m.gguf")
		if err := llmtest.WriteGGUF(file, 8<<20); err != nil {
			t.Fatal(err)
		}
		// Written an hour ago: a write during the test gives it a time of its own (file
		// times move in ticks of a few ms).
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(file, old, old); err != nil {
			t.Fatal(err)
		}
		return file, t.TempDir()
	}
	empty := func(t *testing.T, blobs string) {
		t.Helper()
		if left, _ := os.ReadDir(blobs); len(left) != 0 {
			t.Errorf("left in the folder: %v", left)
		}
	}
	size := func(t *testing.T, file string) int64 {
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	t.Run("stopped mid-way", func(t *testing.T) {
		file, blobs := setup(t)
		n := size(t, file)
		stop := errors.New("stopped by the user")
		// Any report below n comes before the end (the hash reports every 4 MiB, the last one after both are done).
		_, _, err := placeBlob(ctx, file, n, 1<<20, blobs, func(done int64) error {
			if done < n {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Fatalf("placeBlob = %v", err)
		}
		empty(t, blobs)
	})
	// Cancelled mid-way, or at the last report (the whole size, reported once
	// after the copy and the hash are done, before the blob is named).
	for name, at := range map[string]func(done, n int64) bool{
		"cancelled mid-way":            func(done, n int64) bool { return done < n },
		"cancelled at the last report": func(done, n int64) bool { return done == n },
	} {
		t.Run(name, func(t *testing.T) {
			file, blobs := setup(t)
			n := size(t, file)
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			_, _, err := placeBlob(cctx, file, n, 1<<20, blobs, func(done int64) error {
				if at(done, n) {
					cancel()
				}
				return nil
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("placeBlob = %v", err)
			}
			empty(t, blobs)
		})
	}
	t.Run("a file shorter than it was", func(t *testing.T) {
		file, blobs := setup(t)
		_, _, err := placeBlob(ctx, file, size(t, file)+1<<20, 1<<20, blobs, func(int64) error { return nil })
		if !errors.Is(err, errChanged) || strings.Contains(err.Error(), "copy into") {
			t.Fatalf("placeBlob = %v, want the file named, not the folder", err)
		}
		empty(t, blobs)
	})
	t.Run("a file changed while it is read", func(t *testing.T) {
		file, blobs := setup(t)
		n := size(t, file)
		changed := false
		_, _, err := placeBlob(ctx, file, n, 1<<20, blobs, func(done int64) error {
			if !changed && done < n {
				changed = true
				f, err := os.OpenFile(file, os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				defer f.Close()
				_, err = f.WriteAt([]byte("changed"), n-100)
				return err
			}
			return nil
		})
		if !errors.Is(err, errChanged) {
			t.Fatalf("placeBlob = %v, want the change refused", err)
		}
		empty(t, blobs)
	})
}

// TestCopyIntoAFullDisk: a write the disk refuses (/dev/full answers every
// write with ENOSPC) is ErrDiskFull with the folder's name.
func TestCopyIntoAFullDisk(t *testing.T) {
	src, err := os.Open("/proc/self/exe") // any file of some size
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	var done atomic.Int64
	err = copyInSteps(context.Background(), full, src, 1<<20, copyStep, &done)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("copy to /dev/full = %v", err)
	}
	if err := copyFailed("/models/blobs", err); !errors.Is(err, ErrDiskFull) || !errors.Is(err, syscall.ENOSPC) ||
		!bytes.Contains([]byte(err.Error()), []byte("copy into /models/blobs")) {
		t.Errorf("copyFailed = %v", err)
	}
}

func hasModel(list []ModelDetail, name string) bool {
	for _, m := range list {
		if m.Name == name {
			return true
		}
	}
	return false
}
