package memory

import (
	"context"
	"database/sql"
	"time"
)

// indexChanges are the vector index updates of a transaction, applied after it commits.
type indexChanges struct {
	puts []indexPut
	dels map[string][]string // profile -> ids
}

type indexPut struct {
	profile, id string
	vec         []float32
}

func (c *indexChanges) put(profile, id string, vec []float32) {
	if vec != nil {
		c.puts = append(c.puts, indexPut{profile, id, vec})
	}
}

func (c *indexChanges) del(profile, id string) {
	if c.dels == nil {
		c.dels = map[string][]string{}
	}
	c.dels[profile] = append(c.dels[profile], id)
}

func (s *Store) applyIndex(ctx context.Context, c *indexChanges) {
	_, idx := s.current()
	for p, ids := range c.dels {
		idx.remove(ctx, p, ids...)
	}
	for _, p := range c.puts {
		if err := idx.put(ctx, p.profile, p.id, p.vec); err != nil {
			s.cfg.Logf("memory: %v", err)
		}
	}
}

// activate makes m active: it enters the lexical index (and, after commit, the
// vector index), and supersedes what it replaces.
func (s *Store) activate(ctx context.Context, tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) ([]string, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE memories SET status = 'active', replaces = '[]', note = '', updated_at = ? WHERE rid = ?`, ts(now), m.rid); err != nil {
		return nil, err
	}
	if m.Status != StatusActive {
		if err := ftsInsert(ctx, tx, m.rid, m.Profile, m.Text, m.Key); err != nil {
			return nil, err
		}
		ch.put(m.Profile, m.ID, s.vectorOf(ctx, tx, m.rid))
	}
	return s.supersede(ctx, tx, m, m.Replaces, now, ch)
}

// deactivate moves an active memory to status (archived, superseded, pending).
func deactivate(ctx context.Context, tx *sql.Tx, m Memory, status Status, now time.Time, ch *indexChanges) error {
	if _, err := tx.ExecContext(ctx, `UPDATE memories SET status = ?, updated_at = ? WHERE rid = ?`, status, ts(now), m.rid); err != nil {
		return err
	}
	if m.Status == StatusActive {
		if err := ftsDelete(ctx, tx, m.rid); err != nil {
			return err
		}
		ch.del(m.Profile, m.ID)
	}
	return nil
}

// supersede retires the active memories ids (of m's profile) in favour of m: they
// become superseded, valid until now, with a link to m.
func (s *Store) supersede(ctx context.Context, tx *sql.Tx, m Memory, ids []string, now time.Time, ch *indexChanges) ([]string, error) {
	var done []string
	for _, id := range ids {
		if id == m.ID {
			continue
		}
		olds, err := queryMemories(ctx, tx, `m.id = ? AND m.profile = ? AND m.status IN ('active', 'archived')`, id, m.Profile)
		if err != nil {
			return nil, err
		}
		for _, old := range olds {
			if err := deactivate(ctx, tx, old, StatusSuperseded, now, ch); err != nil {
				return nil, err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE memories SET valid_until = ?, superseded_by = ? WHERE rid = ?`, ts(now), m.ID, old.rid); err != nil {
				return nil, err
			}
			done = append(done, old.ID)
		}
	}
	return done, nil
}
