package pdfdoc

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkWriteLong draws a conversation of 400 messages of a few paragraphs
// each, English and Chinese, with code.
func BenchmarkWriteLong(b *testing.B) {
	var d Doc
	d.Title = "A long conversation"
	for i := range 400 {
		d.Entries = append(d.Entries, Entry{Heading: "Hermes · 2024-01-01 10:00 UTC",
			Markdown: strings.Repeat("Sorting keeps equal elements in order when stable. 稳定排序会保持相等元素的顺序。 ", 8) +
				"\n\n```go\nslices.SortStableFunc(s, cmp)\n```\n" + strings.Repeat("x", i%3)})
	}
	for b.Loop() {
		if _, err := Write(io.Discard, d); err != nil {
			b.Fatal(err)
		}
	}
}
