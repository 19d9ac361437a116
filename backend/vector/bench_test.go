package vector

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"hermes/backend/embed"
)

// The benchmarks run on random unit vectors at the offline embedder's dimension
// and at 768 (what nomic-embed-text gives), k = 40 (recall's vector candidates
// for the recall intent's K of 10).

const benchK = 40

var benchDims = []int{embed.DefaultHashedDim, 768}

var benchSizes = []int{10_000, 100_000}

type dataset struct {
	ids     []string
	vecs    [][]float32
	queries [][]float32
}

var datasets = map[[2]int]*dataset{}

func benchData(n, dim int) *dataset {
	if d := datasets[[2]int{n, dim}]; d != nil {
		return d
	}
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	d := &dataset{ids: make([]string, n), vecs: make([][]float32, n)}
	for i := range n {
		d.ids[i] = fmt.Sprintf("0197a3b2-%04x-7000-8000-%012x", i%0x10000, i) // a UUIDv7's length
		d.vecs[i] = unitVec(r, dim)
	}
	for range 64 {
		d.queries = append(d.queries, unitVec(r, dim))
	}
	clear(datasets) // one at a time: 100,000 × 768 is 300 MB
	datasets[[2]int{n, dim}] = d
	return d
}

func benchCollection(d *dataset, dim int) *Collection {
	c, err := New().Collection(Name(Memories, "bench"), dim)
	if err != nil {
		panic(err)
	}
	if err := c.PutMany(ctx, d.ids, d.vecs); err != nil {
		panic(err)
	}
	return c
}

// BenchmarkQuery: one query of k = 40 (go test -run x -bench Query -benchmem).
func BenchmarkQuery(b *testing.B) {
	for _, dim := range benchDims {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("dim=%d/n=%dk", dim, n/1000), func(b *testing.B) {
				d := benchData(n, dim)
				c := benchCollection(d, dim)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					hits, err := c.Query(ctx, d.queries[i%len(d.queries)], benchK)
					if err != nil || len(hits) != benchK {
						b.Fatal(len(hits), err)
					}
				}
			})
		}
	}
}

// BenchmarkLoad: building an index of 100,000 vectors (what loadIndex does at
// start), and the heap it holds afterwards (heap-MB; the vectors alone are
// 100,000 × dim × 4 bytes; the ids are the caller's strings, not counted).
func BenchmarkLoad(b *testing.B) {
	n := 100_000
	for _, dim := range benchDims {
		b.Run(fmt.Sprintf("dim=%d/n=%dk", dim, n/1000), func(b *testing.B) {
			d := benchData(n, dim)
			var heap float64
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				b.StartTimer()
				c := benchCollection(d, dim)
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(c)
				heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
				b.StartTimer()
			}
			b.ReportMetric(heap, "heap-MB")
		})
	}
}
