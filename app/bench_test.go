package app

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/subagent"
)

// BenchmarkSendMessageFirstDelta measures the backend's overhead from SendMessage to
// the first chat:delta event with an in-process fake model that answers instantly.
// Reported: ns/op for the whole turn and first-delta-p50-ns / per-delta-ns.
func BenchmarkSendMessageFirstDelta(b *testing.B) {
	defer TuneRuntime(func(string) string { return "" })() // as the binary runs
	a, _, fake, _ := newTestApp(b, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.Words("one two three four five six seven eight nine ten")}
	})
	fake.Forgetful = true // the fake's own bookkeeping is not Hermes' heap
	a.Chat.throttle = 0
	var start, first, last time.Time
	deltas := 0
	a.emit = func(string, any) {
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		last = now
		deltas++
	}
	session, err := a.Chat.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	var firsts []time.Duration
	var perDeltaTotal time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 { // keep the history short so every turn costs the same
			if session, err = a.Chat.NewSession(); err != nil {
				b.Fatal(err)
			}
		}
		first, deltas = time.Time{}, 0
		start = time.Now()
		if _, err := a.Chat.SendMessage(fmt.Sprint("req", i), session.ID, "hello"); err != nil {
			b.Fatal(err)
		}
		firsts = append(firsts, first.Sub(start))
		if deltas > 1 {
			perDeltaTotal += last.Sub(first) / time.Duration(deltas-1)
		}
	}
	sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
	b.ReportMetric(float64(firsts[len(firsts)/2].Nanoseconds()), "first-delta-p50-ns")
	b.ReportMetric(float64(perDeltaTotal.Nanoseconds())/float64(b.N), "per-delta-ns")
}

// BenchmarkDelegationOverhead measures what a delegation adds to the model's own
// time: each iteration times one chat call to the fake model alone, then one
// delegation to a sub-agent that answers at once through the same fake (its
// window built, its task and answer stored in its channel, events emitted).
// Reported: overhead-p50-ns = p50(delegation) - p50(model call).
func BenchmarkDelegationOverhead(b *testing.B) {
	defer TuneRuntime(func(string) string { return "" })()
	_, core, fake, _ := newTestApp(b, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{"EDITED"}}
	})
	fake.Forgetful = true
	ctx := context.Background()
	def, ok := core.agents.catalog.Get("editor")
	if !ok {
		b.Fatal("no editor")
	}
	sess, err := core.sessions.Create(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	model := settingsLLM{core}
	req := llm.ChatRequest{Messages: []llm.Message{{Role: "system", Content: def.System}, {Role: "user", Content: "shorten this"}}}
	var models, delegations []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			if sess, err = core.sessions.Create(ctx, ""); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		if _, err := model.Chat(ctx, req, func(llm.Delta) error { return nil }); err != nil {
			b.Fatal(err)
		}
		models = append(models, time.Since(start))
		start = time.Now()
		if _, err := core.agents.runner.Run(ctx, subagent.Task{Def: def, Task: "shorten this", SessionID: sess.ID, CallID: "c", RequestID: "r",
			Observe: func(subagent.Event) {}}); err != nil {
			b.Fatal(err)
		}
		delegations = append(delegations, time.Since(start))
	}
	b.ReportMetric(float64((median(delegations) - median(models)).Nanoseconds()), "overhead-p50-ns")
	b.ReportMetric(float64(median(models).Nanoseconds()), "model-p50-ns")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkFirstThinkingDelta: how soon a thinking model's first reasoning
// reaches the page (SendMessage to the first chat:delta event, the whole turn
// path: classification, the stored message, recall, the prompt) against the
// official client alone reading the first thinking chunk from the same fake.
// Each iteration times both, alternately. delay is the fake's wait before its
// first chunk (0: the floor, where Hermes' own work is all there is; 100ms: a
// small model's prompt evaluation on a laptop). Reported: p50 of each, and their ratio.
func BenchmarkFirstThinkingDelta(b *testing.B) {
	for _, d := range []time.Duration{0, 100 * time.Millisecond} {
		b.Run(fmt.Sprintf("delay=%s", d), func(b *testing.B) { benchFirstThinking(b, d) })
	}
}

func benchFirstThinking(b *testing.B, delay time.Duration) {
	defer TuneRuntime(func(string) string { return "" })()
	a, core, fake, _ := newTestApp(b, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Thinking: llmtest.Words("let me think about it"), Chunks: llmtest.Words("one two three"), FirstDelay: delay}
	})
	fake.Forgetful = true
	fake.Models = append(fake.Models, llmtest.Model{Name: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "thinking"}})
	if _, err := a.Settings.SetSetting("chat_model", "qwen3"); err != nil {
		b.Fatal(err)
	}
	client, _, err := core.llmClient(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	bare := api.NewClient(mustURL(b, client.Host()), http.DefaultClient)
	var first time.Time
	a.emit = func(name string, _ any) {
		if first.IsZero() && strings.HasPrefix(name, "chat:delta:") {
			first = time.Now()
		}
	}
	session, _ := a.Chat.NewSession()
	var hermes, official []time.Duration
	stream := true
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			session, _ = a.Chat.NewSession()
		}
		start := time.Now()
		var got time.Time
		err := bare.Chat(context.Background(), &api.ChatRequest{Model: "qwen3", Stream: &stream, Messages: []api.Message{{Role: "user", Content: "hello"}}},
			func(r api.ChatResponse) error {
				if got.IsZero() && r.Message.Thinking != "" {
					got = time.Now()
				}
				return nil
			})
		if err != nil || got.IsZero() {
			b.Fatalf("bare client: %v (thinking seen: %v)", err, !got.IsZero())
		}
		official = append(official, got.Sub(start))
		first = time.Time{}
		start = time.Now()
		if _, err := a.Chat.SendMessage(fmt.Sprint("req", i), session.ID, "hello"); err != nil {
			b.Fatal(err)
		}
		hermes = append(hermes, first.Sub(start))
	}
	h, o := p50(hermes), p50(official)
	b.ReportMetric(float64(h.Nanoseconds()), "hermes-first-p50-ns")
	b.ReportMetric(float64(o.Nanoseconds()), "official-first-p50-ns")
	b.ReportMetric(float64(h)/float64(o), "ratio")
}

func p50(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func mustURL(b *testing.B, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		b.Fatal(err)
	}
	return u
}
