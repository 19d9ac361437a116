package vecindex

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// naive ranks by cosine in float64: what Query must agree with.
func naive(vecs map[string][]float32, q []float32, n int) []string {
	type s struct {
		id  string
		sim float64
	}
	var all []s
	for id, v := range vecs {
		var d, nv, nq float64
		for i := range v {
			d += float64(v[i]) * float64(q[i])
			nv += float64(v[i]) * float64(v[i])
			nq += float64(q[i]) * float64(q[i])
		}
		all = append(all, s{id, d / (sqrt(nv) * sqrt(nq))})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].sim > all[j].sim })
	var out []string
	for _, x := range all[:min(n, len(all))] {
		out = append(out, x.id)
	}
	return out
}

func sqrt(x float64) float64 {
	z := x
	for range 60 {
		z = (z + x/z) / 2
	}
	return z
}

func TestQueryMatchesExactCosine(t *testing.T) {
	for _, size := range []int{7, 1000, 40000} { // 40,000 takes the parallel path
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(size), 1))
			c := New(64)
			vecs := map[string][]float32{}
			for i := range size {
				id := fmt.Sprintf("m%d", i)
				vecs[id] = randVec(r, 64)
				if err := c.Put(id, vecs[id]); err != nil {
					t.Fatal(err)
				}
			}
			// Replace some, delete some.
			for i := 0; i < size; i += 3 {
				id := fmt.Sprintf("m%d", i)
				vecs[id] = randVec(r, 64)
				if err := c.Put(id, vecs[id]); err != nil {
					t.Fatal(err)
				}
			}
			var gone []string
			for i := 1; i < size; i += 5 {
				id := fmt.Sprintf("m%d", i)
				gone = append(gone, id)
				delete(vecs, id)
			}
			c.Delete(append(gone, "unknown")...)
			if c.Count() != len(vecs) {
				t.Fatalf("count %d, want %d", c.Count(), len(vecs))
			}
			for k := range 5 {
				q := randVec(r, 64)
				hits, err := c.Query(q, 20)
				if err != nil {
					t.Fatal(err)
				}
				want := naive(vecs, q, 20)
				if len(hits) != len(want) {
					t.Fatalf("query %d: %d hits, want %d", k, len(hits), len(want))
				}
				for i := range want {
					if hits[i].ID != want[i] {
						t.Fatalf("query %d: hit %d is %s (%.4f), want %s", k, i, hits[i].ID, hits[i].Sim, want[i])
					}
					if i > 0 && hits[i].Sim > hits[i-1].Sim {
						t.Fatalf("query %d: not best first at %d", k, i)
					}
				}
			}
			// A stored vector finds itself first with similarity 1.
			for id, v := range vecs {
				hits, _ := c.Query(v, 1)
				if hits[0].ID != id || hits[0].Sim < 0.9999 {
					t.Fatalf("%s finds %v", id, hits)
				}
				break
			}
		})
	}
}

func TestBadVectorsAreRefused(t *testing.T) {
	c := New(4)
	if err := c.Put("a", []float32{1, 2, 3}); err == nil {
		t.Error("a vector of another dimension was accepted")
	}
	if err := c.Put("a", []float32{0, 0, 0, 0}); err == nil {
		t.Error("a zero vector was accepted")
	}
	if _, err := c.Query([]float32{1, 0, 0}, 3); err == nil {
		t.Error("a query of another dimension was accepted")
	}
	if hits, err := c.Query([]float32{1, 0, 0, 0}, 3); err != nil || len(hits) != 0 {
		t.Errorf("an empty index returns %v, %v", hits, err)
	}
}

// BenchmarkQuery100k: one exact search of 100,000 vectors of 64 dimensions.
func BenchmarkQuery100k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	c := New(64)
	for i := range 100_000 {
		_ = c.Put(fmt.Sprint(i), randVec(r, 64))
	}
	q := randVec(r, 64)
	for b.Loop() {
		if _, err := c.Query(q, 40); err != nil {
			b.Fatal(err)
		}
	}
}

// Searches run while vectors are added and removed (go test -race).
func TestConcurrentUse(t *testing.T) {
	c := New(8)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 20000 {
		_ = c.Put(fmt.Sprint(i), randVec(r, 8))
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := rand.New(rand.NewPCG(5, 6))
		for i := range 2000 {
			_ = c.Put(fmt.Sprint("n", i), randVec(r, 8))
			c.Delete(fmt.Sprint(i))
		}
	}()
	for range 50 {
		hits, err := c.Query(randVec(r, 8), 10)
		if err != nil || len(hits) != 10 {
			t.Fatalf("query during writes: %d hits, %v", len(hits), err)
		}
	}
	<-done
	if c.Count() != 20000 {
		t.Fatalf("count %d after 2,000 adds and 2,000 deletes; want 20000", c.Count())
	}
}
