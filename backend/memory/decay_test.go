package memory

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"
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
	defaultStrength := health.Confidence * math.Exp(-DefaultLambda*240)
	if got := strength(health.ID); math.Abs(got-defaultStrength) > 1e-9 {
		t.Fatalf("default strength = %v, want %v", got, defaultStrength)
	}
	mu.Lock()
	set = map[string]time.Duration{"health": 10 * 24 * time.Hour}
	mu.Unlock()
	if got := strength(health.ID); math.Abs(got-health.Confidence/2) > 1e-9 {
		t.Fatalf("after one half-life of 10d the strength = %v, want %v", got, health.Confidence/2)
	}
	if got := strength(pref.ID); math.Abs(got-pref.Confidence*math.Exp(-DefaultLambda*240)) > 1e-9 {
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
	// The sweep uses the same rule: the default rate archived both facts after
	// 10 days; with health at 10d, only the preference goes.
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
