package llm

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// BenchmarkChatFirstDelta is the floor under the app's first-delta figure: the
// official client's round trip to the in-process fake, up to its first content
// chunk, for a one-message chat and for one with a 50-message history (the app
// benchmark's average).
func BenchmarkChatFirstDelta(b *testing.B) {
	for _, n := range []int{1, 51} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) { benchChatFirstDelta(b, n) })
	}
}

func benchChatFirstDelta(b *testing.B, n int) {
	msgs := make([]Message, n)
	for i := range msgs {
		msgs[i] = Message{Role: "user", Content: "hello"}
		if i%2 == 1 {
			msgs[i] = Message{Role: "assistant", Content: "one two three four five six seven eight nine ten"}
		}
	}
	fake := llmtest.New()
	fake.Forgetful = true
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
		_, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: msgs},
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
