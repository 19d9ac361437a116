package llm

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// BenchmarkChatFirstDelta is the floor under the app's first-delta figure: the
// official client's round trip to the in-process fake for a one-message chat, up to
// its first content chunk.
func BenchmarkChatFirstDelta(b *testing.B) {
	fake := llmtest.New()
	fake.Chat = func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{Chunks: llmtest.Words("one two three")} }
	srv := fake.Start()
	defer srv.Close()
	c, err := New(Config{Host: srv.URL}, nil)
	if err != nil {
		b.Fatal(err)
	}
	firsts := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var first time.Time
		_, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: []Message{{Role: "user", Content: "hi"}}},
			func(Delta) error {
				if first.IsZero() {
					first = time.Now()
				}
				return nil
			})
		if err != nil {
			b.Fatal(err)
		}
		firsts = append(firsts, first.Sub(start))
	}
	sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
	b.ReportMetric(float64(firsts[len(firsts)/2].Nanoseconds()), "first-delta-p50-ns")
}
