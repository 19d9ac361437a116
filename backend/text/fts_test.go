package text

import "testing"

// The index form of a text: Latin words as they are, CJK runs as bigrams then
// their last character, one token per character (retrieval.MatchAll's test has
// the queries that find them).
func TestSegment(t *testing.T) {
	cases := []struct{ in, segment string }{
		{"Hello World", "Hello World "},
		{"我昨天买了耳机", "我昨 昨天 天买 买了 了耳 耳机 机 "},
		{"买 iPhone 手机", "买  iPhone  手机 机 "},
		{`say "hi" OR NOT`, `say "hi" OR NOT `},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := Segment(tc.in); got != tc.segment {
				t.Errorf("Segment = %q; want %q", got, tc.segment)
			}
		})
	}
}
