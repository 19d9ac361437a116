package memory

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"hermes/backend/memory/decay"
)

// Decay: a fact's strength is confidence × e^(−λ·hours since last confirmed), with
// λ per category. Below Config.ArchiveBelow it is archived: not offered, still
// browsable and restorable. Restating or confirming reinforces it. Working and
// profile memories do not decay.

// reinforceStep is how much a restatement or confirmation adds to confidence.
const reinforceStep = 0.1

// lambda is the decay rate per hour of a category: the half-life the user set
// for it (Config.HalfLives, read at each use so a changed setting applies at
// once), else Config.Lambda's rate, else the category's default half-life
// (decay.DefaultHalfLifeOf).
func (s *Store) lambda(category string) float64 {
	if s.cfg.HalfLives != nil {
		if hl, ok := s.cfg.HalfLives()[category]; ok && hl > 0 {
			return decay.Lambda(hl)
		}
	}
	if l, ok := s.cfg.Lambda[category]; ok && l >= 0 {
		return l
	}
	return decay.Lambda(decay.DefaultHalfLifeOf(category))
}

// TypicalConfidence is the confidence of a fact the user stated plainly (the
// extractor's usual figure), by which the Decay tab says when a category's
// facts are archived.
const TypicalConfidence = 0.9

// HalfLife is one category's decay as the user sees it.
type HalfLife struct {
	Category string `json:"category"`
	// HalfLife is how long until a fact of the category not restated or
	// confirmed is half as strong ("30d", "34h39m").
	HalfLife string  `json:"half_life"`
	Hours    float64 `json:"hours"`
	// ArchivedAfter is how long a fact of the category stated with typical
	// confidence (TypicalConfidence) and never restated keeps before it is
	// archived ("" for one that never fades).
	ArchivedAfter string `json:"archived_after,omitempty"`
	// Custom is true when the user set it; false is the default.
	Custom bool `json:"custom"`
}

// HalfLives lists every category's half-life as the decay code applies it now.
func (s *Store) HalfLives() []HalfLife {
	var set map[string]time.Duration
	if s.cfg.HalfLives != nil {
		set = s.cfg.HalfLives()
	}
	var out []HalfLife
	for _, c := range decay.Categories() {
		_, custom := set[c]
		hours := math.Ln2 / s.lambda(c)
		if math.IsInf(hours, 0) {
			hours = 0 // a rate of 0 never decays
		}
		d := time.Duration(hours * float64(time.Hour))
		h := HalfLife{Category: c, HalfLife: decay.Format(d), Hours: hours, Custom: custom && set[c] > 0}
		if hours > 0 && TypicalConfidence > s.cfg.ArchiveBelow {
			keep := hours * math.Log2(TypicalConfidence/s.cfg.ArchiveBelow)
			d, unit := time.Duration(keep*float64(time.Hour)), time.Hour
			if d >= 48*time.Hour {
				unit = 24 * time.Hour // whole days: "190d", not "4565h"
			}
			h.ArchivedAfter = decay.Format(d.Round(unit))
		}
		out = append(out, h)
	}
	return out
}

// strength is m's confidence decayed to now.
func (s *Store) strength(m Memory, now time.Time) float64 {
	if m.Layer != LayerFact {
		return m.Confidence
	}
	h := now.Sub(m.LastConfirmedAt).Hours()
	if h < 0 {
		h = 0
	}
	return m.Confidence * math.Exp(-s.lambda(m.Category)*h)
}

func (s *Store) withStrength(m Memory, now time.Time) Memory {
	m.Strength = s.strength(m, now)
	return m
}

// reinforced is the confidence after a restatement: the decayed strength is
// forgotten (the clock restarts) and the confidence grows a step.
func reinforced(confidence float64) float64 {
	return math.Min(1, confidence+reinforceStep)
}

// Sweep archives the active facts whose strength fell below the threshold and
// returns how many. The worker runs it periodically; recall never offers a fact
// below the threshold even before it is swept.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	now := s.now()
	rows, err := s.db.QueryContext(ctx, `SELECT rid, id, profile, category, confidence, last_confirmed_at FROM memories
		WHERE status = 'active' AND layer = 'fact'`)
	if err != nil {
		return 0, fmt.Errorf("sweep memories: %w", err)
	}
	type weak struct {
		rid     int64
		id      string
		profile string
	}
	var out []weak
	for rows.Next() {
		var m Memory
		var w weak
		var confirmed string
		if err := rows.Scan(&w.rid, &w.id, &w.profile, &m.Category, &m.Confidence, &confirmed); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sweep memories: %w", err)
		}
		m.Layer, m.LastConfirmedAt = LayerFact, parseTS(confirmed)
		if s.strength(m, now) < s.cfg.ArchiveBelow {
			out = append(out, w)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sweep memories: %w", err)
	}
	if len(out) == 0 {
		return 0, nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	byProfile := map[string][]string{}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, w := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE memories SET status = 'archived', updated_at = ? WHERE rid = ? AND status = 'active'`, ts(now), w.rid); err != nil {
				return err
			}
			if err := ftsDelete(ctx, tx, w.rid); err != nil {
				return err
			}
			byProfile[w.profile] = append(byProfile[w.profile], w.id)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sweep memories: %w", err)
	}
	_, idx := s.current()
	for p, ids := range byProfile {
		idx.remove(ctx, p, ids...)
		s.emit(Change{Kind: "archived", IDs: ids, Profile: p})
	}
	return len(out), nil
}
