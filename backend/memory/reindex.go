package memory

import (
	"context"
	"database/sql"
	"fmt"

	"hermes/backend/vector"
)

// reindexBatch is how many memories are embedded per step of a reindex.
const reindexBatch = 64

// useEmbedder makes e the current embedder: its index is rebuilt from the stored
// vectors, and a reindex is queued when some memories have none from it.
func (s *Store) useEmbedder(ctx context.Context, e Embedder) error {
	idx, err := loadIndex(ctx, s.db.DB, e.Name(), e.Dim())
	if err != nil {
		return err
	}
	s.imu.Lock()
	s.emb, s.idx = e, idx
	s.imu.Unlock()
	missing, err := s.missingVectors(ctx)
	if err != nil {
		return err
	}
	if missing > 0 {
		return s.enqueueReindex(ctx)
	}
	return nil
}

// SetEmbedder switches to another embedder (the user changed the embedding model,
// or Ollama came back). Recall at once uses only vectors of the new embedder, and a
// background reindex embeds what has none yet; progress goes to Config.OnProgress.
func (s *Store) SetEmbedder(ctx context.Context, e Embedder) error {
	if e == nil {
		return fmt.Errorf("set embedder: %w: nil embedder", ErrInvalid)
	}
	cur, _ := s.current()
	if cur.Name() == e.Name() && cur.Dim() == e.Dim() {
		return nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.useEmbedder(ctx, e); err != nil {
		return fmt.Errorf("set embedder %s: %w", e.Name(), err)
	}
	return nil
}

// missingVectors counts memories without a vector from the current embedder.
func (s *Store) missingVectors(ctx context.Context) (int, error) {
	emb, idx := s.current()
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_embeddings e
		WHERE e.memory_rid = m.rid AND e.embedder = ? AND (? = 0 OR e.dim = ?))`, emb.Name(), idx.dimension(), idx.dimension()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count memories to reindex: %w", err)
	}
	return n, nil
}

// Reindex embeds every memory that has no vector from the current embedder, in
// batches, reporting progress after each; cancelling ctx stops it between batches
// (what is done stays done). When nothing is missing, vectors of other embedders
// are deleted. It returns how many memories it embedded.
func (s *Store) Reindex(ctx context.Context, progress func(Progress)) (int, error) {
	emb, idx := s.current()
	total, err := s.missingVectors(ctx)
	if err != nil {
		return 0, err
	}
	done := 0
	report := func() {
		if progress != nil {
			progress(Progress{Job: jobReindex, Done: done, Total: total})
		}
	}
	report()
	for lastRid := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return done, fmt.Errorf("reindex: %w", err)
		}
		if _, cur := s.current(); cur != idx {
			return done, nil // the embedder changed again; its own reindex is queued
		}
		batch, err := s.unindexed(ctx, emb.Name(), idx.dimension(), lastRid)
		if err != nil {
			return done, err
		}
		if len(batch) == 0 {
			break
		}
		lastRid = batch[len(batch)-1].rid
		texts := make([]string, len(batch))
		for i, m := range batch {
			texts[i] = indexText(m.Text, m.Key)
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return done, fmt.Errorf("reindex: %w", err)
		}
		if err := s.storeVectors(ctx, emb, idx, batch, vecs); err != nil {
			return done, err
		}
		done += len(batch)
		report()
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM memory_embeddings WHERE embedder <> ? OR dim <> ?`, emb.Name(), idx.dimension()); err != nil {
		return done, fmt.Errorf("reindex: drop old vectors: %w", err)
	}
	if done > 0 {
		s.emit(Change{Kind: "reindexed", IDs: []string{fmt.Sprint(done)}})
	}
	return done, nil
}

func (s *Store) unindexed(ctx context.Context, embedder string, dim int, after int64) ([]Memory, error) {
	ms, err := queryMemories(ctx, s.db, `m.rid > ? AND NOT EXISTS (SELECT 1 FROM memory_embeddings e
		WHERE e.memory_rid = m.rid AND e.embedder = ? AND (? = 0 OR e.dim = ?)) ORDER BY m.rid LIMIT ?`, after, embedder, dim, dim, reindexBatch)
	if err != nil {
		return nil, fmt.Errorf("reindex: %w", err)
	}
	return ms, nil
}

func (s *Store) storeVectors(ctx context.Context, emb Embedder, idx *index, batch []Memory, vecs [][]float32) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, cur := s.current(); cur != idx {
		return nil // the embedder changed meanwhile: these vectors belong to no index
	}
	var ch indexChanges
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		ch = indexChanges{}
		for i, m := range batch {
			if !vector.Usable(vecs[i]) || !idx.fits(vecs[i]) {
				continue
			}
			var status string
			if err := tx.QueryRowContext(ctx, `SELECT status FROM memories WHERE rid = ?`, m.rid).Scan(&status); err != nil {
				continue // erased meanwhile
			}
			if err := putVector(ctx, tx, m.rid, emb.Name(), vecs[i]); err != nil {
				return err
			}
			if status == string(StatusActive) {
				ch.put(m.Profile, m.ID, vecs[i])
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	s.applyIndex(ctx, &ch)
	return nil
}
