package llmtest

import (
	"bytes"
	"encoding/binary"
	"os"
)

// WriteGGUF writes a small valid GGUF v3 file: two metadata keys
// (general.architecture, general.name) and one F32 tensor of 4 values, padded
// with tensor data to at least size bytes (for import benchmarks).
func WriteGGUF(path string, size int64) error {
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { le(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	le(uint32(3)) // version
	le(uint64(1)) // tensors
	le(uint64(2)) // metadata keys
	str("general.architecture")
	le(uint32(8)) // string
	str("llama")
	str("general.name")
	le(uint32(8))
	str("tiny")
	n := max((size-256)/4, 4) // the tensor's values
	str("tok")
	le(uint32(1)) // dimensions
	le(uint64(n))
	le(uint32(0)) // F32
	le(uint64(0)) // offset in the data section
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return err
	}
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	for left := n * 4; left > 0; {
		w := min(left, int64(len(chunk)))
		if _, err := f.Write(chunk[:w]); err != nil {
			f.Close()
			return err
		}
		left -= w
	}
	return f.Close()
}
