package memory

import (
	"context"
	"errors"
	"testing"
)

func TestAddListShowEdit(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, fastDecay) // 50 hours must take strength below 0.5
	a := e.add("I am vegan", func(in *AddInput) { in.Category = "preference" })
	e.add("I work at Acme", func(in *AddInput) { in.Profile = "work"; in.Category = "work" })
	e.add("My card is 4111 1111 1111 1111")
	e.add("I am in a call", func(in *AddInput) { in.Layer = LayerWorking; in.SessionID = "s1" })
	e.clock.Advance(50 * 3600e9)

	cases := []struct {
		name string
		f    Filter
		want int
	}{
		{"all", Filter{}, 4},
		{"profile", Filter{Profile: "work"}, 1},
		{"layer", Filter{Layer: LayerWorking}, 1},
		{"status", Filter{Statuses: []Status{StatusPending}}, 1},
		{"category", Filter{Category: "preference"}, 1},
		{"min strength drops decayed facts", Filter{MinConfidence: 0.5}, 1}, // the working memory does not decay
		{"text", Filter{Text: "VEGAN"}, 1},
		{"session", Filter{SessionID: "s1"}, 1},
		{"limit", Filter{Limit: 2}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if ms := e.list(tc.f); len(ms) != tc.want {
				t.Errorf("List(%+v) = %v; want %d", tc.f, texts2(ms), tc.want)
			}
		})
	}
	t.Run("edit keeps history", func(t *testing.T) {
		cat := "health"
		m, err := e.s.Edit(ctx, a.ID, Edit{Text: "I am vegan since 2019", Category: &cat})
		if err != nil || m.Text != "I am vegan since 2019" || m.Category != "health" || m.Strength != 1 {
			t.Fatalf("Edit = %+v, %v", m, err)
		}
		d, _ := e.s.Show(ctx, a.ID)
		if len(d.History) != 1 || d.History[0].Text != "I am vegan" || d.History[0].Category != "preference" {
			t.Fatalf("history = %+v", d.History)
		}
		if rs := e.recall(Query{Text: "since when am I vegan?"}); len(rs) != 1 || rs[0].Memory.Text != "I am vegan since 2019" {
			t.Fatalf("recall after edit = %v", texts(rs))
		}
		if _, err := e.s.Edit(ctx, "nope", Edit{Text: "x"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("edit unknown: %v", err)
		}
	})
	t.Run("reject erases a pending memory", func(t *testing.T) {
		p := e.list(Filter{Statuses: []Status{StatusPending}})[0]
		if _, err := e.s.Reject(ctx, a.ID); !errors.Is(err, ErrConflict) {
			t.Fatalf("rejecting an active memory: %v", err)
		}
		r, err := e.s.Reject(ctx, p.ID)
		if err != nil || r.Count != 1 {
			t.Fatalf("Reject = %+v, %v", r, err)
		}
		if _, err := e.s.Get(ctx, p.ID); !errors.Is(err, ErrNotFound) {
			t.Fatal("rejected memory kept")
		}
	})
	t.Run("promote to profile", func(t *testing.T) {
		if err := e.s.Promote(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if rs := e.recall(Query{Text: "anything"}); len(rs) != 1 || !rs[0].Always {
			t.Fatalf("profile memory not always offered: %v", texts(rs))
		}
	})
	t.Run("bad input", func(t *testing.T) {
		for _, in := range []AddInput{{Text: ""}, {Text: "x", Layer: "dream"}, {Text: "x", Layer: LayerWorking}, {Text: "x", Category: "misc"}, {Text: "x", Profile: "bad name!"}} {
			if _, err := e.s.Add(ctx, in); !errors.Is(err, ErrInvalid) {
				t.Errorf("Add(%+v) = %v", in, err)
			}
		}
	})
	if ps, _ := e.s.Profiles(ctx); len(ps) != 2 {
		t.Errorf("profiles = %v", ps)
	}
}

func TestEditDropsAValueTheNewTextNoLongerSays(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	home := func(city string) func(*AddInput) {
		return func(in *AddInput) { in.Key, in.Value = "home city", city }
	}
	m := e.add("I live in Berlin", home("Berlin"))
	kept, err := e.s.Edit(ctx, m.ID, Edit{Text: "I live in central Berlin"})
	if err != nil || kept.Value != "Berlin" || kept.Key != "home_city" {
		t.Fatalf("an edit that still says the value: %+v, %v", kept, err)
	}
	moved, err := e.s.Edit(ctx, m.ID, Edit{Text: "I live in Paris"})
	if err != nil || moved.Value != "" || moved.Key != "home_city" {
		t.Fatalf("an edit that drops the value: %+v, %v", moved, err)
	}
	// Saying Berlin again is news, not a restatement of the edited memory.
	again := e.add("I live in Berlin", home("Berlin"))
	if again.ID == m.ID {
		t.Fatal("the new statement was taken as the edited memory")
	}
	old, err := e.s.Get(ctx, m.ID)
	if err != nil || old.Status != StatusSuperseded || old.SupersededBy != again.ID {
		t.Fatalf("edited memory after the new statement: %+v, %v", old, err)
	}
	value := "Lyon"
	set, err := e.s.Edit(ctx, again.ID, Edit{Text: "I live in Paris now", Value: &value})
	if err != nil || set.Value != "Lyon" {
		t.Fatalf("an explicit value is kept as given: %+v, %v", set, err)
	}
}

func TestSaysValue(t *testing.T) {
	cases := []struct {
		text, value string
		want        bool
	}{
		{"I live in New York", "new york", true},
		{"I live in Sunnyvale", "ny", false},
		{"I live in Paris.", "Paris", true},
		{"Paris-based", "paris", true},
		{"我住在北京", "北京", true},
		{"我住在New York", "new york", true},
		{"서울에 살아요", "서울", true},
		{"ロンドンに住んでいます", "ロンドン", true},
		{"I am 42", "4", false},
		{"anything", "  ", false},
		// A negated text mentions the value without stating it.
		{"I no longer live in Berlin", "Berlin", false},
		{"I am not vegetarian", "vegetarian", false},
		{"I don't drink coffee", "coffee", false},
		{"我不住在北京", "北京", false},
	}
	for _, tc := range cases {
		if got := saysValue(tc.text, tc.value); got != tc.want {
			t.Errorf("saysValue(%q, %q) = %v; want %v", tc.text, tc.value, got, tc.want)
		}
	}
}

func TestAnEditedMemoryIsRestatedByItsNewValue(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	m := e.add("I live in Berlin", func(in *AddInput) { in.Key, in.Value = "home city", "Berlin" })
	if _, err := e.s.Edit(ctx, m.ID, Edit{Text: "I live in Paris"}); err != nil {
		t.Fatal(err)
	}
	// "I'm in Paris now" agrees with the edited memory: it is confirmed, not replaced.
	again := e.add("I'm in Paris now", func(in *AddInput) { in.Key, in.Value = "home city", "Paris" })
	if again.ID != m.ID {
		t.Fatalf("a restatement replaced the edited memory: new %+v", again)
	}
	if got, _ := e.s.Get(ctx, m.ID); got.Status != StatusActive {
		t.Fatalf("edited memory = %+v", got)
	}
}
