package retrieval

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver (build with -tags sqlite_fts5)

	"hermes/backend/text"
)

func indexOf(t *testing.T, docs ...string) (*sql.DB, *Index) {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "ix.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE VIRTUAL TABLE docs_fts USING fts5(body, scope, tokenize = 'porter unicode61')`,
		`CREATE VIRTUAL TABLE docs_fts_vocab USING fts5vocab(docs_fts, 'row')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ix := NewIndex(db, "docs_fts", `SELECT COUNT(*) FROM docs_fts`)
	for _, d := range docs {
		add(t, db, d)
	}
	return db, ix
}

func add(t *testing.T, db *sql.DB, doc string) {
	if _, err := db.Exec(`INSERT INTO docs_fts(body, scope) VALUES (?, 's1')`, text.Segment(doc)); err != nil {
		t.Fatal(err)
	}
}

// Rank orders the matching rows by BM25 and keeps to the corpus's condition;
// a find box's expression needs every word, a question's any.
func TestIndexRank(t *testing.T) {
	ctx := context.Background()
	_, ix := indexOf(t, "peanut allergy since childhood", "an allergy to cats", "peanut butter on toast", "我对花生过敏")
	all, err := ix.Rank(ctx, Ranking{Expr: MatchAll("peanut allergy"), Limit: 10})
	if err != nil || !slices.Equal(IDs(all), []int64{1}) {
		t.Fatalf("every word: %v, %v", all, err)
	}
	anyOf, err := ix.Rank(ctx, Ranking{Expr: MatchAny(QueryTerms("Which allergy does the peanut cause?"), nil), Limit: 10})
	if err != nil || len(anyOf) != 3 || anyOf[0].ID != 1 || anyOf[0].Score <= anyOf[1].Score {
		t.Fatalf("any word: %v, %v", anyOf, err)
	}
	narrowed, err := ix.Rank(ctx, Ranking{Expr: MatchAny(QueryTerms("peanut allergy"), nil), Limit: 10, Where: "rowid > ?", Args: []any{1}})
	if err != nil || slices.Contains(IDs(narrowed), 1) || len(narrowed) != 2 {
		t.Fatalf("narrowed: %v, %v", narrowed, err)
	}
	zh, err := ix.Rank(ctx, Ranking{Expr: MatchAll("花生过敏"), Limit: 10})
	if err != nil || !slices.Equal(IDs(zh), []int64{4}) {
		t.Fatalf("Chinese: %v, %v", zh, err)
	}
	if none, err := ix.Rank(ctx, Ranking{Expr: MatchAll(" ,, "), Limit: 10}); err != nil || none != nil {
		t.Fatalf("no words: %v, %v", none, err)
	}
}

// One character is found wherever text.Segment put it: first of a bigram (the
// start or middle of a run), a run's last character, or a run of one; and
// the baseline's and a question's terms find it the same way.
func TestOneCharacterIsFoundAnywhereInARun(t *testing.T) {
	ctx := context.Background()
	_, ix := indexOf(t, "耳机坏了", "买了耳机", "新耳", "耳 phone", "手机")
	for _, expr := range []string{MatchAll("耳"), MatchAny(PlainTerms("耳"), nil), MatchAny(QueryTerms("耳"), nil)} {
		got, err := ix.Rank(ctx, Ranking{Expr: expr, Limit: 10})
		ids := IDs(got)
		slices.Sort(ids)
		if err != nil || !slices.Equal(ids, []int64{1, 2, 3, 4}) {
			t.Errorf("%s: %v, %v; want rows 1-4", expr, ids, err)
		}
	}
	if n := ix.TermRows(ctx, QueryTerms("耳")[0]); n != 4 {
		t.Errorf("rows of 耳: %d; want 4", n)
	}
}

// Counts are cached until Reset: a write the index is not told of is not
// seen, one it is told of is.
func TestIndexCountsUntilReset(t *testing.T) {
	ctx := context.Background()
	db, ix := indexOf(t, "peanut allergy", "peanut butter")
	if n := ix.TermRows(ctx, `"peanut"*`); n != 2 || ix.Rows(ctx) != 2 {
		t.Fatalf("term rows %d, rows %d; want 2, 2", n, ix.Rows(ctx))
	}
	add(t, db, "peanut oil")
	if n := ix.TermRows(ctx, `"peanut"*`); n != 2 {
		t.Fatalf("cached term rows %d; want 2", n)
	}
	ix.Reset()
	if n := ix.TermRows(ctx, `"peanut"*`); n != 3 || ix.Rows(ctx) != 3 {
		t.Fatalf("after Reset: term rows %d, rows %d; want 3, 3", n, ix.Rows(ctx))
	}
	if rare, common := ix.Split(ctx, []string{`"peanut"*`, `"oil"`}); len(rare) != 2 || common != nil {
		t.Fatalf("a small index has no common terms: %v %v", rare, common)
	}
	if _, ok := ix.Stat(ctx, "bad", `SELECT nope FROM nowhere`); ok {
		t.Fatal("a failing statistic is ok")
	}
}
