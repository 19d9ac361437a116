package retrieval

import (
	"slices"
	"testing"
)

// English words become stem prefixes less function words; Chinese runs their
// bigrams, and a content character no kept bigram covers is a term of its own.
func TestQueryTerms(t *testing.T) {
	got := QueryTerms("What are the nurses driving?")
	for _, w := range []string{`"nurs"*`, `"driv"*`} {
		if !slices.Contains(got, w) {
			t.Errorf("QueryTerms(English) = %v, want %s in it", got, w)
		}
	}
	if slices.Contains(got, `"what"`) || slices.Contains(got, `"the"`) {
		t.Errorf("function words kept: %v", got)
	}
	zh := QueryTerms("蓍的别名是什么")
	if !slices.Contains(zh, `"蓍"*`) || !slices.Contains(zh, `"别名"`) || slices.Contains(zh, `"蓍的"`) {
		t.Errorf("QueryTerms(蓍的别名是什么) = %v, want 蓍 and 别名, not 蓍的", zh)
	}
}

// Rank fusion adds each list's weighted reciprocal ranks: an id both lists
// hold passes one only the stronger list holds first.
func TestFuse(t *testing.T) {
	got := Fuse(Ranked{IDs: []int64{1, 2, 3}, Weight: 1}, Ranked{IDs: []int64{2, 4}, Weight: 0.8})
	ids := make([]int64, len(got))
	for i, s := range got {
		ids[i] = s.ID
	}
	if !slices.Equal(ids, []int64{2, 1, 3, 4}) {
		t.Fatalf("Fuse order %v, want [2 1 3 4]", ids)
	}
	if want := 1.0/62 + 0.8/61; got[0].Score != want {
		t.Fatalf("score of 2 = %v, want %v", got[0].Score, want)
	}
	expr := MatchAny([]string{`"a"`, `"b"*`}, []string{"k1"})
	if expr != `{body} : ("a" OR "b"*) AND {scope} : ("k1")` || MatchAny(nil, nil) != "" {
		t.Fatalf("MatchAny = %q", expr)
	}
}

// A find box's query: every word as a prefix, a CJK run as the phrase of its
// bigrams (as text.Segment indexes it); user input never becomes FTS5 syntax.
func TestMatchAll(t *testing.T) {
	cases := []struct{ in, match string }{
		{"Hello World", `"hello"* AND "world"*`},
		{"我昨天买了耳机", `"我昨 昨天 天买 买了 了耳 耳机"`},
		{"买 iPhone 手机", `"买"* AND "iphone"* AND "手机"`},
		{`say "hi" OR NOT`, `"say"* AND "hi"* AND "or"* AND "not"*`},
		{" ,, ", ""},
	}
	for _, tc := range cases {
		if got := MatchAll(tc.in); got != tc.match {
			t.Errorf("MatchAll(%q) = %q; want %q", tc.in, got, tc.match)
		}
	}
}
