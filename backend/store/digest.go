package store

import (
	"crypto/sha256"
	"encoding/hex"
)

// Digest is a short, content-free handle for a text (a key or a path), for the
// unique indexes that must not hold text: an erased row leaves no copy of it
// in an index's interior pages.
func Digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:16])
}
