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
	if err := c.Observe(ctx, "llama3.2", 100, 120); err != nil {
		t.Fatal(err)
	}
	if r := c.Ratio(ctx, "llama3.2"); math.Abs(r-1.2) > 1e-9 {
		t.Fatalf("after one report %v, want 1.2", r)
	}
	if err := c.Observe(ctx, "llama3.2", 100, 1000); err != nil { // 10x: clamped to 2.5
		t.Fatal(err)
	}
	want := 0.8*1.2 + 0.2*2.5
	if r := c.Ratio(ctx, "llama3.2"); math.Abs(r-want) > 1e-9 {
		t.Fatalf("after an outlier %v, want %v", r, want)
	}
	if err := c.Observe(ctx, "llama3.2", 0, 50); err != nil || math.Abs(c.Ratio(ctx, "llama3.2")-want) > 1e-9 {
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
