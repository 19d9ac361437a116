package kb

import (
	"context"
	"database/sql"
	"fmt"

	"hermes/backend/chunk"
	"hermes/backend/vector"
)

// reembedBatch is how many passages one step of Reembed embeds and writes.
const reembedBatch = 64

// Reembed gives every passage a vector from the current embedder (after the
// embedding model changed, or when it failed at indexing), a batch at a time
// until none is left or ctx ends; it returns how many it embedded. Search
// keeps working meanwhile: by words, and by the vectors already made.
func (s *Store) Reembed(ctx context.Context) (int, error) {
	if s.cfg.Embedder == nil {
		return 0, nil
	}
	done := 0
	for {
		n, err := s.reembedStep(ctx)
		done += n
		if err != nil || n == 0 {
			return done, err
		}
	}
}

// stale is a passage whose vector is not the current embedder's.
type stale struct {
	id, collection int64
	c              chunk.Chunk
}

func (s *Store) reembedStep(ctx context.Context) (int, error) {
	name := s.cfg.Embedder.Name()
	rows, err := s.db.QueryContext(ctx, `SELECT k.id, f.collection_id, k.heading, k.text FROM kb_chunks k
		JOIN kb_files f ON f.id = k.file_id WHERE k.embedder <> ? ORDER BY k.id LIMIT ?`, name, reembedBatch)
	if err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	var batch []stale
	for rows.Next() {
		var st stale
		if err := rows.Scan(&st.id, &st.collection, &st.c.Heading, &st.c.Text); err != nil {
			rows.Close()
			return 0, fmt.Errorf("re-embed: %w", err)
		}
		batch = append(batch, st)
	}
	rows.Close()
	if len(batch) == 0 {
		return 0, rows.Err()
	}
	chunks := make([]chunk.Chunk, len(batch))
	for i, st := range batch {
		chunks[i] = st.c
	}
	vecs, embedder := s.embed(ctx, chunks)
	if vecs == nil {
		return 0, fmt.Errorf("re-embed: the embedder %s failed", name)
	}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		for i, st := range batch {
			if _, err := tx.ExecContext(ctx, `UPDATE kb_chunks SET embedder = ?, embedding = ? WHERE id = ?`,
				embedder, vector.Encode(vecs[i]), st.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	for i, st := range batch {
		s.syncVectors(ctx, st.collection, nil, []int64{st.id}, vecs[i:i+1], embedder)
	}
	return len(batch), nil
}
