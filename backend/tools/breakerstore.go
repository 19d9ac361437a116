package tools

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hermes/backend/store"
)

// BreakerStore shares open breakers between processes: the executor asks it
// before a call and tells it when a breaker opens or closes.
type BreakerStore interface {
	// OpenUntil is when a breaker another process opened lets calls through
	// again (zero when it is not open).
	OpenUntil(ctx context.Context, tool string) (time.Time, error)
	// SetOpen records an open breaker until then; zero clears it.
	SetOpen(ctx context.Context, tool string, until time.Time) error
}

// SQLBreakers keeps open breakers in the database (table tool_breakers).
type SQLBreakers struct{ DB *store.DB }

// OpenUntil implements BreakerStore.
func (s SQLBreakers) OpenUntil(ctx context.Context, tool string) (time.Time, error) {
	var until string
	err := s.DB.QueryRowContext(ctx, `SELECT open_until FROM tool_breakers WHERE tool = ?`, tool).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("read breaker of %s: %w", tool, err)
	}
	t, err := time.Parse(time.RFC3339Nano, until)
	if err != nil {
		return time.Time{}, fmt.Errorf("read breaker of %s: %w", tool, err)
	}
	return t, nil
}

// SetOpen implements BreakerStore.
func (s SQLBreakers) SetOpen(ctx context.Context, tool string, until time.Time) error {
	var err error
	if until.IsZero() {
		_, err = s.DB.ExecContext(ctx, `DELETE FROM tool_breakers WHERE tool = ?`, tool)
	} else {
		_, err = s.DB.ExecContext(ctx, `INSERT INTO tool_breakers(tool, open_until) VALUES (?, ?)
			ON CONFLICT(tool) DO UPDATE SET open_until = excluded.open_until`, tool, until.UTC().Format(time.RFC3339Nano))
	}
	if err != nil {
		return fmt.Errorf("store breaker of %s: %w", tool, err)
	}
	return nil
}
