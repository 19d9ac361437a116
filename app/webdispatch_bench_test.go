package app

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// BenchmarkWebDispatch is web mode's cost of one call between reading its
// JSON arguments and the method's result: finding the method and decoding its
// arguments into their types (the generated table, webmethods_gen.go). The
// methods called do next to nothing themselves.
func BenchmarkWebDispatch(b *testing.B) {
	a, _, _, _ := newTestApp(b, func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{} })
	ctx := context.Background()
	on := []json.RawMessage{json.RawMessage(`false`)}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := a.dispatch(ctx, "SetIncognito", on); err != nil {
			b.Fatal(err)
		}
		if _, err := a.dispatch(ctx, "Incognito", nil); err != nil {
			b.Fatal(err)
		}
	}
}
