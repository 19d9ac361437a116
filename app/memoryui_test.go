package app

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"hermes/backend/memory"
)

// A half-life set for a category is what the real decay path uses: the memory
// list's strength follows the setting, bad input is refused, and the setting
// command sees the same value.
func TestMemoryHalfLifeSettingDrivesDecay(t *testing.T) {
	a, core, _, _, _ := rememberPeanuts(t)
	list, err := a.Memory.MemoryList(MemoryFilter{Statuses: []string{"active"}})
	if err != nil || len(list) != 1 {
		t.Fatalf("memories = %+v, %v", list, err)
	}
	m := list[0]
	// Make it ten days old (as a real clock would after ten days).
	old := time.Now().Add(-240 * time.Hour).UTC().Format(time.RFC3339Nano)
	if _, err := core.db.ExecContext(context.Background(), `UPDATE memories SET last_confirmed_at = ? WHERE id = ?`, old, m.ID); err != nil {
		t.Fatal(err)
	}
	strength := func() float64 {
		t.Helper()
		d, err := a.Memory.MemoryShow(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		return d.Memory.Strength
	}
	before := strength()
	// A health fact keeps for months by default (a 180-day half-life).
	if want := m.Confidence * math.Exp(-math.Ln2/(180*24)*240); math.Abs(before-want) > 1e-3 {
		t.Fatalf("default strength = %v, want %v", before, want)
	}
	hl, err := a.Memory.SetMemoryHalfLife(m.Category, "10d")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range hl {
		if h.Category == m.Category {
			found = h.Custom && h.HalfLife == "10d"
		}
	}
	if !found {
		t.Fatalf("half-lives = %+v", hl)
	}
	if after := strength(); math.Abs(after-m.Confidence/2) > 1e-3 {
		t.Fatalf("strength after a 10d half-life = %v, want %v (was %v)", after, m.Confidence/2, before)
	}
	if v, _ := core.Setting(context.Background(), "memory_half_lives"); v != m.Category+"=10d" {
		t.Fatalf("setting = %q", v)
	}
	for _, bad := range [][2]string{{"mood", "3d"}, {m.Category, "soon"}, {m.Category, "5m"}} {
		if _, err := a.Memory.SetMemoryHalfLife(bad[0], bad[1]); err == nil {
			t.Errorf("SetMemoryHalfLife(%q, %q) accepted", bad[0], bad[1])
		}
	}
	if _, err := a.Memory.SetMemoryHalfLife(m.Category, ""); err != nil {
		t.Fatal(err)
	}
	if after := strength(); math.Abs(after-before) > 1e-3 {
		t.Fatalf("reset to default: %v, want %v", after, before)
	}
}

// The recall log answers for every candidate: the kept ones and those dropped,
// each with its scores and why.
func TestMemoryRecallLogShowsDropped(t *testing.T) {
	a, _, _, _, _ := rememberPeanuts(t)
	for _, s := range []string{"My sister lives in Lisbon", "I drive a blue bicycle to work", "My favourite tea is jasmine", "I am allergic to cats as well"} {
		if _, err := a.Memory.MemoryAdd(s); err != nil {
			t.Fatal(err)
		}
	}
	res, err := a.Chat.SendMessage("r2", "", "what am I allergic to?")
	if err != nil {
		t.Fatal(err)
	}
	log, err := a.Memory.MemoryRecallLog(res.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	var kept, dropped int
	for _, c := range log {
		if c.Kept {
			kept++
			if !strings.HasPrefix(c.Reason, "kept: ") {
				t.Errorf("kept without a reason: %+v", c)
			}
		} else {
			dropped++
			if !strings.HasPrefix(c.Reason, "dropped: ") {
				t.Errorf("dropped without a reason: %+v", c)
			}
		}
	}
	if kept == 0 || dropped == 0 {
		t.Fatalf("kept %d, dropped %d: %+v", kept, dropped, log)
	}
	if log, err := a.Memory.MemoryRecallLog("nope"); err != nil || len(log) != 0 {
		t.Fatalf("unknown message = %+v, %v", log, err)
	}
}

// The chat notice's Undo is offered while it works; once the memory it would
// take back is gone, the check and the undo itself say why.
func TestMemoryUndoableFromTheWindow(t *testing.T) {
	a, _, _, _, _ := rememberPeanuts(t)
	list, _ := a.Memory.MemoryList(MemoryFilter{Statuses: []string{"active"}})
	ids := []string{list[0].ID}
	st, err := a.Memory.MemoryUndoable(ids)
	if err != nil || !st.OK || st.Until.IsZero() {
		t.Fatalf("fresh = %+v, %v", st, err)
	}
	if err := a.Memory.CreateMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.UseMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	st, err = a.Memory.MemoryUndoable(ids)
	if err != nil || st.OK || st.Code != "profile" {
		t.Fatalf("after a switch = %+v, %v", st, err)
	}
	if _, err := a.Memory.MemoryUndo(ids); err == nil || !strings.Contains(err.Error(), "Undo is no longer possible (it wrote into profile personal and work is active now; switch back to undo)") {
		t.Fatalf("undo after a switch = %v", err)
	}
	if l, _ := a.Memory.MemoryList(MemoryFilter{Profile: "personal"}); len(l) != 1 {
		t.Fatalf("a refused undo erased: %+v", l)
	}
}

// The window's editor sends the key and value beside the text: a changed one is
// set, one left as it was is kept, and a value the new text no longer says goes.
func TestMemoryEditorEditsKeyAndValue(t *testing.T) {
	a, c, _, _, _ := rememberPeanuts(t)
	ms, err := c.memoryStore()
	if err != nil {
		t.Fatal(err)
	}
	m, err := ms.Add(context.Background(), memory.AddInput{Text: "I live in Paris", Key: "home_city", Value: "Paris", Category: "location"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Memory.MemoryEdit(m.ID, "I live in Porto", "home_city", "Paris")
	if err != nil || got.Text != "I live in Porto" || got.Key != "home_city" || got.Value != "" {
		t.Fatalf("text only: %+v %v: want the key kept and Paris dropped", got, err)
	}
	got, err = a.Memory.MemoryEdit(m.ID, "I live in Porto", "city", "Porto")
	if err != nil || got.Key != "city" || got.Value != "Porto" {
		t.Fatalf("key and value: %+v %v", got, err)
	}
	got, err = a.Memory.MemoryEdit(m.ID, "My home is Porto, Portugal", "city", "Porto")
	if err != nil || got.Value != "Porto" {
		t.Fatalf("a value the new text still says stays: %+v %v", got, err)
	}
}
