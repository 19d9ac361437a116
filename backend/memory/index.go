package memory

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"hermes/backend/vector"
)

// index is the in-memory vector index: one chromem-go collection per profile
// (backend/vector, corpus "memories"), holding the active memories that have a
// vector from one embedder and dimension. It is never persisted; SQLite is the
// source of truth.
type index struct {
	embedder string

	mu   sync.Mutex // guards dim
	dim  int        // 0 until the first vector (an Ollama model's size is learned)
	vecs *vector.Index
}

// vecHit is one vector search result.
type vecHit struct {
	ID  string
	Sim float64
}

func newIndex(embedder string, dim int) *index {
	return &index{embedder: embedder, dim: dim, vecs: vector.New()}
}

// collection is a profile's collection; with create, made when missing (of the
// index's dimension, which must be known by then).
func (x *index) collection(profile string, create bool) (*vector.Collection, error) {
	name := vector.Name(vector.Memories, profile)
	if !create {
		return x.vecs.Lookup(name), nil
	}
	dim := x.dimension()
	if dim == 0 {
		return nil, fmt.Errorf("index profile %s: the dimension is not known yet", profile)
	}
	return x.vecs.Collection(name, dim)
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
	if err := c.Put(ctx, id, vec); err != nil {
		return fmt.Errorf("index memory %s: %w", id, err)
	}
	return nil
}

// fits reports whether vec can join the index; the first vector fixes the dimension.
func (x *index) fits(vec []float32) bool {
	if !vector.Usable(vec) {
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

// putMany adds many vectors of one profile; those that do not fit are skipped.
func (x *index) putMany(ctx context.Context, profile string, ids []string, vecs [][]float32) error {
	keepIDs, keep := ids[:0:0], vecs[:0:0]
	for i, id := range ids {
		if x.fits(vecs[i]) {
			keepIDs, keep = append(keepIDs, id), append(keep, vecs[i])
		}
	}
	if len(keepIDs) == 0 {
		return nil
	}
	c, err := x.collection(profile, true)
	if err != nil {
		return err
	}
	if err := c.PutMany(ctx, keepIDs, keep); err != nil {
		return fmt.Errorf("index memories: %w", err)
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
	c.Delete(ctx, ids...)
}

// dropProfile forgets a whole profile's collection.
func (x *index) dropProfile(profile string) {
	x.vecs.Drop(vector.Name(vector.Memories, profile))
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
	if len(vec) != x.dimension() || !vector.Usable(vec) || n <= 0 {
		return nil, nil
	}
	c, _ := x.collection(profile, false)
	if c == nil {
		return nil, nil
	}
	res, err := c.Query(ctx, vec, n)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	out := make([]vecHit, len(res))
	for i, r := range res {
		out[i] = vecHit{ID: r.ID, Sim: float64(r.Sim)}
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
		WHERE e.embedder = ? AND e.dim = ? AND m.status = 'active' ORDER BY m.profile, m.rid`, embedder, dim)
	if err != nil {
		return nil, fmt.Errorf("load vector index: %w", err)
	}
	defer rows.Close()
	v := make([]float32, dim) // the collection keeps a copy
	for rows.Next() {
		var p, id string
		var blob []byte
		if err := rows.Scan(&p, &id, &blob); err != nil {
			return nil, fmt.Errorf("load vector index: %w", err)
		}
		if err := vector.DecodeInto(v, blob); err != nil {
			return nil, fmt.Errorf("load vector index: memory %s: %w", id, err)
		}
		if !vector.Usable(v) {
			continue
		}
		if err := x.put(ctx, p, id, v); err != nil {
			return nil, fmt.Errorf("load vector index: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load vector index: %w", err)
	}
	return x, nil
}
