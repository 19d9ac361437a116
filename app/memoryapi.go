package app

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"hermes/backend/memory"
)

// MemoryService is what the assistant remembers as the window and web mode
// call it (the Memory panel, profiles, half-lives, the recall log): one bound
// service of its own beside App.
//
//bindgen:bound
type MemoryService struct {
	core *Core
}

func (a *MemoryService) mem() (*memory.Store, error) {
	m, err := a.core.memoryStore()
	if err != nil {
		return nil, memoryUnavailable("open memory", err)
	}
	return m, nil
}

func memErr(err error) error {
	if err == nil {
		return nil
	}
	var ue *UserError
	if errors.As(err, &ue) {
		return err
	}
	msg := err.Error()
	switch {
	case errors.Is(err, memory.ErrNotFound):
		msg = "That memory no longer exists."
	case errors.Is(err, memory.ErrInvalid), errors.Is(err, memory.ErrConflict):
		if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
			msg = strings.ToUpper(msg[i+2:i+3]) + msg[i+3:]
		}
	}
	return &UserError{Message: msg, Err: err}
}

// needIDs refuses an empty list of memory ids.
func needIDs(list []string) error {
	if len(list) == 0 {
		return &UserError{Message: "Give at least one memory id."}
	}
	return nil
}

// MemoryFilter is what the memory browser filters by.
type MemoryFilter struct {
	Profile       string   `json:"profile"`
	Layer         string   `json:"layer"`
	Statuses      []string `json:"statuses"`
	Category      string   `json:"category"`
	MinConfidence float64  `json:"minConfidence"`
	Text          string   `json:"text"`
	SessionID     string   `json:"sessionId"`
	Limit         int      `json:"limit"`
	Offset        int      `json:"offset"`
}

// MemoryList lists the memories f lets through (its zero value: every one).
func (a *MemoryService) MemoryList(f MemoryFilter) ([]memory.Memory, error) {
	list, err := a.core.ListMemories(context.Background(), f)
	if list == nil {
		list = []memory.Memory{}
	}
	return list, memErr(err)
}

// MemoryShow returns a memory with its history, sources and what it replaced.
func (a *MemoryService) MemoryShow(id string) (memory.Detail, error) {
	d, err := a.core.ShowMemory(context.Background(), id)
	return d, memErr(err)
}

// MemorySearch ranks memories for a query (the browser's search box).
func (a *MemoryService) MemorySearch(query string, k int) ([]memory.Hit, error) {
	hits, err := a.core.SearchMemories(context.Background(), query, k)
	return hits, memErr(err)
}

// MemoryAdd stores what the user typed, as an explicit request to remember.
func (a *MemoryService) MemoryAdd(text string) (memory.Memory, error) {
	mm, err := a.core.AddMemory(context.Background(), text)
	return mm, memErr(err)
}

// MemoryEdit corrects a memory's text, key and value as the editor shows them;
// the old version is kept in its history. A key or value left as it was is not
// set, so a value the new text no longer says is dropped (memory.Store.Edit).
func (a *MemoryService) MemoryEdit(id, text, key, value string) (memory.Memory, error) {
	ctx := context.Background()
	cur, err := a.core.GetMemory(ctx, id)
	if err != nil {
		return memory.Memory{}, memErr(err)
	}
	e := MemoryEdit{Text: text}
	if key != cur.Key {
		e.Key = &key
	}
	if value != cur.Value {
		e.Value = &value
	}
	mm, err := a.core.EditMemory(ctx, id, e)
	return mm, memErr(err)
}

// MemoryForget erases memories for good and returns the receipt.
func (a *MemoryService) MemoryForget(idList []string) (memory.Receipt, error) {
	if err := needIDs(idList); err != nil {
		return memory.Receipt{}, err
	}
	r, err := a.core.ForgetMemories(context.Background(), idList...)
	return r, memErr(err)
}

// MemoryForgetMatches shows what forgetting by a query would erase, every match
// (confirm with MemoryForget).
func (a *MemoryService) MemoryForgetMatches(query string) ([]memory.Hit, error) {
	hits, err := a.core.ForgetMatches(context.Background(), query, 0)
	if hits == nil {
		hits = []memory.Hit{}
	}
	return hits, memErr(err)
}

// MemoryApprove activates pending memories.
func (a *MemoryService) MemoryApprove(idList []string) error {
	return a.memDo(idList, func(m *memory.Store, ids []string) error { return m.Approve(context.Background(), ids...) })
}

// MemoryRestore brings archived memories back.
func (a *MemoryService) MemoryRestore(idList []string) error {
	return a.memDo(idList, func(m *memory.Store, ids []string) error { return m.Restore(context.Background(), ids...) })
}

// MemoryConfirm says memories are true: a fact joins the profile layer (no
// decay, always offered); a working memory is reinforced.
func (a *MemoryService) MemoryConfirm(idList []string) error {
	if err := needIDs(idList); err != nil {
		return err
	}
	_, err := a.core.ConfirmMemories(context.Background(), idList...)
	return memErr(err)
}

// MemoryReject erases pending memories.
func (a *MemoryService) MemoryReject(idList []string) (memory.Receipt, error) {
	return a.memReceipt(idList, func(m *memory.Store, ids []string) (memory.Receipt, error) {
		return m.Reject(context.Background(), ids...)
	})
}

// MemoryUndo erases what a turn wrote and brings back what it replaced.
func (a *MemoryService) MemoryUndo(idList []string) (memory.Receipt, error) {
	return a.memReceipt(idList, func(m *memory.Store, ids []string) (memory.Receipt, error) {
		return m.Undo(context.Background(), ids...)
	})
}

// MemoryTombstones lists what was erased (ids, times and counts; no content).
func (a *MemoryService) MemoryTombstones() ([]memory.Tombstone, error) {
	m, err := a.mem()
	if err != nil {
		return nil, err
	}
	t, err := m.Tombstones(context.Background(), 200)
	if t == nil {
		t = []memory.Tombstone{}
	}
	return t, memErr(err)
}

// MemoryExport returns every memory as versioned JSON with provenance.
func (a *MemoryService) MemoryExport() (string, error) {
	var b bytes.Buffer
	if err := a.core.ExportMemories(context.Background(), &b); err != nil {
		return "", memErr(err)
	}
	return b.String(), nil
}

// MemoryImport reads an export or JSONL lines (the format is recognised; kind,
// "export" or "jsonl", is what the user chose and is no longer needed); mode is
// skip, merge or replace.
func (a *MemoryService) MemoryImport(content, kind string, mode memory.ImportMode) (memory.ImportResult, error) {
	res, err := a.core.ImportMemories(context.Background(), strings.NewReader(content), string(mode), nil)
	return res, memErr(err)
}

// WhyRecalled says which memories were offered to the model for a message.
func (a *MemoryService) WhyRecalled(messageID string) ([]memory.RecallEntry, error) {
	m, err := a.mem()
	if err != nil {
		return nil, err
	}
	r, err := m.WhyRecalled(context.Background(), messageID)
	if r == nil {
		r = []memory.RecallEntry{}
	}
	return r, memErr(err)
}

func (a *MemoryService) memDo(idList []string, fn func(*memory.Store, []string) error) error {
	if err := needIDs(idList); err != nil {
		return err
	}
	m, err := a.mem()
	if err != nil {
		return err
	}
	return memErr(fn(m, idList))
}

func (a *MemoryService) memReceipt(idList []string, fn func(*memory.Store, []string) (memory.Receipt, error)) (memory.Receipt, error) {
	if err := needIDs(idList); err != nil {
		return memory.Receipt{}, err
	}
	m, err := a.mem()
	if err != nil {
		return memory.Receipt{}, err
	}
	r, err := fn(m, idList)
	return r, memErr(err)
}
