package vector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	chromem "github.com/philippgille/chromem-go"
)

var ctx = context.Background()

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// unitVec is randVec scaled to unit length, as Hermes' embedders give.
func unitVec(r *rand.Rand, dim int) []float32 {
	v := randVec(r, dim)
	n := length(v)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// naive ranks by cosine in float64, ties by id: what Query must agree with.
func naive(vecs map[string][]float32, q []float32, n int) []string {
	type s struct {
		id  string
		sim float64
	}
	var all []s
	for id, v := range vecs {
		var d float64
		for i := range v {
			d += float64(v[i]) * float64(q[i])
		}
		all = append(all, s{id, d / (length(v) * length(q))})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].sim != all[j].sim {
			return all[i].sim > all[j].sim
		}
		return all[i].id < all[j].id
	})
	var out []string
	for _, x := range all[:min(n, len(all))] {
		out = append(out, x.id)
	}
	return out
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func newCollection(t testing.TB, dim int) *Collection {
	t.Helper()
	c, err := New().Collection(Name(Memories, "personal"), dim)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestQueryMatchesExactCosine(t *testing.T) {
	for _, size := range []int{1, 7, 1000, 20000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(size), 1))
			c := newCollection(t, 64)
			vecs := map[string][]float32{}
			for i := range size {
				id := fmt.Sprintf("m%d", i)
				vecs[id] = randVec(r, 64) // not unit: the index normalises a copy
				if err := c.Put(ctx, id, vecs[id]); err != nil {
					t.Fatal(err)
				}
			}
			if c.Count() != size {
				t.Fatalf("count %d, want %d", c.Count(), size)
			}
			for q := range 5 {
				qv := randVec(r, 64)
				got, err := c.Query(ctx, qv, 10)
				if err != nil {
					t.Fatal(err)
				}
				want := naive(vecs, qv, 10)
				if fmt.Sprint(ids(got)) != fmt.Sprint(want) {
					t.Fatalf("query %d: got %v, want %v", q, ids(got), want)
				}
				for i, h := range got {
					if h.Sim > 1.0001 || h.Sim < -1.0001 || i > 0 && h.Sim > got[i-1].Sim {
						t.Fatalf("similarities not cosines best first: %v", got)
					}
				}
			}
		})
	}
}

func TestPutReplaceDeleteCount(t *testing.T) {
	c := newCollection(t, 4)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Put(ctx, "a", []float32{1, 0, 0, 0}))
	must(c.Put(ctx, "b", []float32{0, 1, 0, 0}))
	must(c.PutMany(ctx, []string{"c", "d"}, [][]float32{{0, 0, 1, 0}, {0, 0, 0, 1}}))
	if c.Count() != 4 {
		t.Fatalf("count %d", c.Count())
	}
	// Replacing keeps the count and moves the vector.
	must(c.Put(ctx, "a", []float32{0, 0, 0, 2}))
	if c.Count() != 4 {
		t.Fatalf("count after replace %d", c.Count())
	}
	hits, err := c.Query(ctx, []float32{0, 0, 0, 1}, 2)
	must(err)
	if fmt.Sprint(ids(hits)) != "[a d]" || math.Abs(float64(hits[0].Sim)-1) > 1e-6 {
		t.Fatalf("after replace: %v", hits)
	}
	c.Delete(ctx, "a", "zzz") // an unknown id is ignored
	c.Delete(ctx)
	if c.Count() != 3 {
		t.Fatalf("count after delete %d", c.Count())
	}
	hits, err = c.Query(ctx, []float32{0, 0, 0, 1}, 3)
	must(err)
	if len(hits) != 3 || hits[0].ID != "d" {
		t.Fatalf("after delete: %v", hits)
	}
	c.Delete(ctx, "b", "c", "d")
	if c.Count() != 0 {
		t.Fatalf("count after deleting all %d", c.Count())
	}
	if hits, err := c.Query(ctx, []float32{0, 0, 0, 1}, 3); err != nil || hits != nil {
		t.Fatalf("empty collection: %v %v", hits, err)
	}
}

// The collection keeps a copy: a caller reusing its buffer changes nothing.
func TestPutCopies(t *testing.T) {
	c := newCollection(t, 2)
	buf := []float32{1, 0}
	if err := c.Put(ctx, "x", buf); err != nil {
		t.Fatal(err)
	}
	buf[0], buf[1] = 0, 1
	if err := c.Put(ctx, "y", buf); err != nil {
		t.Fatal(err)
	}
	hits, err := c.Query(ctx, []float32{1, 0}, 2)
	if err != nil || len(hits) != 2 || hits[0].ID != "x" || hits[0].Sim < 0.999 || hits[1].Sim > 0.001 {
		t.Fatalf("%v %v", hits, err)
	}
}

func TestQueryLargerThanCollection(t *testing.T) {
	c := newCollection(t, 8)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 5 {
		if err := c.Put(ctx, fmt.Sprint(i), unitVec(r, 8)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{5, 6, 40, 1 << 20} {
		hits, err := c.Query(ctx, unitVec(r, 8), n)
		if err != nil || len(hits) != 5 {
			t.Fatalf("n %d: %d hits, %v", n, len(hits), err)
		}
	}
	for _, n := range []int{0, -1} {
		if hits, err := c.Query(ctx, unitVec(r, 8), n); err != nil || hits != nil {
			t.Fatalf("n %d: %v %v", n, hits, err)
		}
	}
}

// Equal similarities (identical texts give identical vectors) come in the order
// of their ids, and the cut takes the first ids, whatever chromem's goroutines do.
func TestTiesByID(t *testing.T) {
	c := newCollection(t, 3)
	same := []float32{0, 0.6, 0.8}
	var all []string
	for i := range 300 {
		id := fmt.Sprintf("t%03d", (i*7919)%300) // inserted out of order
		all = append(all, id)
		if err := c.Put(ctx, id, same); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Put(ctx, "best", []float32{0, 0.8, 0.6}); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "worst", []float32{1, 0, 0}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(all)
	for range 20 {
		hits, err := c.Query(ctx, []float32{0, 0.8, 0.6}, 11)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]string{"best"}, all[:10]...)
		if fmt.Sprint(ids(hits)) != fmt.Sprint(want) {
			t.Fatalf("got %v, want %v", ids(hits), want)
		}
	}
	hits, err := c.Query(ctx, []float32{0, 0.8, 0.6}, 302)
	if err != nil || len(hits) != 302 || hits[301].ID != "worst" || hits[300].ID != all[299] {
		t.Fatalf("whole collection: %d hits, %v", len(hits), err)
	}
}

func TestOtherDimensionRefused(t *testing.T) {
	x := New()
	name := Name(Memories, "work")
	c, err := x.Collection(name, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "a", []float32{1, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "b", []float32{1, 0, 0}); err == nil {
		t.Fatal("a vector of dimension 3 joined an index of 4")
	}
	if err := c.PutMany(ctx, []string{"c", "d"}, [][]float32{{0, 1, 0, 0}, {1, 2, 3, 4, 5}}); err == nil {
		t.Fatal("a vector of dimension 5 joined an index of 4")
	}
	if _, err := c.Query(ctx, []float32{1, 0}, 3); err == nil {
		t.Fatal("a query of dimension 2 in an index of 4")
	}
	if _, err := x.Collection(name, 8); err == nil {
		t.Fatal("the collection was asked for with another dimension")
	}
	for _, v := range [][]float32{{0, 0, 0, 0}, {float32(math.NaN()), 0, 0, 1}, {float32(math.Inf(1)), 0, 0, 0}} {
		if err := c.Put(ctx, "z", v); err == nil {
			t.Fatalf("%v joined the index", v)
		}
		if _, err := c.Query(ctx, v, 3); err == nil {
			t.Fatalf("%v was a query", v)
		}
	}
	if c.Count() != 2 { // a, then c before the misfit d
		t.Fatalf("count %d", c.Count())
	}
}

func TestCollectionsAndDrop(t *testing.T) {
	x := New()
	a, _ := x.Collection(Name(Memories, "a"), 2)
	b, _ := x.Collection(Name(Memories, "b"), 2)
	if err := a.Put(ctx, "1", []float32{1, 0}); err != nil {
		t.Fatal(err)
	}
	if b.Count() != 0 || x.Lookup(Name(Memories, "a")) != a || x.Lookup("knowledge/a") != nil {
		t.Fatal("collections are not separate")
	}
	if again, _ := x.Collection(Name(Memories, "a"), 2); again != a {
		t.Fatal("a second collection of one name")
	}
	x.Drop(Name(Memories, "a"))
	x.Drop("never made")
	if x.Lookup(Name(Memories, "a")) != nil {
		t.Fatal("dropped collection still there")
	}
	a2, _ := x.Collection(Name(Memories, "a"), 2)
	if a2.Count() != 0 {
		t.Fatalf("a remade collection holds %d", a2.Count())
	}
}

// Nothing online: the embedding function chromem holds refuses, so a text can
// never be sent to chromem's default (an online service).
func TestNeverEmbeds(t *testing.T) {
	c := newCollection(t, 2)
	if err := c.Put(ctx, "a", []float32{1, 0}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.c.Query(ctx, "what do I like", 1, nil, nil); !errors.Is(err, ErrNoEmbedding) {
		t.Fatalf("a text query: %v", err)
	}
	if err := c.c.AddDocument(ctx, chromem.Document{ID: "b", Content: "a text without a vector"}); !errors.Is(err, ErrNoEmbedding) {
		t.Fatalf("a document without a vector: %v", err)
	}
	if c.Count() != 1 {
		t.Fatalf("count %d", c.Count())
	}
}

// Queries run beside adds, replacements and deletes (go test -race).
func TestConcurrent(t *testing.T) {
	x := New()
	c, err := x.Collection(Name(Memories, "personal"), 16)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 500 {
		if err := c.Put(ctx, fmt.Sprint(i), unitVec(r, 16)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 9))
			buf := make([]float32, 16)
			for i := range 300 {
				id := fmt.Sprint(r.IntN(800))
				switch i % 4 {
				case 0:
					copy(buf, unitVec(r, 16))
					if err := c.Put(ctx, id, buf); err != nil {
						t.Error(err)
					}
				case 1:
					c.Delete(ctx, id, fmt.Sprint(r.IntN(800)))
				default:
					hits, err := c.Query(ctx, unitVec(r, 16), 40)
					if err != nil {
						t.Error(err)
					}
					for j := 1; j < len(hits); j++ {
						if hits[j].Sim > hits[j-1].Sim {
							t.Errorf("not best first: %v", hits)
						}
					}
					_ = c.Count()
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // collections made and dropped beside
		defer wg.Done()
		for i := range 100 {
			name := Name(Memories, fmt.Sprint("p", i%3))
			if d, err := x.Collection(name, 16); err == nil {
				_ = d.Put(ctx, "k", unitVec(rand.New(rand.NewPCG(uint64(i), 1)), 16))
			}
			x.Drop(name)
		}
	}()
	wg.Wait()
}
