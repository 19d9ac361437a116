package llm

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

func BenchmarkChatFirstDelta(b *testing.B) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{Chunks: llmtest.Words("one two three")} }
	srv := fake.Start()
	defer srv.Close()
	c, _ := New(Config{Host: srv.URL}, nil)
	var firsts []time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var first time.Time
		c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: []Message{{Role: "user", Content: "hi"}}}, func(Delta) error {
			if first.IsZero() {
				first = time.Now()
			}
			return nil
		})
		firsts = append(firsts, first.Sub(start))
	}
	sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
	b.ReportMetric(float64(firsts[len(firsts)/2].Nanoseconds()), "first-delta-p50-ns")
}
