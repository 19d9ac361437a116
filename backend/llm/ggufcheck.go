package llm

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"path/filepath"

	"github.com/ollama/ollama/fs/gguf"
)

// A GGUF file is checked in two steps before an import sends or copies a byte
// of it. walkGGUF reads the header (counts, metadata, tensor infos) without
// keeping anything, and refuses every length or count that the rest of the file
// cannot hold or that passes the limits below: it allocates nothing by a number
// the file claims. Only then does Ollama's own reader (fs/gguf), which does
// allocate by those numbers, read the metadata and the tensor infos; each
// tensor's data must lie inside the file.
const (
	// ggufMaxHeader bounds the metadata and tensor infos (a real model's are a
	// few MB, most of it the tokenizer), and with it what Ollama's reader
	// allocates for them.
	ggufMaxHeader = 64 << 20
	// ggufMaxTensors bounds the tensor count (large models have a few thousand).
	ggufMaxTensors = 1 << 18
	// ggufMaxKeys bounds the metadata keys (models have tens, a few hundred).
	ggufMaxKeys = 1 << 16
	// ggufMaxValues bounds the values in all the metadata's arrays together (a
	// 262,144-token vocabulary with its scores and types is under a million),
	// each of which Ollama's reader keeps in 16 bytes or more.
	ggufMaxValues = 1 << 22
	// ggufMaxDims is GGML_MAX_DIMS: llama.cpp loads no tensor of more.
	ggufMaxDims = 4
	// ggufMinTensorInfo is the smallest tensor info (empty name, no dimension).
	ggufMinTensorInfo = 8 + 4 + 4 + 8
	// ggufMinKeyValue is the smallest key-value pair (empty key, one byte).
	ggufMinKeyValue = 8 + 4 + 1
	ggufAlignment   = 32 // when general.alignment does not say
)

// Why a GGUF file is refused (GGUFError.Reason).
const (
	GGUFTruncated     = "truncated"       // the header describes more than the file holds
	GGUFTooLarge      = "too_large"       // a header larger than Hermes reads (ggufMaxHeader, ggufMaxTensors)
	GGUFTensorPastEnd = "tensor_past_end" // a tensor's data lies past the end of the file
	GGUFNoTensors     = "no_tensors"      // a file without tensors (a vocabulary only)
	GGUFMalformed     = "malformed"       // a value GGUF or llama.cpp does not allow (Detail says which)
)

// GGUFError is a GGUF file whose structure is refused: Reason is one of the
// GGUF* reasons, Size the file's size; Tensor names the tensor (tensor_past_end),
// Limit the limit passed (too_large), Detail says what is wrong in English. It is
// ErrNotGGUF: the file is refused before anything is sent.
type GGUFError struct {
	File   string
	Reason string
	Size   int64
	Tensor string
	Limit  string
	Detail string
}

func (e *GGUFError) Error() string {
	const again = "copy or download the file again"
	switch e.Reason {
	case GGUFTruncated:
		return fmt.Sprintf("%s is damaged or cut short: %s, more than its %d bytes hold; %s", e.File, e.Detail, e.Size, again)
	case GGUFTensorPastEnd:
		return fmt.Sprintf("%s is cut short: the data of tensor %q (%s) lies past the end of the file (%d bytes); %s", e.File, e.Tensor, e.Detail, e.Size, again)
	case GGUFTooLarge:
		return fmt.Sprintf("%s: %s, more than Hermes reads (%s); the file is damaged or not a model Hermes can import", e.File, e.Detail, e.Limit)
	case GGUFNoTensors:
		return fmt.Sprintf("%s holds no tensors (a vocabulary-only file?); give the model's .gguf file", e.File)
	}
	return fmt.Sprintf("%s is not a usable GGUF model file: %s; %s", e.File, e.Detail, again)
}

func (e *GGUFError) Is(target error) bool { return target == ErrNotGGUF }

// ggufHeader is a GGUF file being checked: its name, size and reader.
type ggufHeader struct {
	name   string
	size   int64
	r      *bufio.Reader
	pos    int64  // the bytes read so far
	values uint64 // the values in arrays so far
}

func (f *ggufHeader) refuse(reason, detail string) *GGUFError {
	return &GGUFError{File: f.name, Reason: reason, Size: f.size, Detail: detail}
}

// tooLarge is a header past one of Hermes's limits (limit says which).
func (f *ggufHeader) tooLarge(detail, limit string) *GGUFError {
	e := f.refuse(GGUFTooLarge, detail)
	e.Limit = limit
	return e
}

// left is what the file holds after the reading position.
func (f *ggufHeader) left() int64 { return f.size - f.pos }

// label names a part of the header in a refusal; its two halves are joined
// only when one is made, so the walk allocates nothing per value.
type label struct{ what, of string }

func (l label) String() string { return l.what + l.of }

// claim admits n items of at least each bytes at the reading position: the rest
// of the file must hold them, and the header must stay within ggufMaxHeader.
func (f *ggufHeader) claim(n uint64, each int64, unit string, what label) error {
	if each > 0 && n > uint64(f.left()/each) {
		return f.refuse(GGUFTruncated, fmt.Sprintf("its header claims %d %s%s at byte %d", n, unit, what, f.pos))
	}
	if each > 0 && f.pos+int64(n)*each > ggufMaxHeader {
		return f.tooLarge(fmt.Sprintf("its header claims %d %s%s at byte %d", n, unit, what, f.pos), "64 MiB")
	}
	return nil
}

func (f *ggufHeader) read(p []byte, what label) error {
	n, err := io.ReadFull(f.r, p)
	f.pos += int64(n)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return f.refuse(GGUFTruncated, fmt.Sprintf("the file ends inside its header (%s at byte %d)", what, f.pos-int64(n)))
	}
	if err != nil {
		return fmt.Errorf("check %s: %w", f.name, err)
	}
	return nil
}

func (f *ggufHeader) u32(what label) (uint32, error) {
	var b [4]byte
	err := f.read(b[:], what)
	return binary.LittleEndian.Uint32(b[:]), err
}

func (f *ggufHeader) u64(what label) (uint64, error) {
	var b [8]byte
	err := f.read(b[:], what)
	return binary.LittleEndian.Uint64(b[:]), err
}

// skip passes n bytes that claim has admitted.
func (f *ggufHeader) skip(n int64, what label) error {
	d, err := f.r.Discard(int(n))
	f.pos += int64(d)
	if err != nil {
		return f.refuse(GGUFTruncated, fmt.Sprintf("the file ends inside its header (%s at byte %d)", what, f.pos-int64(d)))
	}
	return nil
}

// str passes a string (a uint64 length, then the bytes).
func (f *ggufHeader) str(what label) error {
	n, err := f.u64(what)
	if err != nil {
		return err
	}
	if err := f.claim(n, 1, "bytes of ", what); err != nil {
		return err
	}
	return f.skip(int64(n), what)
}

// GGUF value types, from the specification.
const (
	ggufString = 8
	ggufArray  = 9
)

// ggufValueSize is the size of a fixed-size GGUF value type, 0 for a string or
// an array, -1 for a type GGUF does not define.
func ggufValueSize(t uint32) int64 {
	switch t {
	case 0, 1, 7: // uint8, int8, bool
		return 1
	case 2, 3: // uint16, int16
		return 2
	case 4, 5, 6: // uint32, int32, float32
		return 4
	case 10, 11, 12: // uint64, int64, float64
		return 8
	case ggufString, ggufArray:
		return 0
	}
	return -1
}

// value passes one metadata value of type t.
func (f *ggufHeader) value(key string, t uint32) error {
	switch size := ggufValueSize(t); {
	case size > 0:
		return f.skip(size, label{"the value of ", key})
	case t == ggufString:
		return f.str(label{"the value of ", key})
	case t == ggufArray:
		return f.array(key)
	}
	return f.refuse(GGUFMalformed, fmt.Sprintf("%s has value type %d, which GGUF does not define", key, t))
}

// array passes an array value: its element type, count and elements (one
// level deep, as Ollama's reader and llama.cpp read them).
func (f *ggufHeader) array(key string) error {
	t, err := f.u32(label{"the array type of ", key})
	if err != nil {
		return err
	}
	size := ggufValueSize(t)
	switch {
	case t == ggufArray:
		return f.refuse(GGUFMalformed, key+" holds an array of arrays")
	case size < 0:
		return f.refuse(GGUFMalformed, fmt.Sprintf("%s holds values of type %d, which GGUF does not define", key, t))
	case t == ggufString:
		size = 8 // each string has at least its length
	}
	n, err := f.u64(label{"the array length of ", key})
	if err != nil {
		return err
	}
	if err := f.claim(n, size, "values in ", label{"", key}); err != nil {
		return err
	}
	if f.values += n; f.values > ggufMaxValues {
		return f.tooLarge(fmt.Sprintf("its metadata's arrays claim %d values (up to %s)", f.values, key), fmt.Sprintf("%d values in arrays", ggufMaxValues))
	}
	if t != ggufString {
		return f.skip(int64(n)*size, label{"the values of ", key})
	}
	for range n {
		if err := f.str(label{"a value of ", key}); err != nil {
			return err
		}
	}
	return nil
}

// walkGGUF reads the header of a GGUF file after its magic and version (at
// byte 8) and returns where it ends (the tensor data starts at the next
// multiple of the alignment).
func walkGGUF(f *ggufHeader) (int64, error) {
	tensors, keys, err := f.counts()
	if err != nil {
		return 0, err
	}
	for range keys {
		if err := f.keyValue(); err != nil {
			return 0, err
		}
	}
	for i := range tensors {
		if err := f.tensorInfo(i); err != nil {
			return 0, err
		}
	}
	return f.pos, nil
}

// counts reads the tensor and metadata counts: within what the file holds and
// the limits, and at least one tensor.
func (f *ggufHeader) counts() (tensors, keys uint64, err error) {
	if tensors, err = f.u64(label{"the tensor count", ""}); err != nil {
		return 0, 0, err
	}
	if keys, err = f.u64(label{"the metadata count", ""}); err != nil {
		return 0, 0, err
	}
	if err := f.claim(tensors, ggufMinTensorInfo, "tensors", label{}); err != nil {
		return 0, 0, err
	}
	if tensors > ggufMaxTensors {
		return 0, 0, f.tooLarge(fmt.Sprintf("its header claims %d tensors", tensors), fmt.Sprintf("%d tensors", ggufMaxTensors))
	}
	if tensors == 0 {
		return 0, 0, f.refuse(GGUFNoTensors, "")
	}
	if err := f.claim(keys, ggufMinKeyValue, "metadata keys", label{}); err != nil {
		return 0, 0, err
	}
	if keys > ggufMaxKeys {
		return 0, 0, f.tooLarge(fmt.Sprintf("its header claims %d metadata keys", keys), fmt.Sprintf("%d metadata keys", ggufMaxKeys))
	}
	return tensors, keys, nil
}

func (f *ggufHeader) keyValue() error {
	key, err := f.key()
	if err != nil {
		return err
	}
	t, err := f.u32(label{"the type of ", key})
	if err != nil {
		return err
	}
	return f.value(key, t)
}

// key reads a metadata key, quoted for messages; a long one is named by its
// length (it is not kept).
func (f *ggufHeader) key() (string, error) {
	at := f.pos
	n, err := f.u64(label{"a metadata key", ""})
	if err != nil {
		return "", err
	}
	if err := f.claim(n, 1, "bytes of ", label{"a metadata key", ""}); err != nil {
		return "", err
	}
	if n > 200 {
		return fmt.Sprintf("the %d-byte metadata key at byte %d", n, at), f.skip(int64(n), label{"a metadata key", ""})
	}
	b := make([]byte, n)
	if err := f.read(b, label{"a metadata key", ""}); err != nil {
		return "", err
	}
	return fmt.Sprintf("metadata key %q", b), nil
}

func (f *ggufHeader) tensorInfo(i uint64) error {
	what := fmt.Sprintf("tensor %d", i)
	if err := f.str(label{"the name of ", what}); err != nil {
		return err
	}
	dims, err := f.u32(label{"the dimensions of ", what})
	if err != nil {
		return err
	}
	if dims > ggufMaxDims {
		return f.refuse(GGUFMalformed, fmt.Sprintf("%s has %d dimensions (llama.cpp loads at most %d)", what, dims, ggufMaxDims))
	}
	rest := int64(dims)*8 + 4 + 8 // the shape, the type and the offset
	if err := f.claim(uint64(rest), 1, "bytes of ", label{what, ""}); err != nil {
		return err
	}
	return f.skip(rest, label{what, ""})
}

// checkTensors reads the header with Ollama's reader (walkGGUF has admitted
// it) and checks every tensor's data against the file's size.
func checkTensors(path string, f *ggufHeader, headerEnd int64) error {
	g, err := gguf.Open(path)
	if err != nil {
		return f.refuse(GGUFMalformed, fmt.Sprintf("Ollama's reader refused it (%v)", err))
	}
	defer g.Close()
	keys := 0
	for range g.KeyValues() {
		keys++
	}
	align, err := ggufAlign(f, g)
	if err != nil {
		return err
	}
	data := headerEnd + (align-headerEnd%align)%align
	if data > f.size {
		return f.refuse(GGUFTruncated, fmt.Sprintf("its tensor data would start at byte %d", data))
	}
	tensors := 0
	for _, t := range g.TensorInfos() {
		tensors++
		if err := checkTensor(f, t, align, f.size-data); err != nil {
			return err
		}
	}
	if keys != g.NumKeyValues() || tensors != g.NumTensors() {
		return f.refuse(GGUFMalformed, fmt.Sprintf("Ollama's reader read %d of %d metadata keys and %d of %d tensors", keys, g.NumKeyValues(), tensors, g.NumTensors()))
	}
	return nil
}

// ggufAlign is the file's general.alignment (32 when it does not say), a power
// of two as llama.cpp requires.
func ggufAlign(f *ggufHeader, g *gguf.File) (int64, error) {
	kv := g.KeyValue("general.alignment")
	if !kv.Valid() {
		return ggufAlignment, nil
	}
	a := kv.Int()
	if a == 0 {
		a = int64(min(kv.Uint(), 1<<62))
	}
	if a <= 0 || a&(a-1) != 0 || a > 1<<30 {
		return 0, f.refuse(GGUFMalformed, fmt.Sprintf("general.alignment is %d (a power of two up to 2^30 is needed)", a))
	}
	return a, nil
}

// checkTensor refuses a tensor whose data does not lie inside the data section
// (dataSize bytes): its offset must be aligned, and its data end within it.
// The data of a type Ollama's reader does not know the size of (a newer
// quantization) is checked by its offset only.
func checkTensor(f *ggufHeader, t gguf.TensorInfo, align, dataSize int64) error {
	if t.Offset%uint64(align) != 0 {
		return f.refuse(GGUFMalformed, fmt.Sprintf("tensor %q starts at data offset %d, not a multiple of the alignment %d", t.Name, t.Offset, align))
	}
	values := uint64(1)
	for _, d := range t.Shape {
		hi, lo := bits.Mul64(values, d)
		if hi != 0 || lo > 1<<62 {
			return pastEnd(f, t, "a shape of more values than any file holds")
		}
		values = lo
	}
	end := float64(t.Offset) + float64(values)*t.Type.NumBytes()
	if t.Offset > uint64(dataSize) || end > float64(dataSize) {
		return pastEnd(f, t, fmt.Sprintf("data offset %d, %.0f bytes", t.Offset, end-float64(t.Offset)))
	}
	return nil
}

func pastEnd(f *ggufHeader, t gguf.TensorInfo, detail string) error {
	e := f.refuse(GGUFTensorPastEnd, detail)
	e.Tensor = t.Name
	return e
}

// checkGGUF checks the structure of the GGUF file at path, of size bytes, whose
// magic and version r has read: the header within the file and the limits,
// then every tensor. (Ollama's reader opens the file again: a file rewritten
// between the two readings is the import's own race, which the digest that
// Ollama checks catches.)
func checkGGUF(path string, size int64, r *bufio.Reader) error {
	f := &ggufHeader{name: filepath.Base(path), size: size, r: r, pos: 8}
	end, err := walkGGUF(f)
	if err != nil {
		return err
	}
	return checkTensors(path, f, end)
}
