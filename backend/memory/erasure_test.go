package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// canaryLines are n JSONL memories holding word, then m without it.
func canaryLines(word string, n, m int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"c%d","text":"Parcel %d with the %s label sits in locker %d on floor %d"}`+"\n", i, i, word, i*13, i%9)
	}
	for i := range m {
		fmt.Fprintf(&b, `{"id":"k%d","text":"My sister number %d likes green tea with honey"}`+"\n", i, i)
	}
	return b.String()
}

// importCanaries imports n memories holding word and m without it.
func (e *env) importCanaries(word string, n, m int) {
	e.t.Helper()
	res, err := e.s.ImportJSONL(context.Background(), strings.NewReader(canaryLines(word, n, m)), ImportOptions{})
	if err != nil || res.Added != n+m {
		e.t.Fatalf("import = %+v, %v", res, err)
	}
}

func hitIDs(hits []Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.MemoryID
	}
	return ids
}

// count runs a COUNT(*) query.
func (e *env) count(q string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// TestForgetMatchesFindsEveryMatch: 350 memories hold the word (the cap of 20
// is gone), each match holds it, a limit keeps that many, and forgetting the
// matches leaves none and the others untouched.
func TestForgetMatchesFindsEveryMatch(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.importCanaries("zqxcanary", 350, 40)
	hits, err := e.s.ForgetMatches(ctx, "", "zqxcanary", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 350 {
		t.Fatalf("%d matches; want 350", len(hits))
	}
	for _, h := range hits {
		if !strings.Contains(h.Text, "zqxcanary") {
			t.Fatalf("unrelated match %q", h.Text)
		}
	}
	if few, err := e.s.ForgetMatches(ctx, "", "zqxcanary", 10); err != nil || len(few) != 10 {
		t.Fatalf("limit 10: %d matches, %v", len(few), err)
	}
	r, err := e.s.Forget(ctx, hitIDs(hits)...)
	if err != nil || r.Count != 350 || r.LexicalMatches+r.VectorMatches != 0 {
		t.Fatalf("Forget = %+v, %v", r, err)
	}
	if left, _ := e.s.ForgetMatches(ctx, "", "zqxcanary", 0); len(left) != 0 {
		t.Fatalf("%d matches left", len(left))
	}
	if n := e.count(`SELECT COUNT(*) FROM memories`); n != 40 {
		t.Fatalf("%d memories left; want the 40 others", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_erasures`); n != 0 {
		t.Fatalf("%d erasure jobs left after a finished erasure", n)
	}
}

// TestBulkErasureResumesAfterCrash: an erasure stopped after K batches (as a
// crash would stop it) has erased K batches, is recorded with its progress,
// and is finished when the memory is opened again: everything is erased, under
// one tombstone and one receipt counting all of it.
func TestBulkErasureResumesAfterCrash(t *testing.T) {
	const total, k = 350, 2
	ctx := context.Background()
	e := newEnv(t, nil)
	e.importCanaries("zqxresume", total, 10)
	hits, err := e.s.ForgetMatches(ctx, "", "zqxresume", 0)
	if err != nil || len(hits) != total {
		t.Fatalf("%d matches, %v", len(hits), err)
	}
	crash := errors.New("simulated crash")
	e.s.afterBatch = func(_ string, batch int) error {
		if batch == k {
			return crash
		}
		return nil
	}
	r, err := e.s.Forget(ctx, hitIDs(hits)...)
	if !errors.Is(err, crash) || r.Count != k*forgetBatch {
		t.Fatalf("stopped Forget = %+v, %v; want %d erased and the crash", r, err, k*forgetBatch)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories WHERE text LIKE '%zqxresume%'`); n != total-k*forgetBatch {
		t.Fatalf("%d left after %d batches; want %d", n, k, total-k*forgetBatch)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_erasures WHERE id = ? AND done = ? AND total = ?`, r.TombstoneID, k*forgetBatch, total); n != 1 {
		t.Fatal("the interrupted erasure is not recorded with its progress")
	}
	if n, err := UnfinishedErasures(ctx, e.db); err != nil || n != 1 {
		t.Fatalf("UnfinishedErasures = %d, %v", n, err)
	}

	e.open(nil) // the next start
	resumed := e.s.Resumed()
	if len(resumed) != 1 {
		t.Fatalf("resumed %+v; want one receipt", resumed)
	}
	got := resumed[0]
	if got.TombstoneID != r.TombstoneID || got.Count != total || got.LexicalMatches+got.VectorMatches != 0 || !got.Checkpointed {
		t.Fatalf("receipt after the restart = %+v; want %s counting %d", got, r.TombstoneID, total)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories WHERE text LIKE '%zqxresume%'`); n != 0 {
		t.Fatalf("%d memories left after the restart", n)
	}
	ts, err := e.s.Tombstones(ctx, 10)
	if err != nil || len(ts) != 1 || ts[0].ID != r.TombstoneID || ts[0].Count != total {
		t.Fatalf("tombstones = %+v, %v; want one counting %d", ts, err, total)
	}
	if n := e.count(`SELECT (SELECT COUNT(*) FROM memory_erasures) + (SELECT COUNT(*) FROM memory_erasure_items)`); n != 0 {
		t.Fatalf("%d job rows left", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories`); n != 10 {
		t.Fatalf("%d memories left; want the 10 others", n)
	}
	e.open(nil) // and once finished, never again
	if len(e.s.Resumed()) != 0 {
		t.Fatalf("a finished erasure was resumed again: %+v", e.s.Resumed())
	}
}

// TestBulkErasureRecordedButNotStarted: a crash between recording the job and
// its first batch leaves the job; the next open erases all of it.
func TestBulkErasureRecordedButNotStarted(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.importCanaries("zqxearly", 150, 0)
	hits, err := e.s.ForgetMatches(ctx, "", "zqxearly", 0)
	if err != nil || len(hits) != 150 {
		t.Fatalf("%d matches, %v", len(hits), err)
	}
	rec, err := e.s.recordErasure(ctx, "id", hitIDs(hits))
	if err != nil {
		t.Fatal(err)
	}
	e.open(nil)
	if got := e.s.Resumed(); len(got) != 1 || got[0].TombstoneID != rec.id || got[0].Count != 150 {
		t.Fatalf("resumed %+v", got)
	}
	if n := e.count(`SELECT COUNT(*) FROM memories`); n != 0 {
		t.Fatalf("%d memories left", n)
	}
}

// TestTwoStoresFinishOneErasure: two processes opening at once both work on
// the same unfinished erasure; batch by batch they share it, and it ends
// whole, under its one tombstone.
func TestTwoStoresFinishOneErasure(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.importCanaries("zqxshared", 450, 0)
	hits, err := e.s.ForgetMatches(ctx, "", "zqxshared", 0)
	if err != nil || len(hits) != 450 {
		t.Fatalf("%d matches, %v", len(hits), err)
	}
	rec, err := e.s.recordErasure(ctx, "id", hitIDs(hits))
	if err != nil {
		t.Fatal(err)
	}
	other := newEnvAt(t, e.path)
	done := make(chan error, 1)
	go func() { _, err := other.s.runErasure(ctx, rec); done <- err }()
	r, err := e.s.runErasure(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the other store did not finish")
	}
	if n := e.count(`SELECT COUNT(*) FROM memories`); n != 0 {
		t.Fatalf("%d memories left", n)
	}
	ts, _ := e.s.Tombstones(ctx, 10)
	if len(ts) != 1 || ts[0].Count != 450 || r.TombstoneID != rec.id {
		t.Fatalf("tombstones %+v, receipt %+v", ts, r)
	}
}

// newEnvAt opens a second store on the database file at path, as another
// process would.
func newEnvAt(t *testing.T, path string) *env {
	t.Helper()
	e := &env{t: t, path: path, clock: newClock(), logs: &logSink{}}
	e.open(func(c *Config) { c.LLM = nil })
	return e
}

// BenchmarkForgetQuery3000 forgets by a query that 3,000 memories (of 3,500)
// match: the matches, then the bulk erasure (30 batches, the job, checkpoint
// and receipt included), on a fresh database each time.
func BenchmarkForgetQuery3000(b *testing.B) {
	ctx := context.Background()
	lines := canaryLines("zqxbench", 3000, 500)
	for b.Loop() {
		b.StopTimer()
		s := openBench(b, filepath.Join(b.TempDir(), "hermes.db"))
		if res, err := s.ImportJSONL(ctx, strings.NewReader(lines), ImportOptions{}); err != nil || res.Added != 3500 {
			b.Fatal(res, err)
		}
		b.StartTimer()
		hits, err := s.ForgetMatches(ctx, "", "zqxbench", 0)
		if err != nil || len(hits) != 3000 {
			b.Fatal(len(hits), err)
		}
		r, err := s.Forget(ctx, hitIDs(hits)...)
		if err != nil || r.Count != 3000 {
			b.Fatal(r, err)
		}
	}
}
