package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Jobs are rows in memory_jobs, so a crash resumes them: Open puts a job that was
// running back in the queue. A finished job is deleted with its payload.

const (
	jobObserve = "observe"
	jobReindex = "reindex"
)

// maxAttempts is how often a job that keeps failing (Ollama down) is tried before
// it is dropped.
const maxAttempts = 6

// job is one queued piece of background work.
type job struct {
	ID        int64
	Kind      string
	Profile   string
	SessionID string
	Payload   string
	Result    sql.NullString
	Attempts  int
}

func (s *Store) enqueue(ctx context.Context, kind, profile, sessionID string, payload any) (int64, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return 0, fmt.Errorf("queue %s job: %w", kind, err)
	}
	now := ts(s.now())
	r, err := s.db.ExecContext(ctx, `INSERT INTO memory_jobs(kind, state, profile, session_id, payload, not_before, created_at)
		VALUES (?, 'queued', ?, ?, ?, ?, ?)`, kind, profile, nullStr(sessionID), string(b), now, now)
	if err != nil {
		return 0, fmt.Errorf("queue %s job: %w", kind, err)
	}
	s.notify()
	return r.LastInsertId()
}

// enqueueReindex queues a reindex unless one is waiting already.
func (s *Store) enqueueReindex(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_jobs WHERE kind = 'reindex' AND state = 'queued'`).Scan(&n); err != nil {
		return fmt.Errorf("queue reindex: %w", err)
	}
	if n > 0 {
		return nil
	}
	_, err := s.enqueue(ctx, jobReindex, "", "", struct{}{})
	return err
}

// claim takes the next due job and marks it running.
func (s *Store) claim(ctx context.Context) (*job, error) {
	var j job
	var session sql.NullString
	err := s.db.QueryRowContext(ctx, `UPDATE memory_jobs SET state = 'running', attempts = attempts + 1
		WHERE id = (SELECT id FROM memory_jobs WHERE state = 'queued' AND not_before <= ? ORDER BY id LIMIT 1)
		RETURNING id, kind, profile, session_id, payload, result, attempts`, ts(s.now())).
		Scan(&j.ID, &j.Kind, &j.Profile, &session, &j.Payload, &j.Result, &j.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim memory job: %w", err)
	}
	j.SessionID = session.String
	return &j, nil
}

// finish deletes a job and its write keys.
func (s *Store) finish(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_job_writes WHERE job_id = ?`, id); err != nil {
			return fmt.Errorf("finish memory job %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_jobs WHERE id = ?`, id); err != nil {
			return fmt.Errorf("finish memory job %d: %w", id, err)
		}
		return nil
	})
}

// retryLater puts a failed job back with a growing delay, or drops it after
// maxAttempts. Only the kind of error is kept, never conversation text.
func (s *Store) retryLater(ctx context.Context, j *job, cause error) error {
	if j.Attempts >= maxAttempts {
		s.cfg.Logf("memory: dropped %s job %d after %d attempts: %v", j.Kind, j.ID, j.Attempts, cause)
		return s.finish(ctx, j.ID)
	}
	delay := time.Duration(1<<min(j.Attempts, 10)) * 15 * time.Second
	_, err := s.db.ExecContext(ctx, `UPDATE memory_jobs SET state = 'queued', not_before = ?, error = ? WHERE id = ?`,
		ts(s.now().Add(delay)), errorKind(cause), j.ID)
	if err != nil {
		return fmt.Errorf("reschedule memory job %d: %w", j.ID, err)
	}
	return nil
}

// saveResult keeps a job's extracted candidates, so a resumed job writes the same ones.
func (s *Store) saveResult(ctx context.Context, id int64, result any) error {
	b, err := json.Marshal(result)
	if err != nil {
		return fmt.Errorf("save job result: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE memory_jobs SET result = ? WHERE id = ?`, string(b), id); err != nil {
		return fmt.Errorf("save job result: %w", err)
	}
	return nil
}

// QueueStats counts the jobs waiting.
type QueueStats struct {
	Observe int `json:"observe"`
	Reindex int `json:"reindex"`
}

// Queue reports how many jobs wait (queued or running).
func (s *Store) Queue(ctx context.Context) (QueueStats, error) {
	var q QueueStats
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(kind = 'observe'), 0), COALESCE(SUM(kind = 'reindex'), 0) FROM memory_jobs`).Scan(&q.Observe, &q.Reindex)
	if err != nil {
		return q, fmt.Errorf("memory queue: %w", err)
	}
	return q, nil
}
