package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"hermes/backend/vector"
)

// queryer is a database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryMemories reads the memories matching where (a condition on alias m).
func queryMemories(ctx context.Context, q queryer, where string, args ...any) ([]Memory, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+memoryCols+` FROM memories m WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// lookup finds one memory by id, or by ref (in any profile when the ref is unique).
func lookup(ctx context.Context, q queryer, idOrRef string) (Memory, error) {
	ms, err := queryMemories(ctx, q, `m.id = ? OR m.ref = ? ORDER BY (m.id = ?) DESC LIMIT 2`, idOrRef, idOrRef, idOrRef)
	if err != nil {
		return Memory{}, fmt.Errorf("find memory %q: %w", idOrRef, err)
	}
	switch {
	case len(ms) == 0:
		return Memory{}, fmt.Errorf("find memory %q: %w", idOrRef, ErrNotFound)
	case len(ms) == 2 && ms[0].ID != idOrRef:
		return Memory{}, fmt.Errorf("find memory %q: %w: the ref names memories in more than one profile; use the id", idOrRef, ErrInvalid)
	}
	return ms[0], nil
}

// vectorOf reads the stored vector of a memory for the current embedder (nil when none).
func (s *Store) vectorOf(ctx context.Context, q queryer, rid int64) []float32 {
	emb, idx := s.current()
	var blob []byte
	var dim int
	err := q.QueryRowContext(ctx, `SELECT vec, dim FROM memory_embeddings WHERE memory_rid = ? AND embedder = ?`, rid, emb.Name()).Scan(&blob, &dim)
	if errors.Is(err, sql.ErrNoRows) || err != nil {
		return nil
	}
	if d := idx.dimension(); d != 0 && d != dim {
		return nil
	}
	v, err := vector.Decode(blob, dim)
	if err != nil {
		return nil
	}
	return v
}
