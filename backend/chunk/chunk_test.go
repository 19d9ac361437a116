package chunk

import (
	"strings"
	"testing"

	"hermes/backend/prompt"
)

// Chunks follow the structure: a heading starts one, each keeps its heading
// path, a page break ends one, and the offsets give back the chunk's text.
func TestSplitFollowsStructure(t *testing.T) {
	text := "# Guide\n\nIntro paragraph.\n\n## Setup\n\nStep one.\n\nStep two.\n\n### Cables\n\nRed to red.\n\n## Use\n\nPress start."
	cs := Split(text, nil, true)
	want := []string{"Guide", "Guide › Setup", "Guide › Setup › Cables", "Guide › Use"}
	if len(cs) != len(want) {
		t.Fatalf("%d chunks %+v, want %d", len(cs), cs, len(want))
	}
	rs := []rune(text)
	for i, c := range cs {
		if c.Heading != want[i] {
			t.Errorf("chunk %d heading %q, want %q", i, c.Heading, want[i])
		}
		if string(rs[c.Start:c.End]) != c.Text || c.Seq != i {
			t.Errorf("chunk %d: offsets or seq do not match", i)
		}
	}
	// A heading with no text of its own opens the chunk of the one below it.
	stacked := Split("# Pump manual\n\n## Faults\n\nIf it hums, replace the capacitor.", nil, true)
	if len(stacked) != 1 || stacked[0].Heading != "Pump manual › Faults" || !strings.HasPrefix(stacked[0].Text, "# Pump manual") {
		t.Fatalf("stacked headings: %+v", stacked)
	}
	paged := Split("page one text\fpage two text", []int{0, 14}, false)
	if len(paged) != 2 || paged[0].Page != 1 || paged[1].Page != 2 || paged[1].Text != "page two text" {
		t.Fatalf("pages: %+v", paged)
	}
}

// A long text is cut near the target size at sentence ends, and each cut
// repeats the end of the chunk before it.
func TestSplitLongTextOverlaps(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString("Sentence number ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" says something useful about pumps. ")
	}
	cs := Split(b.String(), nil, true)
	if len(cs) < 5 {
		t.Fatalf("%d chunks for about 2,000 tokens", len(cs))
	}
	for i, c := range cs {
		if n := prompt.Estimate(c.Text); n > TargetTokens+OverlapTokens+20 {
			t.Errorf("chunk %d has %d tokens", i, n)
		}
		if i > 0 && c.Start >= cs[i-1].End {
			t.Errorf("chunk %d starts at %d, after the previous end %d: no overlap", i, c.Start, cs[i-1].End)
		}
		if i > 0 && !strings.HasPrefix(c.Text, "Sentence") {
			t.Errorf("chunk %d does not start at a sentence: %.30q", i, c.Text)
		}
	}
	zh := Split(strings.Repeat("水泵启动前必须先打开排气阀。", 100), nil, false)
	if len(zh) < 3 {
		t.Fatalf("Chinese: %d chunks", len(zh))
	}
	for i, c := range zh {
		if n := prompt.Estimate(c.Text); n > TargetTokens+OverlapTokens+20 {
			t.Errorf("Chinese chunk %d has %d tokens", i, n)
		}
	}
}
