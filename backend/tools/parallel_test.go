package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/llm"
)

func TestRunAllParallel(t *testing.T) {
	var running, peak atomic.Int32
	slowEcho := fnTool("sleep_echo", Annotations{ReadOnly: true}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		var in struct{ Text string }
		_ = json.Unmarshal(args, &in)
		d, _ := time.ParseDuration(in.Text)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return TextResult(in.Text), nil
	})
	h := newHarness(t, Config{Parallel: 3}, slowEcho, echoTool("echo", Annotations{ReadOnly: true}))
	// Later calls finish first; an invalid and an unknown call are mixed in.
	delays := []string{"80ms", "60ms", "40ms", "20ms", "1ms", "30ms"}
	var calls []llm.ToolCall
	for i, d := range delays {
		calls = append(calls, llm.ToolCall{ID: fmt.Sprint("c", i), Name: "sleep_echo", Arguments: json.RawMessage(`{"text":"` + d + `"}`)})
	}
	calls = append(calls, llm.ToolCall{ID: "bad", Name: "echo", Arguments: json.RawMessage(`{}`)},
		llm.ToolCall{ID: "ghost", Name: "ghost", Arguments: json.RawMessage(`{}`)})

	start := time.Now()
	outs, stop := h.exec.NewTurn(TurnInfo{}).RunAll(context.Background(), calls)
	elapsed := time.Since(start)
	if stop != nil {
		t.Fatalf("stop = %+v", stop)
	}
	t.Run("results in the model's order", func(t *testing.T) {
		for i, d := range delays {
			if outs[i].CallID != fmt.Sprint("c", i) || outs[i].Content != d {
				t.Fatalf("outcome %d = %s %q; want %q", i, outs[i].CallID, outs[i].Content, d)
			}
		}
		if outs[6].ErrorKind != KindInvalidArguments || outs[7].ErrorKind != KindUnknownTool {
			t.Fatalf("tail = %+v", outs[6:])
		}
	})
	t.Run("concurrent but bounded", func(t *testing.T) {
		if p := peak.Load(); p < 2 || p > 3 {
			t.Fatalf("peak concurrency = %d; want 2..3", p)
		}
		if elapsed >= 231*time.Millisecond { // the sum of the delays: serial
			t.Fatalf("took %s: not concurrent", elapsed)
		}
	})
	t.Run("every call audited once", func(t *testing.T) {
		if rows := h.rows(t, AuditFilter{}); len(rows) != len(calls) {
			t.Fatalf("rows = %d; want %d", len(rows), len(calls))
		}
	})
}
