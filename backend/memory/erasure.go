package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hermes/backend/store"
)

// A bulk erasure is a persisted job (memory_erasures, migration 0017): the ids
// to erase and the tombstone are committed before the first batch; each batch
// is one transaction that erases the next forgetBatch ids (with everything
// derived from them), drops them from the job and adds them to its counts and
// to the tombstone; the last batch deletes the job. Other processes' writes get
// in between the batches. A job a crash or an error interrupted is finished
// when the memory is next opened, under the receipt it started with: one
// erasure, one tombstone, one receipt. Job rows keep only ids, never text.

// erasure is a recorded bulk erasure.
type erasure struct {
	id   string // the tombstone's and receipt's id
	kind string
	at   time.Time
}

// erasureTally is how far an erasure got.
type erasureTally struct {
	erased, older int
	finished      bool
}

// recordErasure commits the job and its tombstone (counting nothing yet).
func (s *Store) recordErasure(ctx context.Context, kind string, ids []string) (erasure, error) {
	e := erasure{id: s.cfg.NewID(), kind: kind, at: s.now()}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_erasures(id, kind, at, total) VALUES (?, ?, ?, ?)`, e.id, kind, ts(e.at), len(ids)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_tombstones(id, at, count, kind) VALUES (?, ?, 0, ?)`, e.id, ts(e.at), kind); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO memory_erasure_items(erasure_id, seq, memory_id) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, id := range ids {
			if _, err := stmt.ExecContext(ctx, e.id, i, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return erasure{}, fmt.Errorf("record erasure: %w", err)
	}
	return e, nil
}

// runErasure erases a recorded job's remaining ids batch by batch and returns
// its receipt. A batch that fails stops it; the job stays recorded and the
// error says so.
func (s *Store) runErasure(ctx context.Context, e erasure) (Receipt, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var gone []erased
	var tally erasureTally
	var err error
	for batch := 1; ; batch++ {
		var got []erased
		got, tally, err = s.eraseBatch(ctx, e.id)
		gone = append(gone, got...)
		if err != nil || tally.finished {
			break
		}
		if s.afterBatch != nil {
			if err = s.afterBatch(e.id, batch); err != nil {
				break
			}
		}
	}
	r := Receipt{TombstoneID: e.id, At: e.at, Kind: e.kind, Count: tally.erased, OlderVersions: tally.older}
	if err != nil && len(gone) == 0 {
		return Receipt{}, fmt.Errorf("forget: %w (receipt %s; the erasure is finished when Hermes next opens this data dir)", err, e.id)
	}
	r = s.afterErase(ctx, r, gone, eraseScope{})
	if err != nil {
		return r, fmt.Errorf("forget: stopped after erasing %d memories (receipt %s; the rest is erased when Hermes next opens this data dir): %w", r.Count, e.id, err)
	}
	return r, nil
}

// eraseBatch erases the next ids of an erasure in one transaction and returns
// what it erased and the job's tally. A job no longer recorded (another
// process finished it) is finished, with the tombstone's count.
func (s *Store) eraseBatch(ctx context.Context, id string) ([]erased, erasureTally, error) {
	var gone []erased
	var t erasureTally
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var done, total int
		err := tx.QueryRowContext(ctx, `SELECT done, total, erased, older FROM memory_erasures WHERE id = ?`, id).Scan(&done, &total, &t.erased, &t.older)
		if errors.Is(err, sql.ErrNoRows) {
			t.finished = true
			return tx.QueryRowContext(ctx, `SELECT count FROM memory_tombstones WHERE id = ?`, id).Scan(&t.erased)
		}
		if err != nil {
			return err
		}
		ids, err := erasureIDs(ctx, tx, id, done)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			if gone, err = s.eraseIn(ctx, tx, idScope(ids)); err != nil {
				return err
			}
		}
		t.erased, t.older = t.erased+len(gone), t.older+olderOf(gone)
		t.finished = done+len(ids) >= total || len(ids) == 0
		return advanceErasure(ctx, tx, id, done, len(ids), gone, t)
	})
	if err != nil {
		return nil, erasureTally{}, fmt.Errorf("erase batch: %w", err)
	}
	return gone, t, nil
}

// erasureIDs are the next forgetBatch ids of an erasure from position done.
func erasureIDs(ctx context.Context, tx *sql.Tx, id string, done int) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT memory_id FROM memory_erasure_items WHERE erasure_id = ? AND seq >= ? ORDER BY seq LIMIT ?`, id, done, forgetBatch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var mid string
		if err := rows.Scan(&mid); err != nil {
			return nil, err
		}
		ids = append(ids, mid)
	}
	return ids, rows.Err()
}

// advanceErasure records a batch: its ids leave the job, its memories are
// counted in the job and the tombstone, and a finished job is deleted.
func advanceErasure(ctx context.Context, tx *sql.Tx, id string, done, n int, gone []erased, t erasureTally) error {
	exec := func(q string, args ...any) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	}
	if err := exec(`DELETE FROM memory_erasure_items WHERE erasure_id = ? AND seq < ?`, id, done+n); err != nil {
		return err
	}
	if err := exec(`UPDATE memory_erasures SET done = ?, erased = ?, older = ? WHERE id = ?`, done+n, t.erased, t.older, id); err != nil {
		return err
	}
	if err := exec(`UPDATE memory_tombstones SET count = count + ? WHERE id = ?`, len(gone), id); err != nil {
		return err
	}
	if t.finished {
		return exec(`DELETE FROM memory_erasures WHERE id = ?`, id)
	}
	return nil
}

// finishErasures finishes, at open, the bulk erasures a crash or an error
// interrupted, each under its own receipt; Resumed returns the receipts.
func (s *Store) finishErasures(ctx context.Context) error {
	list, err := unfinishedErasures(ctx, s.db)
	if err != nil {
		return err
	}
	for _, e := range list {
		r, err := s.runErasure(ctx, e)
		if err != nil {
			return fmt.Errorf("finish erasure %s: %w", e.id, err)
		}
		s.cfg.Logf("memory: finished an interrupted erasure: %s", r.Summary())
		s.resumed = append(s.resumed, r)
	}
	return nil
}

// Resumed returns the receipts of the erasures Open finished (a crash had
// interrupted them), oldest first.
func (s *Store) Resumed() []Receipt { return append([]Receipt(nil), s.resumed...) }

// UnfinishedErasures counts the bulk erasures a crash or an error left
// unfinished in db; opening the memory finishes them.
func UnfinishedErasures(ctx context.Context, db *store.DB) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_erasures`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count unfinished erasures: %w", err)
	}
	return n, nil
}

func unfinishedErasures(ctx context.Context, db *store.DB) ([]erasure, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, kind, at FROM memory_erasures ORDER BY at, id`)
	if err != nil {
		return nil, fmt.Errorf("list unfinished erasures: %w", err)
	}
	defer rows.Close()
	var out []erasure
	for rows.Next() {
		var e erasure
		var at string
		if err := rows.Scan(&e.id, &e.kind, &at); err != nil {
			return nil, fmt.Errorf("list unfinished erasures: %w", err)
		}
		e.at = parseTS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}
