package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// conversation is an imported chat between Ann and Bo: Bo's answer "Seven years
// already" shares no word with a question about his marriage but "Bo"; Ann's
// question before it has them. With times (one sitting) the answer is linked to
// the question; without, it is not. Filler turns make "Bo" and "Ann" common.
func conversation(times bool) string {
	lines := []string{
		"Ann: Hi Bo, how was the weekend?",
		"Bo: Great, we went to the lake with the kids.",
		"Ann: How long have you and Mia been married?",
		"Bo: Seven years already, time flies!",
		"Ann: My cousin got married last spring in Lisbon, it rained all day.",
	}
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("Bo: The garden needs work, row %d of tomatoes is dry.", i), fmt.Sprintf("Ann: Sure, I can bring the hose for row %d.", i))
	}
	var b strings.Builder
	for i, l := range lines {
		at := ""
		if times {
			at = fmt.Sprintf(`,"created_at":"2026-05-01T10:%02d:00Z"`, i%60)
		}
		fmt.Fprintf(&b, `{"id":"c%d","text":%q%s}`+"\n", i, l, at)
	}
	return b.String()
}

func (e *env) searchRefs(q string, k int) []string {
	e.t.Helper()
	hits, err := e.s.Search(context.Background(), "", q, k)
	if err != nil {
		e.t.Fatal(err)
	}
	refs := make([]string, len(hits))
	for i, h := range hits {
		refs[i] = h.Ref
	}
	return refs
}

// TestAnAnswerIsFoundByTheQuestionItAnswers: the answer is in the top 3 for a
// question about the marriage only when it is linked to Ann's question; erasing
// the question clears the link, and the answer is no longer found by its words.
func TestAnAnswerIsFoundByTheQuestionItAnswers(t *testing.T) {
	ctx := context.Background()
	const q = "How long has Bo been married to Mia?"
	plain := newEnv(t, nil)
	if _, err := plain.s.ImportJSONL(ctx, strings.NewReader(conversation(false)), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if refs := plain.searchRefs(q, 3); slices.Contains(refs, "c3") {
		t.Fatalf("without times the answer is not linked, yet it is found: %v", refs)
	}
	if n := plain.count(`SELECT COUNT(*) FROM memories WHERE reply_to IS NOT NULL`); n != 0 {
		t.Fatalf("%d lines without a time were linked", n)
	}

	e := newEnv(t, nil)
	if _, err := e.s.ImportJSONL(ctx, strings.NewReader(conversation(true)), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if refs := e.searchRefs(q, 3); !slices.Contains(refs, "c3") {
		t.Fatalf("the answer to Ann's question is not in the top 3: %v", refs)
	}
	var qid string
	var qrid int64
	if err := e.db.QueryRowContext(ctx, `SELECT id, rid FROM memories WHERE ref = 'c2'`).Scan(&qid, &qrid); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories WHERE ref = 'c3' AND reply_to = ?`, qrid); n != 1 {
		t.Fatal("the answer is not linked to the question")
	}
	if _, err := e.s.Forget(ctx, qid); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories WHERE reply_to = ? OR (ref = 'c3' AND reply_to IS NOT NULL)`, qrid); n != 0 {
		t.Fatal("the answer still points at the erased question")
	}
	if refs := e.searchRefs(q, 3); slices.Contains(refs, "c3") {
		t.Fatalf("the erased question still lifts its answer: %v", refs)
	}
}

// TestRepliesNeedOneSitting: a line answers the line before it only when both
// have a time of day and the second follows within replyGap.
func TestRepliesNeedOneSitting(t *testing.T) {
	lines := []ImportLine{{CreatedAt: "2026-05-01T10:00:00Z"}, {CreatedAt: "2026-05-01T10:29:00Z"}, {CreatedAt: "2026-05-01T11:00:00Z"},
		{}, {CreatedAt: "2026-05-01T11:01:00Z"}, {CreatedAt: "2026-05-01T10:59:00Z"}, {CreatedAt: "2026-05-01"}, {CreatedAt: "2026-05-01"}}
	got := make([]bool, len(lines))
	for i := 1; i < len(lines); i++ {
		got[i] = follows(lines[i-1], lines[i])
	}
	if want := []bool{false, true, false, false, false, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("follows = %v, want %v", got, want)
	}
}

// TestATimeToldInTheTextCounts: "three weeks ago", said on 2 August, tells of
// mid-July; a question about July ranks it above a newer camping memory
// said in September (which recency alone would put first).
func TestATimeToldInTheTextCounts(t *testing.T) {
	e := newEnv(t, nil)
	lines := `{"id":"july","text":"We went camping at the lake three weeks ago.","created_at":"2026-08-02T18:00:00Z"}
{"id":"sept","text":"We went camping at the lake again with the kids.","created_at":"2026-09-01T18:00:00Z"}
`
	if _, err := e.s.ImportJSONL(context.Background(), strings.NewReader(lines), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if refs := e.searchRefs("When did we go camping at the lake in July?", 2); len(refs) != 2 || refs[0] != "july" {
		t.Fatalf("search = %v; want the memory that tells of July first", refs)
	}
}
