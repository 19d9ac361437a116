package llm

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
	"hermes/backend/llm/llmtest/realollama"
)

// ggufBytes builds GGUF headers by hand, for files a writer would not make.
type ggufBytes struct{ bytes.Buffer }

func newGGUF(version uint32, tensors, keys uint64) *ggufBytes {
	b := &ggufBytes{}
	b.WriteString("GGUF")
	return b.u32(version).u64(tensors).u64(keys)
}

func (b *ggufBytes) u32(v uint32) *ggufBytes {
	_ = binary.Write(b, binary.LittleEndian, v)
	return b
}

func (b *ggufBytes) u64(v uint64) *ggufBytes {
	_ = binary.Write(b, binary.LittleEndian, v)
	return b
}

func (b *ggufBytes) str(s string) *ggufBytes {
	b.u64(uint64(len(s)))
	b.WriteString(s)
	return b
}

// kvString adds a string metadata pair.
func (b *ggufBytes) kvString(k, v string) *ggufBytes { return b.str(k).u32(ggufString).str(v) }

// tensor adds an F32 tensor info.
func (b *ggufBytes) tensor(name string, offset uint64, shape ...uint64) *ggufBytes {
	b.str(name).u32(uint32(len(shape)))
	for _, d := range shape {
		b.u64(d)
	}
	return b.u32(0).u64(offset)
}

// withData pads the header to 32 bytes and adds n bytes of tensor data.
func (b *ggufBytes) withData(n int) []byte {
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	b.Write(make([]byte, n))
	return b.Bytes()
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// sparseFile is a file of size bytes that starts with head (the rest reads as
// zeros and takes no disk).
func sparseFile(t testing.TB, head []byte, size int64) string {
	t.Helper()
	p := writeFile(t, "big.gguf", head)
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

// validGGUFs are real files: the fake's (llmtest.WriteGGUF) and a model the
// real Ollama loads (Ollama's own writer: arrays, strings, 11 tensors).
func validGGUFs(t testing.TB) map[string]string {
	dir := t.TempDir()
	files := map[string]string{"fake": filepath.Join(dir, "fake.gguf"), "tiny": filepath.Join(dir, "tiny.gguf")}
	if err := llmtest.WriteGGUF(files["fake"], 4096); err != nil {
		t.Fatal(err)
	}
	if err := realollama.WriteTinyModel(files["tiny"]); err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCheckGGUFAcceptsRealFiles(t *testing.T) {
	for name, p := range validGGUFs(t) {
		if err := CheckGGUF(p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCheckGGUFRefuses: every broken header is one typed refusal of one line,
// with its reason, and is ErrNotGGUF (exit 2 on the command line).
func TestCheckGGUFRefuses(t *testing.T) {
	fake := validGGUFs(t)["fake"]
	good, err := os.ReadFile(fake)
	if err != nil {
		t.Fatal(err)
	}
	pastEnd := newGGUF(3, 1, 0).tensor("w", 64, 4).withData(16)
	cases := []struct {
		name, reason, says string
		data               []byte
	}{
		{"the 8-byte file", GGUFTruncated, "the file ends inside its header (the tensor count at byte 8)", []byte("GGUF\x03\x00\x00\x00")},
		{"a file cut short", GGUFTensorPastEnd, `tensor "tok"`, good[:len(good)-1]},
		{"a header cut short", GGUFTruncated, `the file ends inside its header (the value of metadata key "general.architecture" at byte 56)`, good[:60]},
		{"a tensor past the end", GGUFTensorPastEnd, `the data of tensor "w" (data offset 64, 16 bytes)`, pastEnd},
		{"a shape beyond any file", GGUFTensorPastEnd, "a shape of more values than any file holds", newGGUF(3, 1, 0).tensor("w", 0, 1<<32, 1<<32, 1<<32).withData(64)},
		{"2^60 tensors", GGUFTruncated, "its header claims 1152921504606846976 tensors", newGGUF(3, 1<<60, 0).withData(64)},
		{"2^60 metadata keys", GGUFTruncated, "1152921504606846976 metadata keys", newGGUF(3, 1, 1<<60).withData(64)},
		{"a 2^40-byte key", GGUFTruncated, "1099511627776 bytes of a metadata key", newGGUF(3, 1, 1).u64(1 << 40).withData(64)},
		{"a 2^40-byte value", GGUFTruncated, "1099511627776 bytes of the value of metadata key \"k\"", newGGUF(3, 1, 1).str("k").u32(ggufString).u64(1 << 40).withData(64)},
		{"an array of 2^40 uint32", GGUFTruncated, "1099511627776 values in metadata key \"k\"", newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(4).u64(1 << 40).withData(64)},
		{"an array of 2^40 strings", GGUFTruncated, "1099511627776 values in metadata key \"k\"", newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(ggufString).u64(1 << 40).withData(64)},
		{"no tensors", GGUFNoTensors, "holds no tensors", newGGUF(3, 0, 1).kvString("general.architecture", "llama").withData(0)},
		{"an unknown value type", GGUFMalformed, `metadata key "k" has value type 13`, newGGUF(3, 1, 1).str("k").u32(13).withData(64)},
		{"an array of arrays", GGUFMalformed, `metadata key "k" holds an array of arrays`, newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(ggufArray).u64(1).withData(64)},
		{"an empty array of arrays", GGUFMalformed, `metadata key "k" holds an array of arrays`, newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(ggufArray).u64(0).withData(64)},
		{"an empty array of an unknown type", GGUFMalformed, `metadata key "k" holds values of type 99`, newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(99).u64(0).withData(64)},
		{"five dimensions", GGUFMalformed, "tensor 0 has 5 dimensions", newGGUF(3, 1, 0).tensor("w", 0, 1, 1, 1, 1, 1).withData(64)},
		{"an alignment of 3", GGUFMalformed, "general.alignment is 3", newGGUF(3, 1, 1).str("general.alignment").u32(4).u32(3).tensor("w", 0, 1).withData(64)},
		{"an unaligned tensor", GGUFMalformed, `tensor "w" starts at data offset 4`, newGGUF(3, 1, 0).tensor("w", 4, 1).withData(64)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckGGUF(writeFile(t, "m.gguf", tc.data))
			var ge *GGUFError
			if !errors.As(err, &ge) || ge.Reason != tc.reason || !errors.Is(err, ErrNotGGUF) {
				t.Fatalf("got %v (%T), want reason %s", err, err, tc.reason)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "m.gguf") || !strings.Contains(msg, tc.says) || strings.Contains(msg, "\n") {
				t.Errorf("message %q does not say %q in one line", msg, tc.says)
			}
		})
	}
	t.Run("version 1", func(t *testing.T) {
		var ve *GGUFVersionError
		if err := CheckGGUF(writeFile(t, "old.gguf", newGGUF(1, 1, 0).withData(64))); !errors.As(err, &ve) || ve.Version != 1 {
			t.Fatalf("version 1: %v", err)
		}
	})
}

// TestCheckGGUFLimits: a header larger than Hermes reads is refused with its
// limit, even where the file is large enough to hold what it claims.
func TestCheckGGUFLimits(t *testing.T) {
	for _, tc := range []struct {
		name, limit string
		file        func(t *testing.T) string
	}{
		{"more tensors than the limit", "262144 tensors", func(t *testing.T) string {
			return sparseFile(t, newGGUF(3, ggufMaxTensors+1, 0).Bytes(), 8<<20)
		}},
		{"a 65 MiB string", "64 MiB", func(t *testing.T) string {
			return sparseFile(t, newGGUF(3, 1, 1).str("k").u32(ggufString).u64(65<<20).Bytes(), 70<<20)
		}},
		{"more metadata keys than the limit", "65536 metadata keys", func(t *testing.T) string {
			return sparseFile(t, newGGUF(3, 1, ggufMaxKeys+1).Bytes(), 2<<20)
		}},
		{"more values in arrays than the limit", "4194304 values in arrays", func(t *testing.T) string {
			h := newGGUF(3, 1, 2).str("a").u32(ggufArray).u32(0).u64(3 << 20)
			h.Write(make([]byte, 3<<20))
			h.str("b").u32(ggufArray).u32(0).u64(2 << 20)
			return sparseFile(t, h.Bytes(), 6<<20)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ge *GGUFError
			if err := CheckGGUF(tc.file(t)); !errors.As(err, &ge) || ge.Reason != GGUFTooLarge || ge.Limit != tc.limit {
				t.Fatalf("got %v, want too_large with limit %s", err, tc.limit)
			}
		})
	}
}

// TestCheckGGUFBoundedMemory: a header that claims 2^60 tensors, a 2^40-byte
// string or an array of 2^40 strings is refused at once, allocating no more
// than a few kilobytes, in a file large enough that its first values are read.
func TestCheckGGUFBoundedMemory(t *testing.T) {
	heads := map[string][]byte{
		"2^60 tensors":      newGGUF(3, 1<<60, 0).Bytes(),
		"2^40-byte string":  newGGUF(3, 1, 1).str("k").u32(ggufString).u64(1 << 40).Bytes(),
		"2^40 strings":      newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(ggufString).u64(1 << 40).Bytes(),
		"2^32-1 dimensions": newGGUF(3, 1, 0).str("w").u32(1<<32 - 1).Bytes(),
		"2^40 tensors":      newGGUF(3, 1<<40, 0).Bytes(),
	}
	for name, head := range heads {
		t.Run(name, func(t *testing.T) {
			p := sparseFile(t, head, 1<<20)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			err := CheckGGUF(p)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrNotGGUF) {
				t.Fatalf("accepted: %v", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 || took > time.Second {
				t.Errorf("%v: allocated %d bytes in %v", err, alloc, took)
			}
		})
	}
}

// TestImportGGUFRefusesDamagedFile: a damaged file is refused before a byte
// is hashed or uploaded.
func TestImportGGUFRefusesDamagedFile(t *testing.T) {
	good, err := os.ReadFile(validGGUFs(t)["tiny"])
	if err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New()
	c := newClient(t, fake, nil)
	var steps []string
	err = c.ImportGGUF(context.Background(), writeFile(t, "cut.gguf", good[:len(good)/2]), "x", "", func(p Progress) error {
		steps = append(steps, p.Status)
		return nil
	})
	var ge *GGUFError
	if !errors.As(err, &ge) || ge.Reason != GGUFTensorPastEnd || len(steps) != 0 || fake.Uploads() != 0 {
		t.Fatalf("cut short: %v, progress %v, %d uploads", err, steps, fake.Uploads())
	}
}

// FuzzCheckGGUF hands the check whatever the fuzzer makes of real and hostile
// GGUF files: it never panics, answers within a second with little memory, a
// refusal is one typed line, and Ollama's reader never meets a header the walk
// admitted but it cannot read (the walk is at least as strict).
func FuzzCheckGGUF(f *testing.F) {
	for _, p := range validGGUFs(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("GGUF\x03\x00\x00\x00"))
	f.Add(newGGUF(3, 1<<60, 0).withData(64))
	f.Add(newGGUF(3, 1, 1).str("k").u32(ggufArray).u32(ggufString).u64(3).str("a").str("b").str("c").tensor("w", 0, 2, 2).withData(16))
	f.Add(newGGUF(2, 1, 1).str("general.alignment").u32(4).u32(64).tensor("w", 64, 4).withData(128))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.gguf")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		before := allocated()
		start := time.Now()
		err := CheckGGUF(p)
		took := time.Since(start)
		if took > time.Second {
			t.Fatalf("took %v", took)
		}
		if alloc := allocated() - before; alloc > 64<<20+uint64(len(data))*8 {
			t.Fatalf("allocated %d bytes for %d", alloc, len(data))
		}
		if err == nil {
			return
		}
		var ge *GGUFError
		var ng *NotGGUFError
		var ve *GGUFVersionError
		if !errors.As(err, &ge) && !errors.As(err, &ng) && !errors.As(err, &ve) {
			t.Fatalf("untyped refusal %T: %v", err, err)
		}
		if msg := err.Error(); !errors.Is(err, ErrNotGGUF) || !strings.HasPrefix(msg, "f.gguf") || strings.Contains(msg, "\n") {
			t.Fatalf("not one line naming the file: %q", msg)
		}
		if ge != nil && strings.Contains(ge.Detail, "Ollama's reader") {
			t.Fatalf("the walk admitted what Ollama's reader refused: %v", err)
		}
	})
}

// allocated is how many bytes the process has allocated so far (without
// stopping the world, unlike runtime.ReadMemStats).
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkCheckGGUF is the check's cost on the 256 MB file of the import
// benchmarks (header=small: two metadata keys, one tensor) and on one with a
// tokenizer the size of a large model's (header=vocab: 150,000 tokens with
// their scores and types, and 300 tensors), to set against
// BenchmarkImportGGUF.
func BenchmarkCheckGGUF(b *testing.B) {
	small := ggufFile(b)
	vocab := vocabGGUF(b)
	for _, tc := range []struct{ name, file string }{{"small", small}, {"vocab", vocab}} {
		b.Run("header="+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := CheckGGUF(tc.file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// vocabGGUF is a 256 MB GGUF file whose header is a large model's: a
// 150,000-token vocabulary (tokens, scores, types, merges) and 300 tensors.
func vocabGGUF(b *testing.B) string {
	const tokens, tensors = 150_000, 300
	h := newGGUF(3, tensors, 5).kvString("general.architecture", "llama")
	h.str("tokenizer.ggml.tokens").u32(ggufArray).u32(ggufString).u64(tokens)
	for i := range tokens {
		h.str("tok" + strings.Repeat("x", i%12))
	}
	h.str("tokenizer.ggml.merges").u32(ggufArray).u32(ggufString).u64(tokens)
	for i := range tokens {
		h.str("m " + strings.Repeat("y", i%10))
	}
	h.str("tokenizer.ggml.scores").u32(ggufArray).u32(6).u64(tokens).Write(make([]byte, 4*tokens))
	h.str("tokenizer.ggml.token_type").u32(ggufArray).u32(5).u64(tokens).Write(make([]byte, 4*tokens))
	const each = (importSize - 8<<20) / tensors / 32 * 32 // bytes per tensor, aligned
	for i := range tensors {
		h.tensor("blk."+strings.Repeat("w", i%20), uint64(i*each), each/4)
	}
	for h.Len()%32 != 0 {
		h.WriteByte(0)
	}
	p := filepath.Join(b.TempDir(), "vocab.gguf")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(h.Bytes()); err != nil {
		b.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for left := int64(tensors * each); left > 0; left -= int64(len(chunk)) {
		if _, err := f.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
			b.Fatal(err)
		}
	}
	return p
}
