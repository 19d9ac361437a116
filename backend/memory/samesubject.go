package memory

import (
	"hermes/backend/lazyre"
	"slices"
	"strings"
)

// valueToken is a value a statement can carry: a number, with its decimal or
// thousands marks, a time (7:30) or a date (2026-05-01, 5/1).
var valueToken = lazyre.New(`\d+(?:[.,:/\-]\d+)*`)

// skeleton is a text with its values taken out ("my locker code is #"), and
// the values in order. Two statements with one skeleton and other values say
// the same thing with a new value: the newer one replaces the older, it never
// merges into it.
func skeleton(text string) (string, []string) {
	n := normalize(text)
	return valueToken.ReplaceAllString(n, "#"), valueToken.FindAllString(n, -1)
}

// sameSubjectNewValue reports whether b restates a's subject with a new value:
// one skeleton, the same values but the last, which differs ("room 12 is on
// floor 3" → "room 12 is on floor 4" is a new value; "room 14 is on floor 3"
// is another room).
func sameSubjectNewValue(a, b string) bool {
	ska, va := skeleton(a)
	skb, vb := skeleton(b)
	n := len(va)
	return n > 0 && ska == skb && len(vb) == n && slices.Equal(va[:n-1], vb[:n-1]) && va[n-1] != vb[n-1]
}

// likeSkeleton is a LIKE pattern that finds texts with the skeleton of text
// (values as wildcards), for a cheap first pass; sameSubjectNewValue decides.
func likeSkeleton(text string) string {
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(text)
	return valueToken.ReplaceAllString(esc, "%")
}
