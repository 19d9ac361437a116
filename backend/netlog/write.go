package netlog

import (
	"context"
	"fmt"
	"time"

	"hermes/backend/store"
)

// stamp is how times are stored: fixed width, so that text order is time order.
const stamp = "2006-01-02T15:04:05.000Z"

// Flush writes the pending events now. On failure they wait for the next
// flush (within the bound).
func (l *Log) Flush(ctx context.Context) error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	return l.flushLocked(ctx)
}

// flushLocked is Flush under wmu (one write at a time, and a List reads
// between writes).
func (l *Log) flushLocked(ctx context.Context) error {
	l.mu.Lock()
	batch := l.pending
	l.pending = map[key]*Entry{}
	l.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := l.write(ctx, batch); err != nil {
		l.putBack(batch)
		return fmt.Errorf("write network log: %w", err)
	}
	return nil
}

// putBack merges a batch that could not be written into what gathered since.
func (l *Log) putBack(batch map[key]*Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, old := range batch {
		p, ok := l.pending[k]
		switch {
		case !ok && len(l.pending) >= l.opts.MaxPending:
		case !ok:
			l.pending[k] = old
		default:
			p.Count += old.Count
			if old.First.Before(p.First) {
				p.First = old.First
			}
			if old.Last.After(p.Last) {
				p.Last, p.Address, p.Reason = old.Last, old.Address, old.Reason
			}
		}
	}
}

const upsert = `INSERT INTO network_log(day, part, host, port, outcome, address, reason, first_at, last_at, count)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT(day, part, host, port, outcome) DO UPDATE SET
		count = count + excluded.count,
		first_at = min(first_at, excluded.first_at),
		address = CASE WHEN excluded.last_at >= last_at THEN excluded.address ELSE address END,
		reason = CASE WHEN excluded.last_at >= last_at THEN excluded.reason ELSE reason END,
		last_at = max(last_at, excluded.last_at)`

// write adds a batch to the table in one transaction and prunes it. It waits
// at most Options.Wait for another writer (another Hermes process importing),
// not the store's long busy timeout: the batch is tried again at the next flush.
func (l *Log) write(ctx context.Context, batch map[key]*Entry) error {
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, l.opts.Wait.Milliseconds())); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), fmt.Sprintf(`PRAGMA busy_timeout = %d`, store.BusyTimeout.Milliseconds()))
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for k, e := range batch {
		if _, err := tx.ExecContext(ctx, upsert, k.day, k.part, k.host, k.port, k.outcome, e.Address, e.Reason,
			e.First.UTC().Format(stamp), e.Last.UTC().Format(stamp), e.Count); err != nil {
			return err
		}
	}
	oldest := l.opts.Now().UTC().AddDate(0, 0, -l.opts.KeepDays).Format(time.DateOnly)
	if _, err := tx.ExecContext(ctx, `DELETE FROM network_log WHERE day < ?`, oldest); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM network_log WHERE id IN
		(SELECT id FROM network_log ORDER BY last_at DESC, id DESC LIMIT -1 OFFSET ?)`, l.opts.MaxRows); err != nil {
		return err
	}
	return tx.Commit()
}
