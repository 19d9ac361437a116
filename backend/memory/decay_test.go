package memory

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/memory/decay"
)

// The half-life set for a category is what the decay code uses: listing,
// recall's threshold and the sweep all follow a change at once, other
// categories keep the default, and profile-layer facts never decay.
func TestHalfLifePerCategory(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	set := map[string]time.Duration{}
	e := newEnv(t, func(c *Config) {
		c.HalfLives = func() map[string]time.Duration { mu.Lock(); defer mu.Unlock(); return set }
	})
	health := e.add("I am allergic to penicillin", func(in *AddInput) { in.Category = "health" })
	pref := e.add("I like green tea", func(in *AddInput) { in.Category = "preference" })
	prof := e.add("My blood type is O negative", func(in *AddInput) { in.Category = "health" })
	if err := e.s.Promote(ctx, prof.ID); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(10 * 24 * time.Hour)
	strength := func(id string) float64 {
		t.Helper()
		m, err := e.s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return m.Strength
	}
	defaultStrength := health.Confidence * math.Exp(-decay.Lambda(decay.DefaultHalfLifeOf("health"))*240)
	if got := strength(health.ID); math.Abs(got-defaultStrength) > 1e-9 {
		t.Fatalf("default strength = %v, want %v", got, defaultStrength)
	}
	mu.Lock()
	set = map[string]time.Duration{"health": 10 * 24 * time.Hour}
	mu.Unlock()
	if got := strength(health.ID); math.Abs(got-health.Confidence/2) > 1e-9 {
		t.Fatalf("after one half-life of 10d the strength = %v, want %v", got, health.Confidence/2)
	}
	if got := strength(pref.ID); math.Abs(got-pref.Confidence*math.Exp(-decay.Lambda(decay.DefaultHalfLifeOf("preference"))*240)) > 1e-9 {
		t.Fatalf("another category changed: %v", got)
	}
	if got := strength(prof.ID); got != 1 {
		t.Fatalf("a profile fact decayed: %v", got)
	}
	hl := e.s.HalfLives()
	for _, h := range hl {
		if (h.Category == "health") != h.Custom || (h.Category == "health" && h.HalfLife != "10d") {
			t.Fatalf("HalfLives = %+v", hl)
		}
	}
	// The sweep uses the same rule: by the defaults neither fact is archived
	// after 10 days; with preference at 2d (five half-lives) it goes, and health
	// at 10d (one) stays.
	mu.Lock()
	set = map[string]time.Duration{"health": 10 * 24 * time.Hour, "preference": 2 * 24 * time.Hour}
	mu.Unlock()
	n, err := e.s.Sweep(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v", n, err)
	}
	if m, _ := e.s.Get(ctx, pref.ID); m.Status != StatusArchived {
		t.Fatalf("preference = %s", m.Status)
	}
	if m, _ := e.s.Get(ctx, health.ID); m.Status != StatusActive {
		t.Fatalf("health = %s", m.Status)
	}
	if rs := e.recall(Query{Text: "penicillin allergy"}); !hasText(rs, "I am allergic to penicillin") {
		t.Fatalf("recall did not offer the slower-decaying fact: %v", texts(rs))
	}
}

func hasText(rs []Recalled, text string) bool {
	for _, r := range rs {
		if r.Memory.Text == text {
			return true
		}
	}
	return false
}

// The defaults keep what lasts and let what passes go: an allergy stated a
// month ago is still recalled, an appointment stated a week ago is archived,
// and a question that names the appointment still finds it, marked as old,
// while a question about something else does not bring it back.
func TestDefaultDecay(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	allergy := e.add("I am allergic to peanuts", func(in *AddInput) { in.Category = "health" })
	dentist := e.add("I have a dentist appointment on Friday at 3 pm", func(in *AddInput) { in.Category = "schedule" })
	e.add("I like hiking in the Alps", func(in *AddInput) { in.Category = "preference" })

	e.clock.Advance(7 * 24 * time.Hour)
	if n, err := e.s.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("Sweep after 7 days = %d, %v; want the appointment archived", n, err)
	}
	if m, _ := e.s.Get(ctx, dentist.ID); m.Status != StatusArchived {
		t.Fatalf("the appointment after 7 days is %s", m.Status)
	}
	e.clock.Advance(23 * 24 * time.Hour) // 30 days in all
	if n, err := e.s.Sweep(ctx); err != nil || n != 0 {
		t.Fatalf("Sweep after 30 days = %d, %v; want nothing more archived", n, err)
	}
	rs := e.recall(Query{Text: "what am I allergic to?"})
	if len(rs) == 0 || rs[0].Memory.ID != allergy.ID || strings.Contains(rs[0].Source, "archived") {
		t.Fatalf("after 30 days the allergy is not recalled as a current fact: %v", texts(rs))
	}
	old := e.recall(Query{Text: "when was my dentist appointment?"})
	if len(old) != 1 || old[0].Memory.ID != dentist.ID || !strings.Contains(old[0].Prompt, "archived, may be out of date") {
		t.Fatalf("a direct question about the archived appointment: %+v", old)
	}
	if rs := e.recall(Query{Text: "any plans for Friday evening drinks?"}); hasID(rs, dentist.ID) {
		t.Errorf("the archived appointment came back for a question that does not name it: %v", texts(rs))
	}
	hl := map[string]HalfLife{}
	for _, h := range e.s.HalfLives() {
		hl[h.Category] = h
	}
	if hl["health"].HalfLife != "180d" || hl["schedule"].HalfLife != "2d" || hl["schedule"].ArchivedAfter == "" || hl["identity"].ArchivedAfter == "" {
		t.Errorf("HalfLives = %+v", hl)
	}
}

func hasID(rs []Recalled, id string) bool {
	for _, r := range rs {
		if r.Memory.ID == id {
			return true
		}
	}
	return false
}
