package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"hermes/backend/retrieval"
)

type fixture struct {
	Conversations []struct {
		ID    string `json:"id"`
		Turns []struct {
			User  string `json:"user"`
			Facts []struct {
				ID       string `json:"id"`
				Text     string `json:"text"`
				Key      string `json:"key"`
				Value    string `json:"value"`
				Category string `json:"category"`
			} `json:"facts"`
		} `json:"turns"`
	} `json:"conversations"`
	Questions []struct {
		Q      string `json:"q"`
		Answer string `json:"answer"`
	} `json:"questions"`
}

func fixtureProfile(id string) string {
	if strings.HasPrefix(id, "zh-") {
		return "zh"
	}
	return "en"
}

// TestRecallFixture measures recall on the labelled fixture (testdata/recall_fixture.json):
// every conversation turn goes through Observe and the worker (the fake model returns
// the labelled facts), then each question is asked. Hermes' hybrid ranking must beat
// a plain BM25 ranking over the same index.
func TestRecallFixture(t *testing.T) {
	ctx := context.Background()
	raw, err := os.ReadFile("testdata/recall_fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, nil)
	for _, c := range fx.Conversations {
		for i, turn := range c.Turns {
			var fs []extracted
			for _, f := range turn.Facts {
				fs = append(fs, extracted{Text: f.Text, Key: f.Key, Value: f.Value, Category: f.Category})
			}
			e.script(facts(fs...))
			d, err := e.s.Observe(ctx, Turn{Profile: fixtureProfile(c.ID), SessionID: c.ID, UserMessageID: fmt.Sprintf("%s-%d", c.ID, i),
				UserText: turn.User, Intent: "remember", MayWriteMemory: true})
			if err != nil || !d.Allowed {
				t.Fatalf("%s turn %d not observed: %+v %v", c.ID, i, d, err)
			}
			if _, err := e.s.RunJobs(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Map fact ids to memory ids by text.
	byText := map[string]string{}
	for _, m := range e.list(Filter{Statuses: []Status{StatusActive}, Limit: 1000}) {
		byText[m.Profile+"\x00"+m.Text] = m.ID
	}
	memOf := map[string]string{}
	for _, c := range fx.Conversations {
		for _, turn := range c.Turns {
			for _, f := range turn.Facts {
				id, ok := byText[fixtureProfile(c.ID)+"\x00"+f.Text]
				if !ok {
					t.Fatalf("fact %s was not stored as an active memory", f.ID)
				}
				memOf[f.ID] = id
			}
		}
	}
	type ranker struct {
		name string
		rank func(profile, q string) []string
	}
	lexicalIDs := func(profile string, terms []string) []string {
		hits, err := e.s.lexical(ctx, profile, terms, 10)
		if err != nil {
			t.Fatal(err)
		}
		var rids []int64
		for _, h := range hits {
			rids = append(rids, h.rid)
		}
		if len(rids) == 0 {
			return nil
		}
		ms, err := e.s.loadMany(ctx, rids, nil)
		if err != nil {
			t.Fatal(err)
		}
		byRid := map[int64]string{}
		for _, m := range ms {
			byRid[m.rid] = m.ID
		}
		var out []string
		for _, r := range rids {
			out = append(out, byRid[r])
		}
		return out
	}
	rankers := []ranker{
		{"hermes (hybrid)", func(p, q string) []string {
			hits, err := e.s.Search(ctx, p, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, h := range hits {
				out = append(out, h.MemoryID)
			}
			return out
		}},
		{"bm25 (plain)", func(p, q string) []string { return lexicalIDs(p, retrieval.PlainTerms(q)) }},
		{"hermes lexical only", func(p, q string) []string { return lexicalIDs(p, retrieval.QueryTerms(q)) }},
		{"hermes vector only", func(p, q string) []string {
			var out []string
			for _, h := range e.s.vectorSearch(ctx, p, q, 10) {
				out = append(out, h.ID)
			}
			return out
		}},
	}
	hitAt := map[string][3]int{}
	for _, r := range rankers {
		var h [3]int
		for _, q := range fx.Questions {
			got := r.rank(fixtureProfile(q.Answer), q.Q)
			for i, k := range []int{1, 5, 10} {
				for j := 0; j < min(k, len(got)); j++ {
					if got[j] == memOf[q.Answer] {
						h[i]++
						break
					}
				}
			}
		}
		hitAt[r.name] = h
		if os.Getenv("MEMORY_EVAL_MISSES") != "" {
			for _, q := range fx.Questions {
				got := r.rank(fixtureProfile(q.Answer), q.Q)
				pos := -1
				for j, id := range got {
					if id == memOf[q.Answer] {
						pos = j
					}
				}
				if pos != 0 {
					t.Logf("  %s: %q -> %s at %d", r.name, q.Q, q.Answer, pos+1)
				}
			}
		}
		n := float64(len(fx.Questions))
		t.Logf("%-20s hit@1 %.3f  hit@5 %.3f  hit@10 %.3f  (%d questions)", r.name, float64(h[0])/n, float64(h[1])/n, float64(h[2])/n, len(fx.Questions))
	}
	// What Recall offers the model (threshold, K=5): how often the answer is among
	// it, and how much else comes with it.
	offered, total := 0, 0
	for _, q := range fx.Questions {
		rs := e.recall(Query{Profile: fixtureProfile(q.Answer), Text: q.Q, K: 5})
		total += len(rs)
		for _, r := range rs {
			if r.Memory.ID == memOf[q.Answer] {
				offered++
			}
		}
	}
	t.Logf("recall (threshold, K=5): answer offered for %.3f of questions, %.2f memories offered per question",
		float64(offered)/float64(len(fx.Questions)), float64(total)/float64(len(fx.Questions)))
	hermes, bm25, lex := hitAt["hermes (hybrid)"], hitAt["bm25 (plain)"], hitAt["hermes lexical only"]
	if hermes[0] <= bm25[0] || hermes[1] <= bm25[1] || hermes[2] < bm25[2] {
		t.Errorf("hermes %v does not beat bm25 %v at hit@1/5/10", hermes, bm25)
	}
	if hermes[0] < lex[0] {
		t.Errorf("hermes hit@1 %d is below its lexical search alone (%d)", hermes[0], lex[0])
	}
}
