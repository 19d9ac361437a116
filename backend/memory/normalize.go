package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalize folds a text for exact-duplicate detection: Unicode NFKC, lower case,
// one space between words, no punctuation at the ends.
func normalize(text string) string {
	t := strings.ToLower(norm.NFKC.String(text))
	t = strings.Join(strings.Fields(t), " ")
	return strings.TrimFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// digest is a short content-free handle for a text (for indexes that must not hold text).
func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:16])
}

// normKey folds a fact key: lower case, words joined by '_'.
func normKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	return strings.Join(strings.Fields(k), "_")
}

func keyHash(profile, key string) string {
	if key == "" {
		return ""
	}
	return digest(profile + "\x00" + key)
}
