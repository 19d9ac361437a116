package tools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// benchArgs is a typical small call.
const benchArgs = `{"expression":"2*(3+4)","precision":2,"note":"a short note","api_key":"sk-secret"}`

const benchSchema = `{"type":"object","properties":{"expression":{"type":"string","minLength":1,"maxLength":500},
	"precision":{"type":"integer","minimum":0,"maximum":12},"note":{"type":"string"},"api_key":{"type":"string"}},
	"required":["expression"],"additionalProperties":false}`

// noopTool does no work of its own, so what is measured is the engine.
func noopTool() *Func {
	result := json.RawMessage(`{"result":14}`)
	return &Func{ToolName: "noop", ToolDescription: "Does nothing.", Params: json.RawMessage(benchSchema),
		Annots: Annotations{ReadOnly: true}, Result: json.RawMessage(`{"type":"object","required":["result"]}`),
		Fn: func(context.Context, json.RawMessage) (json.RawMessage, error) { return result, nil }}
}

// benchCalls runs b.N calls and reports the median per call (p50) from samples.
func benchCalls(b *testing.B, exec *Executor) {
	ctx := context.Background()
	c := call("noop", benchArgs)
	samples := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		o, _ := exec.NewTurn(TurnInfo{SessionID: "bench"}).Run(ctx, c)
		samples = append(samples, time.Since(start))
		if !o.OK() {
			b.Fatalf("outcome = %+v", o)
		}
	}
	b.StopTimer()
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// BenchmarkCallOverhead is one call through validation, breaker, timeout and the
// SQLite audit log, with a tool that does no work.
func BenchmarkCallOverhead(b *testing.B) {
	reg := NewRegistry()
	if err := reg.Register(noopTool()); err != nil {
		b.Fatal(err)
	}
	exec := NewExecutor(reg, Config{})
	db := openDB(b)
	exec.Audit = NewAuditLog(db)
	exec.Shared = SQLBreakers{DB: db} // as the app runs it
	benchCalls(b, exec)
}

// BenchmarkCallOverheadNoAudit is the same without the audit write.
// BenchmarkCallOverheadLocalBreakers is the same without the shared breaker
// lookup, for comparison.
func BenchmarkCallOverheadLocalBreakers(b *testing.B) {
	reg := NewRegistry()
	if err := reg.Register(noopTool()); err != nil {
		b.Fatal(err)
	}
	exec := NewExecutor(reg, Config{})
	exec.Audit = NewAuditLog(openDB(b))
	benchCalls(b, exec)
}

func BenchmarkCallOverheadNoAudit(b *testing.B) {
	reg := NewRegistry()
	if err := reg.Register(noopTool()); err != nil {
		b.Fatal(err)
	}
	benchCalls(b, NewExecutor(reg, Config{}))
}

// BenchmarkValidate is argument decoding and validation alone.
func BenchmarkValidate(b *testing.B) {
	sch, err := CompileSchema("bench", json.RawMessage(benchSchema))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		v, err := DecodeArgs(json.RawMessage(benchArgs))
		if err != nil || Validate(sch, v) != nil {
			b.Fatal("invalid")
		}
	}
}
