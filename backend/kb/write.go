package kb

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"

	"hermes/backend/store"
	"hermes/backend/text"
	"hermes/backend/vector"
)

// commit writes a batch of read files in one transaction (each file whole,
// through statements prepared once for the batch), then the vector index
// (when loaded) follows.
func (s *Store) commit(ctx context.Context, outs []outcome) error {
	olds := make([][]int64, len(outs))
	ids := make([][]int64, len(outs))
	defer s.words.Reset()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		w, err := s.batchWriter(ctx, tx)
		if err != nil {
			return err
		}
		for i, o := range outs {
			if olds[i], ids[i], err = s.write(ctx, tx, w, o); err != nil {
				return fmt.Errorf("%s: %w", o.f.rel, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	for i, o := range outs {
		if len(olds[i]) > 0 || len(ids[i]) > 0 {
			s.syncVectors(ctx, o.f.collection, olds[i], ids[i], o.vecs, o.embedder)
		}
	}
	return nil
}

// batchWriter is one batch's statements (store.DB.TxStmt: prepared once for
// the database, bound to the batch's transaction): a chunk's row and its
// full-text entry, and the file's row once indexed.
type batchWriter struct{ chunk, fts, indexed *sql.Stmt }

func (s *Store) batchWriter(ctx context.Context, tx *sql.Tx) (*batchWriter, error) {
	w := &batchWriter{}
	for _, st := range []struct {
		to  **sql.Stmt
		sql string
	}{
		{&w.chunk, `INSERT INTO kb_chunks(file_id, seq, page, heading, start_at, end_at, text, embedder, embedding)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&w.fts, `INSERT INTO kb_fts(rowid, body, scope) VALUES (?, ?, ?)`},
		{&w.indexed, `UPDATE kb_files SET state = 'indexed', hash = ?, kind = ?, reason = '', detail = '',
			pages = ?, chunks = ?, chars = ?, indexed_at = ? WHERE id = ?`},
	} {
		var err error
		if *st.to, err = s.db.TxStmt(ctx, tx, st.sql); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// write applies one outcome: the old chunks it replaces and the new ones' ids.
func (s *Store) write(ctx context.Context, tx *sql.Tx, w *batchWriter, o outcome) (old, ids []int64, err error) {
	if o.same {
		_, err = tx.ExecContext(ctx, `UPDATE kb_files SET state = 'indexed' WHERE id = ?`, o.f.id)
		return nil, nil, err
	}
	if old, err = s.eraseFileChunks(ctx, tx, o.f.id); err != nil {
		return nil, nil, err
	}
	switch {
	case o.gone:
		_, err = tx.ExecContext(ctx, `DELETE FROM kb_files WHERE id = ?`, o.f.id)
	case o.failed:
		_, err = tx.ExecContext(ctx, `UPDATE kb_files SET state = 'failed', reason = ?, detail = ?, hash = '', chunks = 0,
			indexed_at = ? WHERE id = ?`, o.reason, o.detail, s.now(), o.f.id)
	default:
		if ids, err = w.insertChunks(ctx, o); err != nil {
			return nil, nil, err
		}
		_, err = w.indexed.ExecContext(ctx, o.hash, o.doc.Kind, len(o.doc.Pages), len(o.chunks), o.doc.Chars(), s.now(), o.f.id)
	}
	return old, ids, err
}

// insertChunks writes a file's chunks with their full-text entries (made
// when the file was read: see rowsOf).
func (w *batchWriter) insertChunks(ctx context.Context, o outcome) ([]int64, error) {
	ids := make([]int64, len(o.chunks))
	sc := scope(o.f.collection)
	for i, c := range o.chunks {
		res, err := w.chunk.ExecContext(ctx, o.f.id, c.Seq, c.Page, c.Heading, c.Start, c.End, c.Text, o.embedder, o.blobs[i])
		if err != nil {
			return nil, err
		}
		ids[i], _ = res.LastInsertId()
		if _, err := w.fts.ExecContext(ctx, ids[i], o.bodies[i], sc); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// rowsOf fills what a file's chunks are written as, beside its reading
// (on the reader's core, not the writer's): each chunk's full-text body and
// its vector's bytes (nil without one).
func (o *outcome) rowsOf() {
	o.bodies, o.blobs = make([]string, len(o.chunks)), make([][]byte, len(o.chunks))
	for i, c := range o.chunks {
		o.bodies[i] = ftsBody(o.f.rel, c.Heading, c.Text)
		if o.vecs != nil {
			o.blobs[i] = vector.Encode(o.vecs[i])
		}
	}
}

// Title is a file's title as the index knows it: its name without folder and
// extension, with _ and - as spaces.
func Title(rel string) string {
	base := path.Base(rel)
	base = strings.TrimSuffix(base, path.Ext(base))
	return strings.NewReplacer("_", " ", "-", " ").Replace(base)
}

// eraseFileChunks deletes a file's chunks and their index entries; it returns
// their ids (for the vector index).
func (s *Store) eraseFileChunks(ctx context.Context, tx *sql.Tx, fileID int64) ([]int64, error) {
	ids, err := chunkIDs(ctx, tx, `SELECT id FROM kb_chunks WHERE file_id = ?`, fileID)
	if err != nil {
		return nil, err
	}
	return ids, eraseChunks(ctx, tx, ids)
}

func chunkIDs(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return scanIDs(rows)
}

func scanIDs(rows *sql.Rows) ([]int64, error) {
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func eraseChunks(ctx context.Context, tx *sql.Tx, ids []int64) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM kb_fts WHERE rowid = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM kb_chunks WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// removeFile erases a file that is gone from disk (or from the collection).
func (s *Store) removeFile(ctx context.Context, collection int64, rel string) error {
	var gone []int64
	defer s.words.Reset()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var fileID int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM kb_files WHERE collection_id = ? AND path_hash = ?`, collection, store.Digest(rel)).Scan(&fileID)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return err
		}
		if gone, err = s.eraseFileChunks(ctx, tx, fileID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM kb_files WHERE id = ?`, fileID)
		return err
	})
	if err != nil {
		return fmt.Errorf("remove %s from the index: %w", rel, err)
	}
	s.syncVectors(ctx, collection, gone, nil, nil, "")
	return nil
}

// RebuildIndex writes the full-text index of every passage again (after a
// recovery, which copies the passages but not their index, or when
// text.Segment's form changed); the old index is emptied whole.
func RebuildIndex(ctx context.Context, db *store.DB) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO kb_fts(kb_fts) VALUES ('delete-all')`); err != nil {
			return fmt.Errorf("rebuild the knowledge index: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT k.id, f.collection_id, f.path, k.heading, k.text FROM kb_chunks k JOIN kb_files f ON f.id = k.file_id`)
		if err != nil {
			return fmt.Errorf("rebuild the knowledge index: %w", err)
		}
		type row struct {
			id, coll           int64
			rel, heading, text string
		}
		var all []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.coll, &r.rel, &r.heading, &r.text); err != nil {
				rows.Close()
				return fmt.Errorf("rebuild the knowledge index: %w", err)
			}
			all = append(all, r)
		}
		rows.Close()
		for _, r := range all {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kb_fts(rowid, body, scope) VALUES (?, ?, ?)`,
				r.id, ftsBody(r.rel, r.heading, r.text), scope(r.coll)); err != nil {
				return fmt.Errorf("rebuild the knowledge index: %w", err)
			}
		}
		return nil
	})
}

// ftsBody is what the full-text index holds of a passage: its file's title,
// heading path and text, segmented for CJK.
func ftsBody(rel, heading, txt string) string {
	return text.Segment(Title(rel) + "\n" + heading + "\n" + txt)
}
