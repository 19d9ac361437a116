package prompt

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/session"
)

var update = flag.Bool("update", false, "rewrite golden files")

func conv(pairs ...string) []session.Message {
	var out []session.Message
	for i, p := range pairs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out = append(out, session.Message{ID: fmt.Sprintf("m%02d", i+1), Ref: fmt.Sprintf("r%d", i+1), Seq: i + 1, Role: role, Content: p, Channel: "main", Kind: "message"})
	}
	return out
}

func reasons(c Context) map[string]Reason {
	out := map[string]Reason{}
	for _, it := range c.Items {
		if it.Ref != "" {
			out[it.Ref] = it.Reason
		}
	}
	return out
}

func TestBuildKeepsTheTurnThatMatters(t *testing.T) {
	var pairs []string
	pairs = append(pairs, "I bought wireless earphones yesterday, the white ones for 199 yuan.", "Nice purchase!")
	for i := 0; i < 40; i++ {
		pairs = append(pairs, fmt.Sprintf("Tell me a fun fact about the ocean, number %d please.", i), "Octopuses have three hearts and blue blood, and they can taste with their arms.")
	}
	b := NewBuilder()
	in := Input{System: "You are Hermes.", Query: "Do the earphones I bought have noise cancelling?", History: conv(pairs...), Budget: 300}
	c := b.Build(context.Background(), in)
	r := reasons(c)
	if r["r1"] != ReasonRelevant || r["r2"] != ReasonRelevant {
		t.Fatalf("the earphone turn is missing: %v", r)
	}
	if r[fmt.Sprintf("r%d", len(pairs))] != ReasonRecent {
		t.Fatalf("the newest turn is missing: %v", r)
	}
	if c.Tokens > in.Budget {
		t.Fatalf("tokens %d > budget %d", c.Tokens, in.Budget)
	}
	last := c.Items[len(c.Items)-1]
	if last.Reason != ReasonQuery || last.Content != in.Query || c.Items[0].Reason != ReasonSystem {
		t.Fatalf("order: first %s, last %s", c.Items[0].Reason, last.Reason)
	}
}

func TestBuildChineseAnchorsAndNeighbours(t *testing.T) {
	pairs := []string{
		"你好", "你好！有什么可以帮你？",
		"我昨天在商场看了两款耳机，白色那款399元。", "白色那款评价不错。",
		"好的我考虑一下", "没问题。",
	}
	for i := 0; i < 30; i++ {
		pairs = append(pairs, "给我讲讲海洋的知识吧", "章鱼的血液是蓝色的。")
	}
	b := NewBuilder()
	b.RecentTurns = 1
	c := b.Build(context.Background(), Input{Query: "就买这个吧", History: conv(pairs...), Budget: 200})
	r := reasons(c)
	if r["r3"] != ReasonAnchor || r["r5"] != ReasonAnchor {
		t.Fatalf("the anchor turn and its neighbour should be in: %v", r)
	}
}

func TestBuildPinnedChannelsAndToolResults(t *testing.T) {
	h := conv("My passport number ends in 4411, keep that handy.", "Okay.", "filler question", "filler answer", "another", "reply")
	h[0].Pinned = true
	h = append(h,
		session.Message{ID: "sub1", Seq: 7, Role: "assistant", Content: "sub-agent scratch work", Channel: "research", Kind: "message"},
		session.Message{ID: "sub2", Ref: "sub2", Seq: 8, Role: "assistant", Content: "research result: 3 hotels", Channel: "research", Kind: "final"},
		session.Message{ID: "tool1", Ref: "tool1", Seq: 9, Role: "tool", Content: strings.Repeat("row of data ", 500), Channel: "main", Kind: "message"},
	)
	b := NewBuilder()
	b.RecentTurns = 0
	c := b.Build(context.Background(), Input{Query: "next", History: h, Budget: 2000})
	r := reasons(c)
	if r["r1"] != ReasonPinned {
		t.Fatalf("pinned message missing: %v", r)
	}
	for _, it := range c.Items {
		if it.MessageID == "sub1" {
			t.Fatal("main channel saw a sub-agent's scratch work")
		}
		if it.MessageID == "tool1" && (!it.Shortened || !strings.Contains(it.Content, toolMarker) || it.Tokens > 500) {
			t.Fatalf("tool result not shortened: %d tokens", it.Tokens)
		}
	}
	if r["sub2"] == "" {
		t.Fatal("main channel should see the sub-agent's final output")
	}
	sub := b.Build(context.Background(), Input{Query: "go on", History: h, Channel: "research", Budget: 2000})
	if got := sub.Refs(); len(got) != 2 || got[0] != "sub1" || got[1] != "sub2" {
		t.Fatalf("research channel refs = %v", got)
	}
}

func TestSummaryIncludedOnlyWhenSomethingItCoversIsLeftOut(t *testing.T) {
	h := conv("first question about gardening tomatoes", "answer", "second", "answer")
	b := NewBuilder()
	in := Input{Query: "next", History: h, Summary: "The user grows tomatoes.", SummaryUpto: 2, Budget: 2000}
	if c := b.Build(context.Background(), in); hasReason(c, ReasonSummary) {
		t.Fatal("summary included although everything fits")
	}
	in.Budget = 90 // room for the fence rule the summary brings
	c := b.Build(context.Background(), in)
	if !hasReason(c, ReasonSummary) || c.Tokens > 90 || c.Dropped == 0 {
		t.Fatalf("summary missing under pressure: %+v", c)
	}
}

func hasReason(c Context, r Reason) bool {
	for _, it := range c.Items {
		if it.Reason == r {
			return true
		}
	}
	return false
}

// TestBuildNeverExceedsBudget is a property test over random sessions and budgets.
func TestBuildNeverExceedsBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the earphones yesterday 昨天 买了 耳机 not 不要 399 元 ocean garden hotel 这个 that one passport meeting")
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	b := NewBuilder()
	for iter := 0; iter < 400; iter++ {
		n := rng.IntN(80)
		var h []session.Message
		for i := 0; i < n; i++ {
			role := []string{"user", "assistant", "assistant", "tool"}[rng.IntN(4)]
			if i%2 == 0 {
				role = "user"
			}
			h = append(h, session.Message{ID: fmt.Sprintf("i%d-%d", iter, i), Seq: i + 1, Role: role, Content: text(1 + rng.IntN(300)),
				Pinned: rng.IntN(15) == 0, Channel: "main", Kind: "message"})
		}
		in := Input{System: text(rng.IntN(40)), Query: text(1 + rng.IntN(200)), History: h, Budget: rng.IntN(3000),
			Summary: text(rng.IntN(60)), SummaryUpto: rng.IntN(n + 1), Memories: []string{text(rng.IntN(30))}, Ratio: 0.7 + rng.Float64()}
		c := b.Build(context.Background(), in)
		if c.Tokens > in.Budget {
			t.Fatalf("iteration %d: %d tokens > budget %d", iter, c.Tokens, in.Budget)
		}
		sum := 0
		prevSeq := 0
		for _, it := range c.Items {
			sum += int(math.Ceil(float64(it.Tokens) * in.Ratio))
			if it.Reason == "" {
				t.Fatalf("iteration %d: item without a reason", iter)
			}
			if it.Seq > 0 {
				if it.Seq <= prevSeq {
					t.Fatalf("iteration %d: history out of order", iter)
				}
				prevSeq = it.Seq
			}
		}
		if sum != c.Tokens {
			t.Fatalf("iteration %d: items add up to %d, context says %d", iter, sum, c.Tokens)
		}
	}
}

func TestGoldenAssembly(t *testing.T) {
	h := conv(
		"I'm planning a trip to Kyoto in April.", "Great, cherry blossoms then!",
		"Book nothing before Friday, I don't land until then.", "Understood.",
		"What's a good ramen place?", "Try one near the station.",
	)
	c := NewBuilder().Build(context.Background(), Input{System: "You are Hermes.", Query: "Which day do I land in Kyoto?",
		History: h, Summary: "The user likes trains.", SummaryUpto: 0, Budget: 140})
	var b strings.Builder
	for _, it := range c.Items {
		fmt.Fprintf(&b, "%-9s %-9s %3d  %s\n", it.Reason, it.Role, it.Tokens, strings.ReplaceAll(it.Content, "\n", " / "))
	}
	fmt.Fprintf(&b, "total %d of %d, dropped %d\n", c.Tokens, c.Budget, c.Dropped)
	golden := filepath.Join("testdata", "assembly.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, []byte(b.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("assembly changed:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestEstimate(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"", 0}, {"hello world", 3}, {"我昨天买了耳机", 7}, {"买 iPhone", 3},
	}
	for _, tc := range cases {
		if got := Estimate(tc.text); got != tc.want {
			t.Errorf("Estimate(%q) = %d; want %d", tc.text, got, tc.want)
		}
	}
}

// TestBuildKeepsTheAnswerToAQuestion: the user's answer shares no word with the
// query; the assistant's question before it does, so the answer's turn is kept
// as relevant (precededBy), with the question's.
func TestBuildKeepsTheAnswerToAQuestion(t *testing.T) {
	pairs := []string{"I finally picked up my new bike today.", "Congratulations! Which colour did you choose for the bike?",
		"Dark green, with a brown leather saddle.", "Lovely choice."}
	for i := 0; i < 40; i++ {
		pairs = append(pairs, fmt.Sprintf("Tell me a fun fact about the ocean, number %d please.", i), "Octopuses have three hearts and blue blood, and they can taste with their arms.")
	}
	c := NewBuilder().Build(context.Background(), Input{Query: "What colour is my new bike?", History: conv(pairs...), Budget: 300})
	r := reasons(c)
	if r["r1"] != ReasonRelevant || r["r3"] != ReasonRelevant || r["r4"] != ReasonRelevant {
		t.Fatalf("the question's turn and the answer's should be kept as relevant: %v", r)
	}
}

// TestBuildKeepsTheTurnBeforeAnAnswer: "this morning" is in a turn with none of
// the query's words; the turn after it has them, so it is kept as relevant.
func TestBuildKeepsTheTurnBeforeAnAnswer(t *testing.T) {
	pairs := []string{"Guess what the postman brought this morning!", "Tell me!",
		"The carbon kayak paddle I ordered.", "Great choice."}
	for i := 0; i < 40; i++ {
		pairs = append(pairs, fmt.Sprintf("Tell me a fun fact about the ocean, number %d please.", i), "Octopuses have three hearts and blue blood, and they can taste with their arms.")
	}
	c := NewBuilder().Build(context.Background(), Input{Query: "When did my kayak paddle come?", History: conv(pairs...), Budget: 300})
	if r := reasons(c); r["r1"] != ReasonRelevant || r["r3"] != ReasonRelevant {
		t.Fatalf("the turn before the answer and the answer's should be kept as relevant: %v", r)
	}
}
