package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	chromem "github.com/philippgille/chromem-go"
)

// index is the in-memory vector index: one chromem-go collection per profile,
// holding the active memories that have a vector from one embedder and dimension.
// It is never persisted; SQLite is the source of truth.
type index struct {
	embedder string

	db   *chromem.DB
	mu   sync.Mutex // guards dim and cols
	dim  int        // 0 until the first vector (an Ollama model's size is learned)
	cols map[string]*chromem.Collection
}

// vecHit is one vector search result.
type vecHit struct {
	ID  string
	Sim float64
}

func newIndex(embedder string, dim int) *index {
	return &index{embedder: embedder, dim: dim, db: chromem.NewDB(), cols: map[string]*chromem.Collection{}}
}

// noEmbed refuses to embed: the index is always given vectors.
func noEmbed(context.Context, string) ([]float32, error) {
	return nil, errors.New("the memory index embeds nothing itself")
}

func (x *index) collection(profile string, create bool) (*chromem.Collection, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c, ok := x.cols[profile]; ok || !create {
		return c, nil
	}
	c, err := x.db.CreateCollection(profile, nil, noEmbed)
	if err != nil {
		return nil, fmt.Errorf("index profile %s: %w", profile, err)
	}
	x.cols[profile] = c
	return c, nil
}

// put adds or replaces the vector of a memory. A vector of another dimension is
// refused: it would make every query of the collection fail.
func (x *index) put(ctx context.Context, profile, id string, vec []float32) error {
	if !x.fits(vec) {
		return fmt.Errorf("index memory %s: vector of dimension %d does not fit the index (%d)", id, len(vec), x.dimension())
	}
	c, err := x.collection(profile, true)
	if err != nil {
		return err
	}
	if err := c.AddDocument(ctx, chromem.Document{ID: id, Embedding: vec}); err != nil {
		return fmt.Errorf("index memory %s: %w", id, err)
	}
	return nil
}

// fits reports whether vec can join the index; the first vector fixes the dimension.
func (x *index) fits(vec []float32) bool {
	if !usable(vec) {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.dim == 0 {
		x.dim = len(vec)
	}
	return len(vec) == x.dim
}

func (x *index) dimension() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.dim
}

// putMany adds many vectors of one profile.
func (x *index) putMany(ctx context.Context, profile string, ids []string, vecs [][]float32) error {
	if len(ids) == 0 {
		return nil
	}
	c, err := x.collection(profile, true)
	if err != nil {
		return err
	}
	// One by one: AddDocuments starts a goroutine per document.
	for i, id := range ids {
		if !x.fits(vecs[i]) {
			continue
		}
		if err := c.AddDocument(ctx, chromem.Document{ID: id, Embedding: vecs[i]}); err != nil {
			return fmt.Errorf("index memory %s: %w", id, err)
		}
	}
	return nil
}

// remove drops memories from a profile's collection.
func (x *index) remove(ctx context.Context, profile string, ids ...string) {
	if len(ids) == 0 {
		return
	}
	c, _ := x.collection(profile, false)
	if c == nil {
		return
	}
	_ = c.Delete(ctx, nil, nil, ids...) // fails only without ids
}

// dropProfile forgets a whole profile's collection.
func (x *index) dropProfile(profile string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.cols[profile]; ok {
		_ = x.db.DeleteCollection(profile)
		delete(x.cols, profile)
	}
}

// count is how many vectors a profile's collection holds.
func (x *index) count(profile string) int {
	c, _ := x.collection(profile, false)
	if c == nil {
		return 0
	}
	return c.Count()
}

// query returns up to n memories of profile most similar to vec, best first.
func (x *index) query(ctx context.Context, profile string, vec []float32, n int) ([]vecHit, error) {
	if len(vec) != x.dimension() || !usable(vec) || n <= 0 {
		return nil, nil
	}
	c, _ := x.collection(profile, false)
	if c == nil {
		return nil, nil
	}
	n = min(n, c.Count())
	if n == 0 {
		return nil, nil
	}
	res, err := c.QueryEmbedding(ctx, vec, n, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	out := make([]vecHit, len(res))
	for i, r := range res {
		out[i] = vecHit{ID: r.ID, Sim: float64(r.Similarity)}
	}
	return out, nil
}

// loadIndex builds the index of embedder from SQLite: every active memory with a
// vector of that embedder and dimension. dim 0 takes the dimension most vectors have.
func loadIndex(ctx context.Context, db *sql.DB, embedder string, dim int) (*index, error) {
	if dim == 0 {
		err := db.QueryRowContext(ctx, `SELECT COALESCE((SELECT dim FROM memory_embeddings WHERE embedder = ?
			GROUP BY dim ORDER BY COUNT(*) DESC LIMIT 1), 0)`, embedder).Scan(&dim)
		if err != nil {
			return nil, fmt.Errorf("load vector index: %w", err)
		}
	}
	x := newIndex(embedder, dim)
	if dim == 0 {
		return x, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT m.profile, m.id, e.vec FROM memory_embeddings e
		JOIN memories m ON m.rid = e.memory_rid
		WHERE e.embedder = ? AND e.dim = ? AND m.status = 'active' ORDER BY m.profile`, embedder, dim)
	if err != nil {
		return nil, fmt.Errorf("load vector index: %w", err)
	}
	defer rows.Close()
	var profile string
	var ids []string
	var vecs [][]float32
	// The vectors live in slabs: scanning adjacent memory is much faster than
	// chasing 100,000 small allocations.
	var slab []float32
	flush := func() error {
		err := x.putMany(ctx, profile, ids, vecs)
		ids, vecs = ids[:0], vecs[:0]
		return err
	}
	for rows.Next() {
		var p, id string
		var blob []byte
		if err := rows.Scan(&p, &id, &blob); err != nil {
			return nil, fmt.Errorf("load vector index: %w", err)
		}
		if p != profile && len(ids) > 0 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		profile = p
		if len(slab) < dim {
			slab = make([]float32, 4096*dim)
		}
		v := slab[:dim:dim]
		slab = slab[dim:]
		if err := decodeInto(v, blob); err != nil {
			return nil, fmt.Errorf("load vector index: memory %s: %w", id, err)
		}
		ids, vecs = append(ids, id), append(vecs, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load vector index: %w", err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return x, nil
}
