package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"hermes/backend/store"
	"hermes/backend/vector"
)

// ProfileInfo is a memory profile as the user sees it.
type ProfileInfo struct {
	Name     string `json:"name"`
	Active   bool   `json:"active"`
	Memories int    `json:"memories"`
}

// ActiveProfile is the profile new conversations and calls without one use
// (DefaultProfile when none is marked).
func ActiveProfile(ctx context.Context, db *store.DB) string {
	var name string
	if err := db.QueryRowContext(ctx, `SELECT name FROM memory_profiles WHERE active = 1 LIMIT 1`).Scan(&name); err != nil {
		return DefaultProfile
	}
	return name
}

// ListProfiles lists the profiles with how many memories each holds.
func (s *Store) ListProfiles(ctx context.Context) ([]ProfileInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.name, p.active, (SELECT COUNT(*) FROM memories m WHERE m.profile = p.name AND m.status <> 'superseded')
		FROM memory_profiles p ORDER BY p.name`)
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	defer rows.Close()
	var out []ProfileInfo
	for rows.Next() {
		var p ProfileInfo
		if err := rows.Scan(&p.Name, &p.Active, &p.Memories); err != nil {
			return nil, fmt.Errorf("list profiles: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ErrProfileExists: a profile of that name is already there.
var ErrProfileExists = errors.New("a profile of that name already exists")

// CreateProfile makes an empty profile.
func (s *Store) CreateProfile(ctx context.Context, name string) error {
	if err := validProfile(name); err != nil {
		return fmt.Errorf("create profile: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO memory_profiles(name, created_at, active) VALUES (?, ?, 0)`, name, ts(s.now()))
	if err != nil {
		return fmt.Errorf("create profile: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("create profile %s: %w: %w", name, ErrInvalid, ErrProfileExists)
	}
	return nil
}

// UseProfile makes a profile the active one.
func (s *Store) UseProfile(ctx context.Context, name string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_profiles WHERE name = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("use profile: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("use profile %s: %w: there is no such profile; create it with `hermes memory profile create %s`", name, ErrInvalid, name)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memory_profiles SET active = (name = ?)`, name); err != nil {
			return fmt.Errorf("use profile: %w", err)
		}
		return nil
	})
}

// ErrProfileActive: the profile is the active one and cannot be deleted.
var ErrProfileActive = errors.New("is the active profile")

// DeleteProfile erases a profile's memories (with a receipt) and the profile;
// its conversations go to the default profile. The default profile itself can
// be emptied but not deleted, and the active one only after switching away
// (nothing is erased while it is in use).
func (s *Store) DeleteProfile(ctx context.Context, name string) (Receipt, error) {
	if name == DefaultProfile {
		return Receipt{}, fmt.Errorf("delete profile: %w: %s is the default profile; forget its memories instead (hermes memory forget --query …)", ErrInvalid, name)
	}
	var active bool
	if err := s.db.QueryRowContext(ctx, `SELECT active FROM memory_profiles WHERE name = ?`, name).Scan(&active); err != nil {
		return Receipt{}, fmt.Errorf("delete profile %s: %w: there is no such profile; see `hermes memory profile list`", name, ErrInvalid)
	}
	if active {
		return Receipt{}, fmt.Errorf("delete profile: %w: %s %w; switch to another profile first (hermes memory profile use %s), then delete it", ErrInvalid, name, ErrProfileActive, DefaultProfile)
	}
	r, err := s.ForgetProfile(ctx, name)
	if err != nil {
		return r, err
	}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET profile = ? WHERE profile = ?`, DefaultProfile, name); err != nil {
			return err
		}
		var wasActive bool
		if err := tx.QueryRowContext(ctx, `SELECT active FROM memory_profiles WHERE name = ?`, name).Scan(&wasActive); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_profiles WHERE name = ?`, name); err != nil {
			return err
		}
		if wasActive {
			_, err := tx.ExecContext(ctx, `UPDATE memory_profiles SET active = (name = ?)`, DefaultProfile)
			return err
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("delete profile %s: %w", name, err)
	}
	return r, nil
}

// RenameProfile gives a profile a new name: its memories, their lexical index
// entries, its conversations, its queued jobs and the active-profile mark follow,
// and the vector index's collection is rebuilt under the new name from SQLite.
func (s *Store) RenameProfile(ctx context.Context, old, name string) error {
	if err := validProfile(name); err != nil {
		return fmt.Errorf("rename profile: %w", err)
	}
	if old == DefaultProfile {
		return fmt.Errorf("rename profile: %w: %s is the default profile and keeps its name; create another profile instead", ErrInvalid, old)
	}
	if old == name {
		return nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var moved []string
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		moved = nil
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_profiles WHERE name = ?`, old).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: there is no profile %s; see `hermes memory profile list`", ErrInvalid, old)
		}
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM memory_profiles WHERE name = ?) + (SELECT COUNT(*) FROM memories WHERE profile = ?)`, name, name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: %w", ErrInvalid, ErrProfileExists)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memory_profiles SET name = ? WHERE name = ?`, name, old); err != nil {
			return err
		}
		// The lexical index's scope token names the profile: the active memories
		// are indexed again under the new one.
		active, err := queryMemories(ctx, tx, `m.profile = ? AND m.status = 'active'`, old)
		if err != nil {
			return err
		}
		for _, m := range active {
			moved = append(moved, m.ID)
			if err := ftsDelete(ctx, tx, m.rid); err != nil {
				return err
			}
			if err := ftsInsert(ctx, tx, m.rid, name, m.Text, m.Key); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`UPDATE memories SET profile = ? WHERE profile = ?`,
			`UPDATE sessions SET profile = ? WHERE profile = ?`,
			`UPDATE memory_jobs SET profile = ? WHERE profile = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, name, old); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rename profile %s: %w", old, err)
	}
	if err := s.reloadProfileIndex(ctx, old, name); err != nil {
		s.cfg.Logf("memory: %v", err)
	}
	s.emit(Change{Kind: "updated", IDs: moved, Profile: name})
	return nil
}

// reloadProfileIndex drops old's vector collection and fills name's from the
// vectors SQLite holds for its active memories.
func (s *Store) reloadProfileIndex(ctx context.Context, old, name string) error {
	_, idx := s.current()
	idx.dropProfile(old)
	idx.dropProfile(name)
	idx.mu.Lock()
	dim := idx.dim
	idx.mu.Unlock()
	if dim == 0 {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, e.vec FROM memory_embeddings e JOIN memories m ON m.rid = e.memory_rid
		WHERE m.profile = ? AND m.status = 'active' AND e.embedder = ? AND e.dim = ?`, name, idx.embedder, dim)
	if err != nil {
		return fmt.Errorf("rebuild vector index of %s: %w", name, err)
	}
	defer rows.Close()
	var ids []string
	var vecs [][]float32
	for rows.Next() {
		var id string
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return fmt.Errorf("rebuild vector index of %s: %w", name, err)
		}
		v := make([]float32, dim)
		if err := vector.DecodeInto(v, blob); err != nil {
			return fmt.Errorf("rebuild vector index of %s: memory %s: %w", name, id, err)
		}
		ids, vecs = append(ids, id), append(vecs, v)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("rebuild vector index of %s: %w", name, err)
	}
	if len(ids) == 0 {
		return nil
	}
	return idx.putMany(ctx, name, ids, vecs)
}
