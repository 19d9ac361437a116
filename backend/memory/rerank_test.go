package memory

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"hermes/backend/retrieval"
	"hermes/backend/text"
)

// noDecay keeps added memories offerable however far the clock moves.
func noDecay(c *Config) { c.Lambda = map[string]float64{"other": 0, "work": 0, "health": 0} }

func TestRecallParaphraseByConcept(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, noDecay)
	nurse := e.add("I work as a nurse in the emergency department")
	e.add("I have two cats called Miso and Tofu")
	e.add("I prefer window seats on trains")
	for i := range 40 { // unrelated memories, so that similarity alone does not reach it
		e.add(fmt.Sprintf("Note %d: the %s is %s", i, []string{"weather", "garden", "film", "train", "book"}[i%5], []string{"grey", "green", "long", "late", "good", "new", "odd", "warm"}[i%8]))
	}
	// The question shares no word (nor stem) with the answer: plain lexical search misses it.
	if hits, _ := e.s.lexical(ctx, "personal", retrieval.QueryTerms("What is my job?"), 10); len(hits) != 0 {
		t.Fatalf("the paraphrase test is not one: lexical finds %v", hits)
	}
	for _, q := range []string{"What is my job?", "what's my occupation", "What do I do for a living?"} {
		rs := e.recall(Query{Text: q, K: 3})
		if len(rs) == 0 || rs[0].Memory.ID != nurse.ID {
			t.Errorf("%q offered %v; want the nurse memory first", q, texts(rs))
		}
	}
	zh := e.add("我在医院当护士", func(in *AddInput) { in.Profile = "zh" })
	if rs := e.recall(Query{Profile: "zh", Text: "我的职业是什么？", K: 3}); len(rs) == 0 || rs[0].Memory.ID != zh.ID {
		t.Errorf("我的职业是什么 offered %v; want 我在医院当护士", texts(rs))
	}
}

func TestRecallTimeCues(t *testing.T) {
	e := newEnv(t, noDecay)
	// 2026-05-10 and 2026-08-10: two trips; now 2027-03-01.
	e.clock.Advance(time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC).Sub(e.clock.Now()))
	may := e.add("Just got back from a trip to Kyoto")
	e.add("我刚从云南旅行回来")
	e.clock.Advance(92 * 24 * time.Hour)
	e.add("Just got back from a trip to Iceland")
	e.clock.Advance(time.Date(2027, 2, 20, 12, 0, 0, 0, time.UTC).Sub(e.clock.Now()))
	thisYear := e.add("我刚从海南旅行回来")
	e.clock.Advance(9 * 24 * time.Hour)

	if rs := e.recall(Query{Text: "Where did I travel last May?", K: 3}); len(rs) == 0 || rs[0].Memory.ID != may.ID {
		t.Errorf("last May offered %v; want the Kyoto trip first", texts(rs))
	}
	if rs := e.recall(Query{Text: "我去年去哪里旅行了？", K: 3}); len(rs) == 0 || rs[0].Memory.Text != "我刚从云南旅行回来" {
		t.Errorf("去年 offered %v; want 云南 (last year) first", texts(rs))
	}
	if rs := e.recall(Query{Text: "我今年去哪里旅行了？", K: 3}); len(rs) == 0 || rs[0].Memory.ID != thisYear.ID {
		t.Errorf("今年 offered %v; want 海南 (this year) first", texts(rs))
	}
	// Without a time cue the newer trip is not pushed down.
	if rs := e.recall(Query{Text: "Where did I travel?", K: 3}); len(rs) < 2 {
		t.Errorf("trips offered %v; want both", texts(rs))
	}
}

func TestRerankDropsIrrelevantAndLogsWhy(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	peanut := e.add("I am allergic to peanuts")
	stamps := e.add("My cousin collects old stamps")
	rs := e.recall(Query{Text: "peanut allergy", MessageID: "m1", SessionID: "s1"})
	if len(rs) != 1 || rs[0].Memory.ID != peanut.ID || !strings.Contains(rs[0].Reason, "peanut") {
		t.Fatalf("offered %+v; want only the peanut memory, with its reason", texts(rs))
	}
	cands, err := e.s.RecallCandidates(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	var kept, drop *RecallCandidate
	for i := range cands {
		switch cands[i].Memory.ID {
		case peanut.ID:
			kept = &cands[i]
		case stamps.ID:
			drop = &cands[i]
		}
	}
	if kept == nil || !kept.Kept || !strings.HasPrefix(kept.Reason, "kept: terms peanut") || kept.Rerank < rerankThreshold {
		t.Errorf("kept candidate logged as %+v", kept)
	}
	if drop == nil || drop.Kept || !strings.HasPrefix(drop.Reason, "dropped: below the threshold") || drop.Rerank >= rerankThreshold {
		t.Errorf("irrelevant candidate logged as %+v", drop)
	}
	why, err := e.s.WhyRecalled(ctx, "m1")
	if err != nil || len(why) != 1 || why[0].Memory.ID != peanut.ID {
		t.Errorf("WhyRecalled = %+v, %v; want only what was offered", why, err)
	}
	if d, err := e.s.Show(ctx, stamps.ID); err != nil || d.Recalls != 0 {
		t.Errorf("dropped candidate counted as offered: %+v %v", d.Recalls, err)
	}
}

func TestRecallFavoursTheIntentsCategory(t *testing.T) {
	e := newEnv(t, nil)
	e.add("My schedule changes every week", func(in *AddInput) { in.Category = "health" })
	work := e.add("My schedule has night shifts", func(in *AddInput) { in.Category = "work" })
	if rs := e.recall(Query{Text: "my schedule", Category: "work", K: 2}); len(rs) == 0 || rs[0].Memory.ID != work.ID {
		t.Errorf("offered %v; want the work memory first", texts(rs))
	}
}

// A question's term found in a memory's key ("cheese.favourite") weighs more than
// the same term in a memory's text.
func TestRerankWeighsTheKeyField(t *testing.T) {
	e := newEnv(t, noDecay)
	a := analysis{idf: map[string]float64{}}
	for _, term := range text.Terms("favourite cheese shop") {
		a.terms = append(a.terms, term)
		a.idf[term.Text] = 1
	}
	cover := func(m Memory) float64 {
		c := candidate{Memory: m}
		return e.s.scoreOne(a, &c, termPositions(m), termFields(m), nil, e.clock.Now()).Cover
	}
	keyed := Memory{Text: "Brie, always brie", Key: "cheese", Value: "brie"}
	said := Memory{Text: "I passed the cheese counter"}
	if k, s := cover(keyed), cover(said); k < 0.99 || s > 0.34 {
		t.Errorf("coverage of a key match %.2f (want 1: the key weighs %v), of a text match %.2f (want 1/3)", k, fieldWeights.key, s)
	}
	saved := fieldWeights
	defer func() { fieldWeights = saved }()
	fieldWeights.key = 1
	if k := cover(keyed); k > 0.34 {
		t.Errorf("with the key weighing as the text, a key match covers %.2f; want 1/3", k)
	}
}

// The category a question asks about (from its concepts, or the caller's) adds
// to a memory of that category.
func TestRerankFavoursTheQuestionsCategory(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, noDecay)
	score := func(q, caller, category string) float64 {
		a := e.s.analyze(ctx, q, e.clock.Now())
		a.category = caller
		m := Memory{Text: "Started at the clinic on Monday", Category: category}
		c := candidate{Memory: m}
		return e.s.scoreOne(a, &c, termPositions(m), termFields(m), nil, e.clock.Now()).Total
	}
	if d := score("What is my job?", "", "work") - score("What is my job?", "", "other"); math.Abs(d-wCategory) > 1e-9 {
		t.Errorf("a work memory for a question about the job gains %.3f; want %.3f", d, wCategory)
	}
	if d := score("What is my job?", "health", "work") - score("What is my job?", "health", "other"); d != 0 {
		t.Errorf("the caller's category (health) should decide; a work memory gains %.3f", d)
	}
	if d := score("How is the weather?", "", "work") - score("How is the weather?", "", "other"); d != 0 {
		t.Errorf("a question without a topic favours work memories by %.3f", d)
	}
}

// A stem Porter spells with an i for a y ("birthday" -> "birthdai") is weighed by
// how many memories have the word, not as a word no memory has.
func TestIDFOfStemsEndingInI(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, noDecay)
	for i, w := range []string{"party", "cake", "card", "dinner", "gift", "trip"} {
		e.add(fmt.Sprintf("The birthday %s was on day %d", w, i))
	}
	for i := range 6 {
		e.add(fmt.Sprintf("A quiet %s at home", []string{"evening", "morning", "week", "sunday", "night", "month"}[i]))
	}
	a := e.s.analyze(ctx, "when is the birthday and the quokka?", e.clock.Now())
	common, unseen := a.idf["birthdai"], a.idf["quokka"]
	if common == 0 || unseen == 0 || common >= unseen/2 {
		t.Errorf("idf of birthday (in half the memories) %.2f, of quokka (in none) %.2f; want birthday's far lower", common, unseen)
	}
}
