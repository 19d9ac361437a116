package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"hermes/backend/config"

	"hermes/backend/memory"
	"hermes/backend/memory/decay"
)

// halfLivesKey is the setting that holds the decay half-life per category.
const halfLivesKey = "memory_half_lives"

// MemoryHalfLives lists every memory category's decay half-life as the decay
// code applies it now (set by the user or the default).
func (c *Core) MemoryHalfLives(ctx context.Context) ([]memory.HalfLife, error) {
	return withMemory(c, "list half-lives", func(m *memory.Store) ([]memory.HalfLife, error) { return m.HalfLives(), nil })
}

// SetMemoryHalfLife sets how fast facts of a category fade ("30d", "2w",
// "36h"); an empty halfLife returns the category to the default. It is stored
// in the memory_half_lives setting, which the decay code reads.
func (c *Core) SetMemoryHalfLife(ctx context.Context, category, halfLife string) ([]memory.HalfLife, error) {
	category = strings.ToLower(strings.TrimSpace(category))
	if err := decay.CheckCategory(category); err != nil {
		return nil, halfLifeRefused(err, "")
	}
	var d time.Duration
	if strings.TrimSpace(halfLife) != "" {
		var err error
		if d, err = decay.ParseHalfLife(halfLife); err != nil {
			return nil, halfLifeRefused(err, category)
		}
	}
	// Read, changed and written in one transaction: an edit made at the same
	// moment by another process (the CLI beside the window) is not lost.
	err := c.settings.Update(ctx, halfLivesKey, func(current string) (string, error) {
		set, err := decay.ParseHalfLives(current)
		if err != nil {
			set = map[string]time.Duration{} // the stored text no longer parses: the defaults, as Load reads it
		}
		if d == 0 {
			delete(set, category)
		} else {
			set[category] = d
		}
		return decay.FormatHalfLives(set), nil
	})
	if err != nil {
		return nil, fmt.Errorf("set half-life: %w", err)
	}
	return c.MemoryHalfLives(ctx)
}

// halfLifeRefused is decay's refusal as one of the memory_half_lives setting
// (ErrInvalid of config, with its reason, naming the category when there is
// one), so the UI words it as it words the setting's own refusals.
func halfLifeRefused(err error, category string) error {
	var r *decay.Refusal
	if !errors.As(err, &r) {
		return fmt.Errorf("set half-life: %w: %v", memory.ErrInvalid, err)
	}
	params := maps.Clone(r.Params)
	if category != "" {
		params["category"] = category
	}
	return config.Refuse(halfLivesKey, r.Reason, params, "%s", r)
}

// MemoryRecallLog is every candidate the recall for a message considered:
// those offered to the model, then those dropped, each with its scores and why.
func (c *Core) MemoryRecallLog(ctx context.Context, messageID string) ([]memory.RecallCandidate, error) {
	all, err := withMemory(c, "recall log", func(m *memory.Store) ([]memory.RecallCandidate, error) {
		return m.RecallCandidates(ctx, messageID)
	})
	// A continued turn recalls again for the same message: the newest recall counts.
	var newest time.Time
	for _, rc := range all {
		if rc.At.After(newest) {
			newest = rc.At
		}
	}
	var out []memory.RecallCandidate
	for _, rc := range all {
		if rc.At.Equal(newest) {
			out = append(out, rc)
		}
	}
	return out, err
}

// MemoryUndoable says whether the chat notice's Undo (idList: what the turn
// wrote) can still work, until when, and if not, why: the window shows Undo only
// while it can.
func (a *MemoryService) MemoryUndoable(idList []string) (memory.UndoState, error) {
	if err := needIDs(idList); err != nil {
		return memory.UndoState{}, err
	}
	st, err := withMemory(a.core, "check undo", func(m *memory.Store) (memory.UndoState, error) {
		return m.Undoable(context.Background(), idList...)
	})
	return st, memErr(err)
}

// MemoryHalfLives lists each category's decay half-life.
func (a *MemoryService) MemoryHalfLives() ([]memory.HalfLife, error) {
	l, err := a.core.MemoryHalfLives(context.Background())
	return l, memErr(err)
}

// SetMemoryHalfLife sets a category's half-life ("" for the default) and
// returns them all.
func (a *MemoryService) SetMemoryHalfLife(category, halfLife string) ([]memory.HalfLife, error) {
	l, err := a.core.SetMemoryHalfLife(context.Background(), category, halfLife)
	if errors.Is(err, config.ErrInvalid) { // worded as the setting's refusals are
		return nil, userError(err, "", "")
	}
	return l, memErr(err)
}

// MemoryRecallLog lists what the recall for a message considered: kept and
// dropped candidates with their scores and reasons.
func (a *MemoryService) MemoryRecallLog(messageID string) ([]memory.RecallCandidate, error) {
	l, err := a.core.MemoryRecallLog(context.Background(), messageID)
	if l == nil {
		l = []memory.RecallCandidate{}
	}
	return l, memErr(err)
}
