package cli

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestTableIsTabwriter: the table lays out random text (tabs, vertical tabs,
// newlines, form feeds, CJK, empty cells, ragged and single-cell lines,
// written in random pieces) byte for byte as text/tabwriter does with the
// settings the commands used.
func TestTableIsTabwriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "bc", "中文", "📌 ", "", "  ", "\t", "\t", "\n", "\n", "ID\t", "x\ty\tz\n", "\v", "\f"}
	for i := range 2000 {
		var text strings.Builder
		for range rng.IntN(60) {
			text.WriteString(pieces[rng.IntN(len(pieces))])
		}
		var want, got bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 4, tablePadding, ' ', 0)
		tb := newTable(&got)
		for s := text.String(); s != ""; {
			n := 1 + rng.IntN(len(s))
			tw.Write([]byte(s[:n]))
			tb.Write([]byte(s[:n]))
			s = s[n:]
		}
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := tb.Flush(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("case %d, text %q:\n got %q\nwant %q", i, text.String(), got.String(), want.String())
		}
	}
}
