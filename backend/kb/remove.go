package kb

import (
	"context"
	"database/sql"
	"fmt"
)

// Receipt says what removing a collection erased, and whether the database
// file was scrubbed (the write-ahead log emptied) at once.
type Receipt struct {
	Collection string `json:"collection"`
	Files      int    `json:"files"`
	Chunks     int    `json:"chunks"`
	Vectors    int    `json:"vectors"`
	Scrubbed   bool   `json:"scrubbed"`
}

// Remove erases a collection: its files' chunks, their full-text entries and
// vectors; the files on disk are not touched. The full-text index is merged
// so no term of the erased text stays in it, and the write-ahead log emptied.
func (s *Store) Remove(ctx context.Context, name string) (Receipt, error) {
	c, err := s.Get(ctx, name)
	if err != nil {
		return Receipt{}, err
	}
	r := Receipt{Collection: c.Name, Files: c.Files}
	defer s.words.Reset()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		ids, err := chunkIDs(ctx, tx, `SELECT k.id FROM kb_chunks k JOIN kb_files f ON f.id = k.file_id WHERE f.collection_id = ?`, c.ID)
		if err != nil {
			return err
		}
		r.Chunks = len(ids)
		if err := eraseChunks(ctx, tx, ids); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM kb_collections WHERE id = ?`, c.ID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO kb_fts(kb_fts) VALUES ('optimize')`)
		return err
	})
	if err != nil {
		return Receipt{}, fmt.Errorf("remove collection %q: %w", c.Name, err)
	}
	s.vmu.Lock()
	if v := s.vecs.Lookup(vectorName(c.ID)); v != nil {
		r.Vectors = v.Count()
	}
	s.vecs.Drop(vectorName(c.ID))
	s.vmu.Unlock()
	if w := s.watcher(); w != nil {
		w.forget(c.ID)
	}
	r.Scrubbed, err = s.db.Scrub(ctx, "kb-"+itoa(c.ID), "knowledge")
	s.changed(c.Name)
	return r, err
}
