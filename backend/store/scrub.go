package store

import (
	"context"
	"fmt"
	"time"
)

// Checkpoint copies the WAL into the database file and truncates it, so erased
// text no longer lies in the WAL. It retries briefly while another connection
// or process holds a read transaction; false means the WAL could not be
// emptied yet.
func (db *DB) Checkpoint(ctx context.Context) bool {
	conn, err := db.Conn(ctx)
	if err != nil {
		return false
	}
	defer conn.Close()
	// A checkpoint waits for readers only briefly: a reader elsewhere may hold
	// its snapshot for long, and the erasure is then scrubbed later.
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 100`); err != nil {
		return false
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA busy_timeout = %d`, BusyTimeout.Milliseconds()))
	for attempt := 0; attempt < 5; attempt++ {
		var busy, logPages, done int
		err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &done)
		if err == nil && busy == 0 {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}

// Scrub checkpoints after an erasure (id names its receipt). When the
// checkpoint cannot run now, the erasure is recorded as pending, for
// RetryScrubs; the result says whether the file is clean now.
func (db *DB) Scrub(ctx context.Context, id, kind string) (bool, error) {
	if db.Checkpoint(ctx) {
		return true, nil
	}
	_, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO pending_scrubs(id, kind, at) VALUES (?, ?, ?)`, id, kind, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return false, fmt.Errorf("record pending scrub: %w", err)
	}
	return false, nil
}

// RetryScrubs checkpoints when erasures wait for it and records them as done;
// it returns the ids scrubbed now (none when nothing waits or the checkpoint
// still cannot run).
func (db *DB) RetryScrubs(ctx context.Context) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT id FROM pending_scrubs WHERE done_at IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("retry scrubs: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("retry scrubs: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) == 0 || !db.Checkpoint(ctx) {
		return nil, nil
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for _, id := range ids {
		if _, err := db.ExecContext(ctx, `UPDATE pending_scrubs SET done_at = ? WHERE id = ?`, now, id); err != nil {
			return nil, fmt.Errorf("retry scrubs: %w", err)
		}
	}
	// The rows just written are in the WAL again: empty it once more (they
	// hold no erased text, so failing here loses nothing).
	db.Checkpoint(ctx)
	return ids, nil
}

// ScrubPending reports whether an erasure still waits for its checkpoint.
func (db *DB) ScrubPending(ctx context.Context, id string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pending_scrubs WHERE id = ? AND done_at IS NULL`, id).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("scrub state: %w", err)
	}
	return n > 0, nil
}

// ScrubLoop retries pending scrubs every interval until ctx ends; onDone hears
// the ids scrubbed.
func (db *DB) ScrubLoop(ctx context.Context, every time.Duration, onDone func([]string)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if ids, err := db.RetryScrubs(ctx); err == nil && len(ids) > 0 && onDone != nil {
			onDone(ids)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
