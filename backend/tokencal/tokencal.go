// Package tokencal keeps, per model, how far the prompt builder's token estimate
// is from what the server counts, and corrects it: an exponential moving average
// of reported/estimated, stored in SQLite so every process and restart shares it.
package tokencal

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sync"
)

// maxFullRatio bounds the ratio a full context sets: past it the estimate is
// not wrong, the prompt is (a model that counts 4 tokens a character).
const maxFullRatio = 4.0

// Calibration corrects the estimate per model with the prompt token counts the server
// reports, as an exponential moving average of reported/estimated.
type Calibration struct {
	db *sql.DB
	mu sync.Mutex
	// ratios caches the stored ratios.
	ratios map[string]float64
}

// New keeps calibration in the database.
func New(db *sql.DB) *Calibration {
	return &Calibration{db: db, ratios: map[string]float64{}}
}

// Ratio is the multiplier for a model's estimates (1 when unknown).
func (c *Calibration) Ratio(ctx context.Context, model string) float64 {
	if c == nil {
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.ratios[model]; ok {
		return r
	}
	r := 1.0
	if err := c.db.QueryRowContext(ctx, `SELECT ratio FROM token_calibration WHERE model = ?`, model).Scan(&r); err != nil {
		r = 1
	}
	c.ratios[model] = r
	return r
}

// Observe records that a prompt estimated at estimated tokens was counted as
// reported. full says the count filled the context (the server cut the
// prompt): the true count is at least reported, so the ratio rises at once to
// reported/estimated (with a tenth to spare) instead of a fifth of the way.
func (c *Calibration) Observe(ctx context.Context, model string, estimated, reported int, full bool) error {
	if c == nil || estimated <= 0 || reported <= 0 {
		return nil
	}
	sample := math.Max(0.5, math.Min(2.5, float64(reported)/float64(estimated)))
	old := c.Ratio(ctx, model)
	if full {
		sample = math.Min(maxFullRatio, 1.1*float64(reported)/float64(estimated))
		if sample <= old {
			return nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var samples int
	_ = c.db.QueryRowContext(ctx, `SELECT samples FROM token_calibration WHERE model = ?`, model).Scan(&samples)
	next := sample
	if samples > 0 && !full {
		next = 0.8*old + 0.2*sample
	}
	_, err := c.db.ExecContext(ctx, `INSERT INTO token_calibration(model, ratio, samples) VALUES (?, ?, 1)
		ON CONFLICT(model) DO UPDATE SET ratio = excluded.ratio, samples = samples + 1`, model, next)
	if err != nil {
		return fmt.Errorf("store token calibration: %w", err)
	}
	c.ratios[model] = next
	return nil
}
