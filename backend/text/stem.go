package text

import "strings"

// Stem returns the Porter (1980) stem of an English word in lower case: "driving",
// "drives" and "drive" become "drive"; "nurses" and "nursing" become "nurs".
// Words of one or two letters and words with non-ASCII letters are returned as
// they are.
func Stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	b := []byte(w)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// cons reports whether b[i] is a consonant in Porter's sense.
func cons(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !cons(b, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V] of b.
func measure(b []byte) int {
	n, i := 0, 0
	for i < len(b) && cons(b, i) {
		i++
	}
	for i < len(b) {
		for i < len(b) && !cons(b, i) {
			i++
		}
		if i >= len(b) {
			break
		}
		for i < len(b) && cons(b, i) {
			i++
		}
		n++
	}
	return n
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !cons(b, i) {
			return true
		}
	}
	return false
}

func doubleCons(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && cons(b, n-1)
}

// cvc: consonant-vowel-consonant ending, the last not w, x or y.
func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !cons(b, n-1) || cons(b, n-2) || !cons(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func ends(b []byte, s string) bool { return strings.HasSuffix(string(b), s) }

// replace swaps suffix s for r when the stem before s has measure > m.
func replace(b []byte, s, r string, m int) ([]byte, bool) {
	if !ends(b, s) {
		return b, false
	}
	stem := b[:len(b)-len(s)]
	if measure(stem) > m {
		return append(stem[:len(stem):len(stem)], r...), true
	}
	return b, true
}

func step1a(b []byte) []byte {
	switch {
	case ends(b, "sses"), ends(b, "ies"):
		return b[:len(b)-2]
	case ends(b, "ss"):
		return b
	case ends(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if ends(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var stem []byte
	switch {
	case ends(b, "ed") && hasVowel(b[:len(b)-2]):
		stem = b[:len(b)-2]
	case ends(b, "ing") && hasVowel(b[:len(b)-3]):
		stem = b[:len(b)-3]
	default:
		return b
	}
	stem = stem[:len(stem):len(stem)]
	switch {
	case ends(stem, "at"), ends(stem, "bl"), ends(stem, "iz"):
		return append(stem, 'e')
	case doubleCons(stem):
		if c := stem[len(stem)-1]; c != 'l' && c != 's' && c != 'z' {
			return stem[:len(stem)-1]
		}
		return stem
	case measure(stem) == 1 && cvc(stem):
		return append(stem, 'e')
	}
	return stem
}

func step1c(b []byte) []byte {
	if ends(b, "y") && hasVowel(b[:len(b)-1]) {
		c := append([]byte{}, b...)
		c[len(c)-1] = 'i'
		return c
	}
	return b
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"abli", "able"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
}

func step2(b []byte) []byte {
	for _, r := range step2Rules {
		if out, matched := replace(b, r[0], r[1], 0); matched {
			return out
		}
	}
	return b
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func step3(b []byte) []byte {
	for _, r := range step3Rules {
		if out, matched := replace(b, r[0], r[1], 0); matched {
			return out
		}
	}
	return b
}

var step4Suffixes = []string{"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"}

func step4(b []byte) []byte {
	// The longest matching suffix decides ("ement" before "ment" before "ent").
	best := ""
	for _, s := range step4Suffixes {
		if ends(b, s) && len(s) > len(best) {
			best = s
		}
	}
	if best == "" {
		return b
	}
	stem := b[:len(b)-len(best)]
	if measure(stem) <= 1 {
		return b
	}
	if best == "ion" {
		if n := len(stem); n == 0 || (stem[n-1] != 's' && stem[n-1] != 't') {
			return b
		}
	}
	return stem
}

func step5(b []byte) []byte {
	if ends(b, "e") {
		stem := b[:len(b)-1]
		if m := measure(stem); m > 1 || (m == 1 && !cvc(stem)) {
			b = stem
		}
	}
	if measure(b) > 1 && doubleCons(b) && b[len(b)-1] == 'l' {
		b = b[:len(b)-1]
	}
	return b
}
