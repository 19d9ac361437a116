package text

import "testing"

// The index form of a text and the query that finds it: Latin words as they are,
// CJK runs as bigrams then characters; user input never becomes FTS5 syntax.
func TestSegmentAndMatchExpr(t *testing.T) {
	cases := []struct{ in, segment, match string }{
		{"Hello World", "Hello World ", `"hello"* AND "world"*`},
		{"我昨天买了耳机", "我昨 昨天 天买 买了 了耳 耳机 我 昨 天 买 了 耳 机 ", `"我昨 昨天 天买 买了 了耳 耳机"`},
		{"买 iPhone 手机", "买  iPhone  手机 手 机 ", `"买" AND "iphone"* AND "手机"`},
		{`say "hi" OR NOT`, `say "hi" OR NOT `, `"say"* AND "hi"* AND "or"* AND "not"*`},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := Segment(tc.in); got != tc.segment {
				t.Errorf("Segment = %q; want %q", got, tc.segment)
			}
			if got := MatchExpr(tc.in); got != tc.match {
				t.Errorf("MatchExpr = %q; want %q", got, tc.match)
			}
		})
	}
}
