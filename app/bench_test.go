package app

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
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
