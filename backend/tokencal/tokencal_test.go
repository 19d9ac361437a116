package tokencal

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"hermes/backend/store"
)

// TestCalibrationLearnsAndPersists: the first report sets the ratio, later ones
// move it by a fifth of the gap, an outlier is clamped, and a new process on
// the same database reads what the last one learnt.
func TestCalibrationLearnsAndPersists(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	c := New(db.DB)
	if r := c.Ratio(ctx, "llama3.2"); r != 1 {
		t.Fatalf("unknown model ratio %v, want 1", r)
	}
	if err := c.Observe(ctx, "llama3.2", 100, 120, false); err != nil {
		t.Fatal(err)
	}
	if r := c.Ratio(ctx, "llama3.2"); math.Abs(r-1.2) > 1e-9 {
		t.Fatalf("after one report %v, want 1.2", r)
	}
	if err := c.Observe(ctx, "llama3.2", 100, 1000, false); err != nil { // 10x: clamped to 2.5
		t.Fatal(err)
	}
	want := 0.8*1.2 + 0.2*2.5
	if r := c.Ratio(ctx, "llama3.2"); math.Abs(r-want) > 1e-9 {
		t.Fatalf("after an outlier %v, want %v", r, want)
	}
	if err := c.Observe(ctx, "llama3.2", 0, 50, false); err != nil || math.Abs(c.Ratio(ctx, "llama3.2")-want) > 1e-9 {
		t.Fatalf("a report without an estimate changed the ratio: %v", err)
	}
	db.Close()
	db2, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if r := New(db2.DB).Ratio(ctx, "llama3.2"); math.Abs(r-want) > 1e-9 {
		t.Fatalf("another process reads %v, want %v", r, want)
	}
	if r := New(db2.DB).Ratio(ctx, "mistral"); r != 1 {
		t.Fatalf("another model reads %v", r)
	}
}

// A full context (the server cut the prompt) raises the ratio at once to what
// the count shows at least, with a tenth to spare; it never lowers it.
func TestFullContextRaisesTheRatioAtOnce(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := New(db.DB)
	for range 5 {
		c.Observe(ctx, "qwen3", 1000, 1100, false)
	}
	if err := c.Observe(ctx, "qwen3", 907, 4096, true); err != nil {
		t.Fatal(err)
	}
	if r, want := c.Ratio(ctx, "qwen3"), math.Min(maxFullRatio, 1.1*4096/907); math.Abs(r-want) > 1e-9 {
		t.Fatalf("after a full context %v, want %v", r, want)
	}
	if err := c.Observe(ctx, "qwen3", 4000, 4096, true); err != nil { // a floor below the ratio: no change
		t.Fatal(err)
	}
	if r := c.Ratio(ctx, "qwen3"); r != maxFullRatio { // 1.1 × 4096/907 ≈ 4.97, bounded
		t.Fatalf("a lower floor moved the ratio to %v", r)
	}
}
