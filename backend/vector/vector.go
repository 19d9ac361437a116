// Package vector is Hermes' in-memory vector index, on chromem-go: one chromem
// database, one collection per corpus and profile ("memories/personal"), holding
// the unit vectors Hermes' embedders give and nothing else (the texts live in
// SQLite). Queries are exact (every vector of the collection is compared); the
// index never embeds text, so nothing it holds can leave the machine.
package vector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	chromem "github.com/philippgille/chromem-go"
)

// Memories is the corpus of long-term memories.
const Memories = "memories"

// Name is the collection of a corpus and profile.
func Name(corpus, profile string) string { return corpus + "/" + profile }

// ErrNoEmbedding is what a collection's embedding function answers if chromem
// ever asks it for a vector: Hermes gives every vector itself, and chromem's
// default would call an online service.
var ErrNoEmbedding = errors.New("vector index: Hermes gives its vectors itself; the index never embeds text")

func refuseEmbedding(context.Context, string) ([]float32, error) { return nil, ErrNoEmbedding }

// Hit is one search result.
type Hit struct {
	ID  string
	Sim float32
}

// Index holds the collections. It is safe for concurrent use.
type Index struct {
	db *chromem.DB

	mu   sync.Mutex // guards cols
	cols map[string]*Collection
}

// New returns an empty index.
func New() *Index {
	return &Index{db: chromem.NewDB(), cols: map[string]*Collection{}}
}

// Collection is the collection name, made with vectors of dimension dim when
// missing; an existing one of another dimension is an error.
func (x *Index) Collection(name string, dim int) (*Collection, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("vector index %s: dimension %d", name, dim)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if c := x.cols[name]; c != nil {
		if c.dim != dim {
			return nil, fmt.Errorf("vector index %s: vectors of dimension %d, not %d", name, c.dim, dim)
		}
		return c, nil
	}
	cc, err := x.db.GetOrCreateCollection(name, nil, refuseEmbedding)
	if err != nil {
		return nil, fmt.Errorf("vector index %s: %w", name, err)
	}
	c := &Collection{name: name, dim: dim, c: cc}
	x.cols[name] = c
	return c, nil
}

// Lookup is the collection name, or nil.
func (x *Index) Lookup(name string) *Collection {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.cols[name]
}

// Drop forgets the collection name and its vectors.
func (x *Index) Drop(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cols[name] == nil {
		return
	}
	delete(x.cols, name)
	_ = x.db.DeleteCollection(name) // in memory: cannot fail
}

// Collection holds the unit vectors of one corpus and profile, all of one
// dimension. It is safe for concurrent use: changes are exclusive, queries
// shared (chromem's Delete reads its document count before taking its lock).
type Collection struct {
	name string
	dim  int

	mu sync.RWMutex
	c  *chromem.Collection
}

// Dim is the dimension of the collection's vectors.
func (c *Collection) Dim() int { return c.dim }

// Count is how many vectors the collection holds.
func (c *Collection) Count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.c.Count()
}

// Put adds the vector of id, or replaces it.
func (c *Collection) Put(ctx context.Context, id string, vec []float32) error {
	return c.PutMany(ctx, []string{id}, [][]float32{vec})
}

// PutMany adds or replaces the vectors of ids, under one lock. A vector that does
// not fit (another dimension, zero, NaN) stops it with an error; those before it
// are kept.
func (c *Collection) PutMany(ctx context.Context, ids []string, vecs [][]float32) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("vector index %s: %d ids, %d vectors", c.name, len(ids), len(vecs))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, id := range ids {
		v, err := c.unit(vecs[i])
		if err != nil {
			return fmt.Errorf("vector index %s: %s: %w", c.name, id, err)
		}
		// No content and no metadata: the text is in SQLite, and a unit vector is
		// kept as it is.
		if err := c.c.AddDocument(ctx, chromem.Document{ID: id, Embedding: v}); err != nil {
			return fmt.Errorf("vector index %s: %w", c.name, err)
		}
	}
	return nil
}

// unit is a copy of vec (the collection keeps the slice it is given, and callers
// reuse theirs) of unit length: as it is when it already is, which Hermes'
// embedders' vectors are, so chromem does not normalise it again.
func (c *Collection) unit(vec []float32) ([]float32, error) {
	if len(vec) != c.dim {
		return nil, fmt.Errorf("vector of dimension %d in an index of %d", len(vec), c.dim)
	}
	norm := length(vec)
	if !finite(norm) {
		return nil, errors.New("the vector cannot be normalised")
	}
	v := make([]float32, len(vec))
	if math.Abs(norm-1) < 1e-6 { // chromem's own test
		copy(v, vec)
		return v, nil
	}
	for i, x := range vec {
		v[i] = float32(float64(x) / norm)
	}
	return v, nil
}

// Delete removes the vectors of ids; unknown ids are ignored.
func (c *Collection) Delete(ctx context.Context, ids ...string) {
	if len(ids) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.c.Delete(ctx, nil, nil, ids...) // by ids, in memory: cannot fail
}

// Query returns up to n ids most similar to vec (cosine), best first; equal
// similarities in the order of their ids, also at the cut (so a result never
// depends on chromem's goroutines).
func (c *Collection) Query(ctx context.Context, vec []float32, n int) ([]Hit, error) {
	if len(vec) != c.dim {
		return nil, fmt.Errorf("vector index %s: query of dimension %d in an index of %d", c.name, len(vec), c.dim)
	}
	if !normalisable(vec) {
		return nil, fmt.Errorf("vector index %s: the query vector cannot be normalised", c.name)
	}
	if n <= 0 {
		return nil, nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	total := c.c.Count()
	if total == 0 {
		return nil, nil
	}
	// One result more than asked shows whether the cut falls between equal
	// similarities; while it does, ask for more (chromem refuses more than it holds).
	ask := min(n+1, total)
	for {
		res, err := c.c.QueryEmbedding(ctx, vec, ask, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("vector index %s: %w", c.name, err)
		}
		if ask < total && len(res) > n && res[len(res)-1].Similarity == res[n-1].Similarity {
			ask = min(2*ask, total)
			continue
		}
		out := make([]Hit, len(res))
		for i, r := range res {
			out[i] = Hit{ID: r.ID, Sim: r.Similarity}
		}
		slices.SortFunc(out, func(a, b Hit) int {
			if a.Sim != b.Sim {
				return cmp.Compare(b.Sim, a.Sim)
			}
			return cmp.Compare(a.ID, b.ID)
		})
		return out[:min(n, len(out))], nil
	}
}

func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// finite: a length a vector can be divided by.
func finite(norm float64) bool { return norm != 0 && !math.IsNaN(norm) && !math.IsInf(norm, 0) }

func normalisable(v []float32) bool { return finite(length(v)) }
