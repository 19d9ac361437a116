package app

import (
	"context"
	"fmt"
	"sort"
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
	a.throttle = 0
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
	session, err := a.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	var firsts []time.Duration
	var perDeltaTotal time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 { // keep the history short so every turn costs the same
			if session, err = a.NewSession(); err != nil {
				b.Fatal(err)
			}
		}
		first, deltas = time.Time{}, 0
		start = time.Now()
		if _, err := a.SendMessage(fmt.Sprint("req", i), session.ID, "hello"); err != nil {
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
