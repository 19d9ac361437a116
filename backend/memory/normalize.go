package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"hermes/backend/store"
	"hermes/backend/text"
)

// normalize folds a text for exact-duplicate detection: Unicode NFKC, lower case,
// one space between words, no punctuation at the ends.
func normalize(text string) string {
	t := strings.ToLower(norm.NFKC.String(text))
	t = strings.Join(strings.Fields(t), " ")
	return strings.TrimFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
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
	return store.Digest(profile + "\x00" + key)
}

// saysValue reports whether text states value: as whole words ("ny" is not said by
// "sunnyvale"; next to Chinese, Japanese, Korean or Thai no space is needed), in a
// text without a negation ("I no longer live in Berlin" does not state Berlin).
func saysValue(said, value string) bool {
	t, v := normalize(said), normalize(value)
	if v == "" || negated(t) {
		return false
	}
	wordy := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	unspaced := func(r rune) bool { return text.IsCJK(r) || unicode.Is(unicode.Thai, r) }
	for from := 0; from < len(t); {
		i := strings.Index(t[from:], v)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(t[:i])
		after, _ := utf8.DecodeRuneInString(t[i+len(v):])
		first, _ := utf8.DecodeRuneInString(v)
		last, _ := utf8.DecodeLastRuneInString(v)
		startOK := i == 0 || !wordy(before) || !wordy(first) || unspaced(before) || unspaced(first)
		endOK := i+len(v) == len(t) || !wordy(after) || !wordy(last) || unspaced(after) || unspaced(last)
		if startOK && endOK {
			return true
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		from = i + size
	}
	return false
}

// negated reports whether a normalized text contains a negation (English, Chinese,
// Japanese, Korean): such a text may mention a value without stating it.
func negated(t string) bool {
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
		switch w {
		case "not", "no", "never", "nor", "neither", "nobody", "nothing", "nowhere", "without", "anymore":
			return true
		}
		if strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") {
			return true
		}
	}
	for _, cue := range []string{"不", "没", "沒", "别", "別", "非", "未", "ない", "ません", "않", "안 ", "못"} {
		if strings.Contains(t, cue) {
			return true
		}
	}
	return false
}
