package memory

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"hermes/backend/retrieval"
)

func TestDecayAndArchive(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, func(c *Config) { c.Lambda = map[string]float64{"health": 0.001, "other": DefaultLambda} })
	coffee := e.add("I drink two coffees every morning")
	allergy := e.add("I am allergic to penicillin", func(in *AddInput) { in.Category = "health" })
	profile := e.add("My name is Sam", func(in *AddInput) { in.Layer = LayerProfile })

	cases := []struct {
		hours float64
		want  float64 // strength of the coffee fact
	}{{0, 1}, {10, math.Exp(-0.2)}, {35, math.Exp(-0.7)}}
	elapsed := 0.0
	for _, tc := range cases {
		e.clock.Advance(time.Duration((tc.hours - elapsed) * float64(time.Hour)))
		elapsed = tc.hours
		m, _ := e.s.Get(ctx, coffee.ID)
		if math.Abs(m.Strength-tc.want) > 1e-6 {
			t.Errorf("after %vh strength = %v; want %v", tc.hours, m.Strength, tc.want)
		}
	}
	// 60 h: 1 × e^(−1.2) ≈ 0.30 … at 61 h it is below 0.3.
	e.clock.Advance(26 * time.Hour)
	// Decayed, it is no longer offered as a current fact; a question that names
	// it finds it in the archive, marked as old.
	rs := e.recall(Query{Text: "coffee"})
	if len(rs) != 2 || !rs[0].Always || rs[1].Memory.ID != coffee.ID || !strings.Contains(rs[1].Prompt, "archived, may be out of date") {
		t.Fatalf("a decayed fact was offered as current: %+v", rs)
	}
	n, err := e.s.Sweep(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v", n, err)
	}
	for id, want := range map[string]Status{coffee.ID: StatusArchived, allergy.ID: StatusActive, profile.ID: StatusActive} {
		if m, _ := e.s.Get(ctx, id); m.Status != want {
			t.Errorf("%s is %s; want %s", m.Text, m.Status, want)
		}
	}
	hits, _ := e.s.Search(ctx, "", "coffee", 5)
	for _, h := range hits {
		if h.MemoryID == coffee.ID {
			t.Errorf("archived memory searched: %v", h)
		}
	}
	if ms := e.list(Filter{Statuses: []Status{StatusArchived}}); len(ms) != 1 {
		t.Errorf("archived memory not browsable: %v", texts2(ms))
	}
	// Restating brings it back, reinforced.
	e.add("I drink two coffees every morning!")
	m, _ := e.s.Get(ctx, coffee.ID)
	if m.Status != StatusActive || m.Strength < 0.99 {
		t.Fatalf("restated memory = %+v", m)
	}
	if rs := e.recall(Query{Text: "how many coffees?"}); len(rs) != 2 {
		t.Fatalf("restored memory not offered: %v", texts(rs))
	}
	// Restore works on an archived fact too.
	e.clock.Advance(100 * time.Hour)
	e.s.Sweep(ctx)
	if err := e.s.Restore(ctx, coffee.ID); err != nil {
		t.Fatal(err)
	}
	if m, _ := e.s.Get(ctx, coffee.ID); m.Status != StatusActive || m.Strength < 0.99 {
		t.Fatalf("restored = %+v", m)
	}
}

func TestRecallHybridFilteredAndSourced(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.add("I am allergic to peanuts", func(in *AddInput) { in.Key = "allergy.peanuts"; in.Category = "health" })
	e.add("我住在成都")
	e.add("My sister Anna lives in Oslo")
	e.add("I take the bus to work", func(in *AddInput) { in.Key = "commute.mode" })
	name := e.add("My name is Sam Lee", func(in *AddInput) { in.Layer = LayerProfile })

	cases := []struct {
		name  string
		query string
		want  string // text that must be the first fact offered; "" for none
	}{
		{"word form", "Can I eat peanut butter?", "I am allergic to peanuts"},
		{"stem", "any allergies?", "I am allergic to peanuts"},
		{"chinese", "我住在哪个城市？", "我住在成都"},
		{"key words", "how do I commute?", "I take the bus to work"},
		{"nothing relevant", "what's the weather like on Mars", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := e.recall(Query{Text: tc.query, K: 3})
			if len(rs) == 0 || rs[0].Memory.ID != name.ID || !rs[0].Always {
				t.Fatalf("the profile memory is not offered first: %v", texts(rs))
			}
			facts := rs[1:]
			if tc.want == "" {
				if len(facts) != 0 {
					t.Fatalf("offered %v", texts(facts))
				}
				return
			}
			if len(facts) == 0 || facts[0].Memory.Text != tc.want {
				t.Fatalf("offered %v; want %q first", texts(facts), tc.want)
			}
			if facts[0].Prompt != "you told me on 2026-11-02: "+tc.want {
				t.Errorf("prompt = %q", facts[0].Prompt)
			}
		})
	}
	t.Run("why did it say that", func(t *testing.T) {
		e.recall(Query{Text: "peanut allergy", MessageID: "msg-1", SessionID: "s1"})
		why, err := e.s.WhyRecalled(ctx, "msg-1")
		if err != nil || len(why) != 2 || why[1].Memory.Text != "I am allergic to peanuts" || why[1].LexicalRank != 1 {
			t.Fatalf("WhyRecalled = %+v, %v", why, err)
		}
	})
	t.Run("search ranks without the threshold", func(t *testing.T) {
		hits, err := e.s.Search(ctx, "", "what's the weather like on Mars", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatal("search returned nothing without a threshold")
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Fatal("not ranked by score")
			}
		}
	})
}

func TestProfileIsolation(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.add("I am the project lead for Apollo", func(in *AddInput) { in.Profile = "work" })
	e.add("I coach my son's football team", func(in *AddInput) { in.Profile = "personal" })
	cases := []struct {
		profile, query, want string
	}{
		{"work", "what is my role on Apollo project?", "I am the project lead for Apollo"},
		{"personal", "what is my role on Apollo project?", ""},
		{"personal", "do I coach football?", "I coach my son's football team"},
		{"work", "do I coach football?", ""},
		{"field", "football Apollo", ""},
	}
	for _, tc := range cases {
		t.Run(tc.profile+" "+tc.query, func(t *testing.T) {
			rs := e.recall(Query{Profile: tc.profile, Text: tc.query})
			hits, err := e.s.Search(ctx, tc.profile, tc.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if h.Memory.Profile != tc.profile {
					t.Fatalf("search crossed into %s", h.Memory.Profile)
				}
			}
			if tc.want == "" {
				if len(rs) != 0 {
					t.Fatalf("recall crossed profiles: %v", texts(rs))
				}
				return
			}
			if len(rs) != 1 || rs[0].Memory.Text != tc.want {
				t.Fatalf("recall = %v", texts(rs))
			}
		})
	}
	t.Run("forgetting a profile leaves the other", func(t *testing.T) {
		if _, err := e.s.ForgetProfile(ctx, "work"); err != nil {
			t.Fatal(err)
		}
		if ms := e.list(Filter{}); len(ms) != 1 || ms[0].Profile != "personal" {
			t.Fatalf("left %v", texts2(ms))
		}
	})
}

func TestIncognito(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.add("I am allergic to peanuts")
	if rs := e.recall(Query{Text: "peanuts", Incognito: true, MessageID: "m1"}); rs != nil {
		t.Fatalf("incognito recall read %v", texts(rs))
	}
	if why, _ := e.s.WhyRecalled(ctx, "m1"); len(why) != 0 {
		t.Fatal("incognito recall was logged")
	}
	d, err := e.s.Observe(ctx, Turn{Intent: "remember", MayWriteMemory: true, Incognito: true, UserText: "Remember that I moved to Oslo yesterday"})
	if err != nil || d.Allowed {
		t.Fatalf("incognito observe = %+v, %v", d, err)
	}
	if _, err := e.s.Add(ctx, AddInput{Text: "I like tea", Incognito: true}); err == nil {
		t.Fatal("incognito add wrote")
	}
	if q, _ := e.s.Queue(ctx); q.Observe != 0 || len(e.list(Filter{})) != 1 || e.chatCalls() != 0 {
		t.Fatal("incognito wrote something")
	}
}

func TestRecallSkipsInvalidAndExpired(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.observe("Remember I'm in Paris until Friday", facts(extracted{Text: "I am in Paris this week", Key: "location.trip", ValidUntil: "2026-11-05"}))
	if rs := e.recall(Query{Text: "am I in Paris?"}); len(rs) != 1 {
		t.Fatalf("valid fact not offered: %v", texts(rs))
	}
	e.clock.Advance(4 * 24 * time.Hour)
	if rs := e.recall(Query{Text: "am I in Paris?"}); len(rs) != 0 {
		t.Fatalf("expired fact offered: %v", texts(rs))
	}
	if ms, _ := e.s.List(ctx, Filter{Text: "paris"}); len(ms) != 1 || !strings.Contains(ms[0].Text, "Paris") {
		t.Fatal("expired fact not browsable")
	}
}

// A term most memories contain is not ranked (each of its rows would cost a BM25
// score): the rows of the rarer terms come first, ranked, then the newest rows
// of the common one.
func TestLexicalCommonTermsAddNewestRows(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, noDecay)
	e.s.words.SetCommonFloor(4)
	var garden []Memory
	for i := range 6 {
		garden = append(garden, e.add(fmt.Sprintf("The garden %s", []string{"roses bloomed", "shed leaks", "fence fell over", "hedge needs cutting", "pond froze", "gate squeaks"}[i])))
		e.clock.Advance(time.Hour)
	}
	orchid := e.add("The orchid by the window needs less water")
	e.add("Bought a new kettle")
	rid := func(m Memory) int64 {
		ms, err := e.s.loadMany(ctx, nil, []string{m.ID})
		if err != nil || len(ms) != 1 {
			t.Fatal(ms, err)
		}
		return ms[0].rid
	}
	hits, err := e.s.lexical(ctx, "personal", retrieval.QueryTerms("my garden and the orchid"), 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{rid(orchid), rid(garden[5]), rid(garden[4]), rid(garden[3])}
	if len(hits) != len(want) {
		t.Fatalf("%d hits, want %d: %+v", len(hits), len(want), hits)
	}
	for i, w := range want {
		if hits[i].rid != w {
			t.Errorf("hit %d is rid %d, want %d (the rare term's row, then the newest common rows)", i, hits[i].rid, w)
		}
	}
	e.s.words.SetCommonFloor(100) // not common: garden rows are ranked too, the orchid's found all the same
	hits, err = e.s.lexical(ctx, "personal", retrieval.QueryTerms("my garden and the orchid"), 10)
	if err != nil || len(hits) != 7 {
		t.Fatalf("ranked: %d hits, %v", len(hits), err)
	}
}
