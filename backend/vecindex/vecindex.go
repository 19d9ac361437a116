// Package vecindex is an exact in-memory vector index: unit vectors of one
// dimension kept in one contiguous slab, searched by a full scan of dot products
// (the cosine of unit vectors). A scan of adjacent memory with no per-vector
// allocation, channel or goroutine is what keeps 100,000 memories within the
// recall budget; large collections are scanned by one goroutine per core.
package vecindex

import (
	"container/heap"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Hit is one search result.
type Hit struct {
	ID  string
	Sim float32
}

// Collection holds the vectors of one set of documents. It is safe for
// concurrent use; a search reads under a shared lock.
type Collection struct {
	dim int

	mu   sync.RWMutex
	ids  []string
	pos  map[string]int
	data []float32 // len(ids)*dim, row i at [i*dim, (i+1)*dim)
}

// New returns an empty collection of vectors of dimension dim.
func New(dim int) *Collection {
	return &Collection{dim: dim, pos: map[string]int{}}
}

// Dim is the dimension of the collection's vectors.
func (c *Collection) Dim() int { return c.dim }

// Count is how many vectors the collection holds.
func (c *Collection) Count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.ids)
}

// Put adds the vector of id, or replaces it; the vector is stored normalized.
func (c *Collection) Put(id string, vec []float32) error {
	if len(vec) != c.dim {
		return fmt.Errorf("vector index: vector of dimension %d in an index of %d", len(vec), c.dim)
	}
	norm := length(vec)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return fmt.Errorf("vector index: vector of %s cannot be normalized", id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.pos[id]
	if !ok {
		i = len(c.ids)
		c.ids = append(c.ids, id)
		c.pos[id] = i
		c.data = append(c.data, make([]float32, c.dim)...)
	}
	row := c.data[i*c.dim : (i+1)*c.dim]
	for j, x := range vec {
		row[j] = float32(float64(x) / norm)
	}
	return nil
}

// Delete removes the vectors of ids; unknown ids are ignored. The last row moves
// into a freed one, so the slab stays dense.
func (c *Collection) Delete(ids ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		i, ok := c.pos[id]
		if !ok {
			continue
		}
		last := len(c.ids) - 1
		if i != last {
			copy(c.data[i*c.dim:(i+1)*c.dim], c.data[last*c.dim:])
			c.ids[i] = c.ids[last]
			c.pos[c.ids[i]] = i
		}
		c.ids = c.ids[:last]
		c.data = c.data[:last*c.dim]
		delete(c.pos, id)
	}
}

// parallelFrom is the collection size from which a search is split between cores.
const parallelFrom = 16384

// Query returns up to n ids most similar to vec (cosine), best first; ties keep
// the order of the rows (insertion order until a Delete moves the last row into
// a freed one).
func (c *Collection) Query(vec []float32, n int) ([]Hit, error) {
	if len(vec) != c.dim {
		return nil, fmt.Errorf("vector index: query of dimension %d in an index of %d", len(vec), c.dim)
	}
	norm := length(vec)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return nil, fmt.Errorf("vector index: the query vector cannot be normalized")
	}
	q := make([]float32, c.dim)
	for j, x := range vec {
		q[j] = float32(float64(x) / norm)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	total := len(c.ids)
	n = min(n, total)
	if n <= 0 {
		return nil, nil
	}
	parts := 1
	if total >= parallelFrom {
		parts = min(runtime.GOMAXPROCS(0), total/(parallelFrom/2))
	}
	tops := make([]topN, parts)
	var wg sync.WaitGroup
	for p := range parts {
		from, to := p*total/parts, (p+1)*total/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[p] = c.scan(q, from, to, n)
		}()
	}
	wg.Wait()
	all := tops[0]
	for _, t := range tops[1:] {
		for _, e := range t {
			all.offer(e, n)
		}
	}
	// Best first: pop the heap (worst first) into the end of the result.
	out := make([]Hit, len(all))
	for i := len(out) - 1; i >= 0; i-- {
		e := heap.Pop(&all).(entry)
		out[i] = Hit{ID: c.ids[e.i], Sim: e.sim}
	}
	return out, nil
}

// scan scores rows [from, to) and keeps the best n.
func (c *Collection) scan(q []float32, from, to, n int) topN {
	t := make(topN, 0, n+1)
	d := c.dim
	rows := c.data[from*d : to*d]
	for i := from; i < to; i++ {
		s := dot(q, rows[:d])
		rows = rows[d:]
		if len(t) == n && !better(entry{i, s}, t[0]) {
			continue
		}
		t.offer(entry{i, s}, n)
	}
	return t
}

// dot is the dot product of two vectors of equal length, eight lanes at a time.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	for len(a) >= 8 {
		a8, b8 := a[:8:8], b[:8:8]
		s0 += a8[0]*b8[0] + a8[4]*b8[4]
		s1 += a8[1]*b8[1] + a8[5]*b8[5]
		s2 += a8[2]*b8[2] + a8[6]*b8[6]
		s3 += a8[3]*b8[3] + a8[7]*b8[7]
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

type entry struct {
	i   int
	sim float32
}

// better: a higher similarity, or an equal one inserted earlier.
func better(a, b entry) bool { return a.sim > b.sim || a.sim == b.sim && a.i < b.i }

// topN is a min-heap of the best entries seen (the worst at the root).
type topN []entry

func (t topN) Len() int           { return len(t) }
func (t topN) Less(i, j int) bool { return better(t[j], t[i]) }
func (t topN) Swap(i, j int)      { t[i], t[j] = t[j], t[i] }
func (t *topN) Push(x any)        { *t = append(*t, x.(entry)) }
func (t *topN) Pop() any {
	old := *t
	e := old[len(old)-1]
	*t = old[:len(old)-1]
	return e
}

// offer keeps e if it is among the best n.
func (t *topN) offer(e entry, n int) {
	if len(*t) < n {
		heap.Push(t, e)
		return
	}
	if better(e, (*t)[0]) {
		(*t)[0] = e
		heap.Fix(t, 0)
	}
}
