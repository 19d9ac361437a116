package prompt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"hermes/backend/session"
)

func benchHistory(turns int) []session.Message {
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("I bought earphones yesterday for 199 the hotel in Kyoto budget meeting on Friday not this one 我 昨天 买了 耳机 这个 不要 酒店 会议 预算 ocean garden piano")
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var h []session.Message
	for i := 0; i < turns*2; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		h = append(h, session.Message{ID: fmt.Sprintf("m%d", i), Seq: i + 1, Role: role, Content: text(10 + rng.IntN(60)), Channel: "main", Kind: "message"})
	}
	return h
}

// BenchmarkBuild600Turns: build the context for a 600-turn session (8k budget), with
// the builder's per-message analysis warm, as on every turn after the first.
func BenchmarkBuild600Turns(b *testing.B) {
	h := benchHistory(600)
	bl := NewBuilder()
	in := Input{System: "You are Hermes.", Query: "which earphones did I buy yesterday at the hotel?", History: h, Budget: 8192, Summary: "The user travels a lot."}
	bl.Build(context.Background(), in)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl.Build(context.Background(), in)
	}
}

// BenchmarkBuild600TurnsCold: the same with an empty analysis cache (first turn after start).
func BenchmarkBuild600TurnsCold(b *testing.B) {
	h := benchHistory(600)
	in := Input{System: "You are Hermes.", Query: "which earphones did I buy yesterday at the hotel?", History: h, Budget: 8192}
	for i := 0; i < b.N; i++ {
		NewBuilder().Build(context.Background(), in)
	}
}

// BenchmarkBuild50Messages: a turn's build in a short conversation (the app's
// first-delta benchmark averages 50 messages of history), analysis cached.
func BenchmarkBuild50Messages(b *testing.B) {
	h := benchHistory(25)
	bl := NewBuilder()
	in := Input{System: "You are Hermes.", Query: "hello", History: h, Budget: 8192}
	bl.Build(context.Background(), in)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl.Build(context.Background(), in)
	}
}
