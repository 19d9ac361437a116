package vector

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encode stores a vector as little-endian float32s (the BLOB SQLite keeps).
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode reads a vector of dim float32s.
func Decode(b []byte, dim int) ([]float32, error) {
	v := make([]float32, dim)
	return v, DecodeInto(v, b)
}

// DecodeInto reads a vector into v.
func DecodeInto(v []float32, b []byte) error {
	if len(b) != 4*len(v) {
		return fmt.Errorf("decode vector: %d bytes for dimension %d", len(b), len(v))
	}
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return nil
}

// Usable reports whether a vector can be compared: not empty, not all zero, no NaN.
func Usable(v []float32) bool {
	nonzero := false
	for _, x := range v {
		if x != x {
			return false
		}
		if x != 0 {
			nonzero = true
		}
	}
	return nonzero
}
