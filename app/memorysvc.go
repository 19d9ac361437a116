package app

import (
	"context"
	"fmt"
	"io"

	"hermes/backend/memory"
)

// DefaultMemoryProfile is the profile every install has: it can be emptied, not deleted.
const DefaultMemoryProfile = memory.DefaultProfile

// Memory types as the command line and the window show them (plain data with
// JSON tags; the CLI's --json output is theirs).
type (
	// Memory is one remembered item: text, layer, status, strength, sources.
	Memory = memory.Memory
	// MemoryDetail is a memory with its history.
	MemoryDetail = memory.Detail
	// MemoryEdit is a correction: the text, and the key and value when set.
	MemoryEdit = memory.Edit
	// MemoryHit is a memory ranked for a query.
	MemoryHit = memory.Hit
	// MemoryReceipt says what an erasure removed.
	MemoryReceipt = memory.Receipt
	// MemoryImportResult counts what an import did.
	MemoryImportResult = memory.ImportResult
	// MemoryProfile is a profile with its memory count, the active one marked.
	MemoryProfile = memory.ProfileInfo
	// MemoryRecallCandidate is one candidate a recall considered, kept or dropped.
	MemoryRecallCandidate = memory.RecallCandidate
	// MemoryHalfLife is a category's decay half-life.
	MemoryHalfLife = memory.HalfLife
	// MemoryUndoState says whether an undo can still work, and why not.
	MemoryUndoState = memory.UndoState
)

// TypicalConfidence is the confidence by which a category's "archived after" is
// worked out (memory.TypicalConfidence).
const TypicalConfidence = memory.TypicalConfidence

// withMemory runs fn on long-term memory, opened on first use.
func withMemory[T any](c *Core, op string, fn func(*memory.Store) (T, error)) (T, error) {
	m, err := c.memoryStore()
	if err != nil {
		var zero T
		return zero, memoryUnavailable(op, err)
	}
	return fn(m)
}

// memoryUnavailable is the error of every memory operation when long-term
// memory cannot be opened.
func memoryUnavailable(op string, err error) error {
	return &UserError{Message: "Memory is not available: " + err.Error(), Err: fmt.Errorf("%s: %w", op, err)}
}

// AddMemory stores text the user asked to remember.
func (c *Core) AddMemory(ctx context.Context, text string) (Memory, error) {
	return withMemory(c, "add memory", func(m *memory.Store) (Memory, error) {
		return m.Add(ctx, memory.AddInput{Text: text})
	})
}

// ListMemories lists memories matching f.
func (c *Core) ListMemories(ctx context.Context, f MemoryFilter) ([]Memory, error) {
	mf := memory.Filter{Profile: f.Profile, Layer: memory.Layer(f.Layer), Category: f.Category, MinConfidence: f.MinConfidence,
		Text: f.Text, SessionID: f.SessionID, Limit: f.Limit, Offset: f.Offset}
	for _, s := range f.Statuses {
		mf.Statuses = append(mf.Statuses, memory.Status(s))
	}
	return withMemory(c, "list memories", func(m *memory.Store) ([]Memory, error) { return m.List(ctx, mf) })
}

// GetMemory returns one memory by id or ref.
func (c *Core) GetMemory(ctx context.Context, id string) (Memory, error) {
	return withMemory(c, "get memory", func(m *memory.Store) (Memory, error) { return m.Get(ctx, id) })
}

// ShowMemory returns a memory with its history and sources.
func (c *Core) ShowMemory(ctx context.Context, id string) (MemoryDetail, error) {
	return withMemory(c, "show memory", func(m *memory.Store) (MemoryDetail, error) { return m.Show(ctx, id) })
}

// EditMemory corrects a memory's text, and its key and value where e sets them
// (nil: kept, or a value the new text no longer says is dropped); the old
// version stays in its history.
func (c *Core) EditMemory(ctx context.Context, id string, e MemoryEdit) (Memory, error) {
	return withMemory(c, "edit memory", func(m *memory.Store) (Memory, error) {
		return m.Edit(ctx, id, e)
	})
}

// ConfirmMemories says memories are true: facts join the profile layer (no
// decay, always offered); it returns them as they are now.
func (c *Core) ConfirmMemories(ctx context.Context, ids ...string) ([]Memory, error) {
	return withMemory(c, "confirm memory", func(m *memory.Store) ([]Memory, error) {
		if err := m.Confirm(ctx, ids...); err != nil {
			return nil, err
		}
		out := make([]Memory, 0, len(ids))
		for _, id := range ids {
			mm, err := m.Get(ctx, id)
			if err != nil {
				return out, err
			}
			out = append(out, mm)
		}
		return out, nil
	})
}

// ForgetMatches lists what forgetting by query would erase: every match, best
// first, or the first limit of them when limit > 0.
func (c *Core) ForgetMatches(ctx context.Context, query string, limit int) ([]MemoryHit, error) {
	return withMemory(c, "forget", func(m *memory.Store) ([]MemoryHit, error) { return m.ForgetMatches(ctx, "", query, limit) })
}

// ForgetMemories erases memories for good and returns the receipt. More than
// a hundred are a bulk erasure, recorded before it starts: one a crash
// interrupts is finished when Hermes next opens the data dir, under the same
// receipt.
func (c *Core) ForgetMemories(ctx context.Context, ids ...string) (MemoryReceipt, error) {
	return withMemory(c, "forget", func(m *memory.Store) (MemoryReceipt, error) { return m.Forget(ctx, ids...) })
}

// SearchMemories ranks memories of the active profile for a query (never nil).
func (c *Core) SearchMemories(ctx context.Context, query string, k int) ([]MemoryHit, error) {
	return withMemory(c, "search memories", func(m *memory.Store) ([]MemoryHit, error) {
		hits, err := m.Search(ctx, "", query, k)
		if hits == nil {
			hits = []MemoryHit{}
		}
		return hits, err
	})
}

// ImportMemories reads an export or JSONL lines; mode is skip, merge or replace;
// progress hears how far it got (it may be nil).
func (c *Core) ImportMemories(ctx context.Context, r io.Reader, mode string, progress func(done, total int)) (MemoryImportResult, error) {
	opt := memory.ImportOptions{Mode: memory.ImportMode(mode)}
	if progress != nil {
		opt.Progress = func(p memory.Progress) { progress(p.Done, p.Total) }
	}
	return withMemory(c, "import memories", func(m *memory.Store) (MemoryImportResult, error) { return m.Import(ctx, r, opt) })
}

// ExportMemories writes every memory to w in the format ImportMemories reads.
func (c *Core) ExportMemories(ctx context.Context, w io.Writer) error {
	_, err := withMemory(c, "export memories", func(m *memory.Store) (struct{}, error) { return struct{}{}, m.Export(ctx, w, "") })
	return err
}
