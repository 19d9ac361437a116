package kb

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"hermes/backend/vector"
)

// The vector index holds, per collection, the chunks embedded by the current
// embedder. It is built from SQLite on the first search; until then writes
// touch only SQLite, so a command that only adds files never loads it.

// syncVectors follows a committed change: the old chunks' vectors go, the new
// ones come (when they are the current embedder's).
func (s *Store) syncVectors(ctx context.Context, collection int64, old, ids []int64, vecs [][]float32, embedder string) {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	if !s.loaded {
		return
	}
	name := vectorName(collection)
	if c := s.vecs.Lookup(name); c != nil {
		c.Delete(ctx, strIDs(old)...)
	}
	if len(vecs) == 0 || s.cfg.Embedder == nil || embedder != s.cfg.Embedder.Name() {
		return
	}
	c, err := s.vecs.Collection(name, len(vecs[0]))
	if err == nil {
		_ = c.PutMany(ctx, strIDs(ids), vecs) // a vector that does not fit is left to the words
	}
}

func strIDs(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

// loadVectors builds the index from SQLite once.
func (s *Store) loadVectors(ctx context.Context) error {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	if s.loaded || s.cfg.Embedder == nil {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT k.id, f.collection_id, k.embedding FROM kb_chunks k
		JOIN kb_files f ON f.id = k.file_id WHERE k.embedder = ? AND k.embedding IS NOT NULL ORDER BY f.collection_id`,
		s.cfg.Embedder.Name())
	if err != nil {
		return err
	}
	defer rows.Close()
	batch := map[int64]*pending{}
	for rows.Next() {
		var id, coll int64
		var blob []byte
		if err := rows.Scan(&id, &coll, &blob); err != nil {
			return err
		}
		v, err := vector.Decode(blob, len(blob)/4)
		if err != nil || !vector.Usable(v) {
			continue
		}
		b := batch[coll]
		if b == nil {
			b = &pending{}
			batch[coll] = b
		}
		b.ids = append(b.ids, strconv.FormatInt(id, 10))
		b.vecs = append(b.vecs, v)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for coll, b := range batch {
		c, err := s.vecs.Collection(vectorName(coll), len(b.vecs[0]))
		if err != nil {
			continue
		}
		_ = c.PutMany(ctx, b.ids, b.vecs)
	}
	s.loaded = true
	return nil
}

type pending struct {
	ids  []string
	vecs [][]float32
}

// queryVectors is the n chunks of collections nearest to vec, best first.
func (s *Store) queryVectors(ctx context.Context, collections []int64, vec []float32, n int) []int64 {
	type hit struct {
		id  int64
		sim float64
	}
	var all []hit
	for _, coll := range collections {
		c := s.vecs.Lookup(vectorName(coll))
		if c == nil || c.Dim() != len(vec) {
			continue
		}
		hits, err := c.Query(ctx, vec, n)
		if err != nil {
			continue
		}
		for _, h := range hits {
			id, _ := strconv.ParseInt(h.ID, 10, 64)
			all = append(all, hit{id, float64(h.Sim)})
		}
	}
	slices.SortStableFunc(all, func(a, b hit) int { return cmp.Compare(b.sim, a.sim) })
	out := make([]int64, 0, min(n, len(all)))
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].id)
	}
	return out
}
