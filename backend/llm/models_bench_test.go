package llm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"hermes/backend/llm/llmtest"
)

// BenchmarkModelDetails20 is the Models panel's list: 20 models with their
// details, capabilities and loaded state, against the fake.
func BenchmarkModelDetails20(b *testing.B) {
	fake := llmtest.New()
	for i := range 18 {
		fake.Models = append(fake.Models, llmtest.Model{Name: fmt.Sprintf("model-%02d", i), ContextLength: 4096, Capabilities: []string{"completion"}})
	}
	srv := fake.Start()
	defer func() { fake.Close(); srv.Close() }()
	c, err := New(Config{Host: srv.URL}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		list, err := c.ModelDetails(ctx)
		if err != nil || len(list) != 20 {
			b.Fatalf("%d models, %v", len(list), err)
		}
	}
}

// importSize is the GGUF file of the import benchmarks (read from the page
// cache in every run, as a file just copied from a USB stick would be).
const importSize = 256 << 20

func ggufFile(b *testing.B) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "bench.gguf")
	if err := llmtest.WriteGGUF(p, importSize); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkImportGGUF is Hermes's own side of a GGUF import: checking,
// hashing and uploading the file (into=upload: to a fake that takes the bytes
// without hashing or writing them: that work is Ollama's), or, into an Ollama
// Hermes started itself, hashing it while copying it into the models folder
// (into=store: the writing Ollama did is then Hermes's, and counted).
func BenchmarkImportGGUF(b *testing.B) {
	for _, into := range []string{"upload", "store"} {
		b.Run("into="+into, func(b *testing.B) {
			file := ggufFile(b)
			c, clear := importTarget(b, into)
			b.SetBytes(importSize)
			b.ResetTimer()
			for i := range b.N {
				if err := c.ImportGGUF(context.Background(), file, fmt.Sprintf("bench-%d", i), "", nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				clear()
				b.StartTimer()
			}
		})
	}
}

// importTarget is a client of a fake Ollama that discards uploads
// (into=upload), or whose models folder (on the benchmark's disk) the client
// knows (into=store); clear takes the blob an import placed away.
func importTarget(b *testing.B, into string) (c *Client, clear func()) {
	fake := llmtest.New()
	fake.Discard = true
	cfg := Config{}
	clear = func() {}
	if into == "store" {
		store := b.TempDir()
		blobs := filepath.Join(store, "blobs")
		if err := os.Mkdir(blobs, 0o755); err != nil {
			b.Fatal(err)
		}
		fake.Store, cfg.Store = store, func() string { return store }
		clear = func() {
			entries, _ := os.ReadDir(blobs)
			for _, e := range entries {
				os.Remove(filepath.Join(blobs, e.Name()))
			}
		}
	}
	srv := fake.Start()
	b.Cleanup(func() { fake.Close(); srv.Close() })
	cfg.Host = srv.URL
	c, err := New(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	return c, clear
}

// BenchmarkCopyFile is copying the same file on the same disk, the yardstick
// of the import's overhead: until the copy is on the disk (synced), and as
// far as the page cache (cp's own return).
func BenchmarkCopyFile(b *testing.B) {
	for _, sync := range []bool{true, false} {
		b.Run(fmt.Sprintf("synced=%v", sync), func(b *testing.B) { benchCopy(b, sync) })
	}
}

func benchCopy(b *testing.B, sync bool) {
	file := ggufFile(b)
	dst := filepath.Join(b.TempDir(), "copy.gguf")
	b.SetBytes(importSize)
	b.ResetTimer()
	for range b.N {
		copyFile(b, file, dst, sync)
	}
}

// copyFile copies src to dst (synced to the disk when sync) and says how long it took.
func copyFile(b *testing.B, src, dst string, sync bool) time.Duration {
	start := time.Now()
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if sync {
		if err := out.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// BenchmarkImportOverCopy times, in each round, a copy of the file on the same
// disk and then Hermes' side of its import (into=upload and into=store, as
// BenchmarkImportGGUF), and reports the median ratio import/copy (to the copy
// on the disk, synced, and as far as the page cache): the ratio holds steadier
// than two separate benchmarks on a busy machine. x-copy-synced-cold starts
// both from a file that is not in the page cache (as a model on a USB stick or
// a disk is): the source is evicted before each.
func BenchmarkImportOverCopy(b *testing.B) {
	for _, into := range []string{"upload", "store"} {
		b.Run("into="+into, func(b *testing.B) { importOverCopy(b, into) })
	}
}

func importOverCopy(b *testing.B, into string) {
	file := ggufFile(b)
	dst := filepath.Join(b.TempDir(), "copy.gguf")
	c, clear := importTarget(b, into)
	copyOnce := func(sync bool) time.Duration { return copyFile(b, file, dst, sync) }
	var synced, cached, cold, ms, msCopy []float64
	b.SetBytes(importSize)
	b.ResetTimer()
	for i := range b.N {
		cs, cc := copyOnce(true), copyOnce(false)
		start := time.Now()
		if err := c.ImportGGUF(context.Background(), file, fmt.Sprintf("bench-%d", i), "", nil); err != nil {
			b.Fatal(err)
		}
		imp := time.Since(start)
		clear()
		ms, msCopy = append(ms, float64(imp.Microseconds())/1e3), append(msCopy, float64(cs.Microseconds())/1e3)
		synced = append(synced, float64(imp)/float64(cs))
		cached = append(cached, float64(imp)/float64(cc))

		evict(b, file)
		csCold := copyOnce(true)
		evict(b, file)
		start = time.Now()
		if err := c.ImportGGUF(context.Background(), file, fmt.Sprintf("bench-cold-%d", i), "", nil); err != nil {
			b.Fatal(err)
		}
		cold = append(cold, float64(time.Since(start))/float64(csCold))
		clear()
	}
	b.ReportMetric(median(synced), "x-copy-synced")
	b.ReportMetric(median(cached), "x-copy-cached")
	b.ReportMetric(median(cold), "x-copy-synced-cold")
	b.ReportMetric(median(ms), "ms-import")
	b.ReportMetric(median(msCopy), "ms-copy-synced")
}

// evict drops a file's pages from the page cache (no root needed).
func evict(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Fatal(err)
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
