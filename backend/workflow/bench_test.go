package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// sequenceYAML is a workflow of n steps one after another, each passing a value on.
func sequenceYAML(name string, n int, tool string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nworkflows:\n  - name: %s\n    description: bench\n    phases:\n      - steps:\n", name)
	for i := range n {
		if i == 0 {
			fmt.Fprintf(&b, "          - {id: s%d, tool: %s, args: {n: 0}}\n", i, tool)
		} else {
			fmt.Fprintf(&b, "          - {id: s%d, tool: %s, args: {n: \"{{steps.s%d.result.n}}\"}}\n", i, tool, i-1)
		}
	}
	return b.String()
}

func report(b *testing.B, samples []time.Duration, unit string, scale float64) {
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds())/scale, "p50-"+unit)
	b.ReportMetric(float64(samples[len(samples)*95/100].Nanoseconds())/scale, "p95-"+unit)
}

// BenchmarkWorkflowStepOverhead is the orchestration cost of one step: a run of
// 10 steps whose tool does no work, through the whole tools engine (validation,
// breaker, audit row) with every snapshot commit (the run, then running and done
// for each step); reported per step.
func BenchmarkWorkflowStepOverhead(b *testing.B) {
	h := newHarness(b)
	h.tool("inc", func(_ context.Context, a map[string]any) (any, error) {
		n, _ := a["n"].(float64)
		return map[string]any{"n": n + 1}, nil
	})
	const steps = 10
	w := h.parse(sequenceYAML("bench", steps, "inc"))
	ctx := context.Background()
	samples := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		r, err := h.eng.Start(ctx, w, nil, StartOptions{})
		samples = append(samples, time.Since(start)/steps)
		if err != nil || r.Status != StatusDone {
			b.Fatalf("run = %+v, %v", r, err)
		}
	}
	b.StopTimer()
	report(b, samples, "µs/step", 1e3)
}

// BenchmarkWorkflowAllThree300ms is an all phase of three independent steps of
// 300 ms each (serially 900 ms).
func BenchmarkWorkflowAllThree300ms(b *testing.B) {
	h := newHarness(b)
	h.tool("sleep", func(ctx context.Context, _ map[string]any) (any, error) { return "ok", wait(ctx, 300*time.Millisecond) })
	w := h.parse(`version: 1
workflows:
  - name: three
    description: bench
    phases:
      - mode: all
        steps:
          - {id: a, tool: sleep}
          - {id: b, tool: sleep}
          - {id: c, tool: sleep}
`)
	ctx := context.Background()
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		r, err := h.eng.Start(ctx, w, nil, StartOptions{})
		samples = append(samples, time.Since(start))
		if err != nil || r.Status != StatusDone {
			b.Fatalf("run = %+v, %v", r, err)
		}
	}
	b.StopTimer()
	report(b, samples, "ms", 1e6)
}

// BenchmarkWorkflowResumeFindsPlace is a resume of a 50-step run that failed at
// step 26: from the call to the moment step 26 starts again (the snapshot read,
// the run claimed, the done steps passed over, step 26's running state committed).
func BenchmarkWorkflowResumeFindsPlace(b *testing.B) {
	h := newHarness(b)
	h.tool("inc", func(_ context.Context, a map[string]any) (any, error) {
		n, _ := a["n"].(float64)
		return map[string]any{"n": n + 1}, nil
	})
	h.tool("broken", func(context.Context, map[string]any) (any, error) { return nil, errors.New("still broken") })
	src := sequenceYAML("fifty", 50, "inc")
	src = strings.Replace(src, "{id: s25, tool: inc", "{id: s25, tool: broken", 1)
	w := h.parse(src)
	ctx := context.Background()
	r, err := h.eng.Start(ctx, w, nil, StartOptions{})
	if err != nil || r.Status != StatusFailed {
		b.Fatalf("run = %+v, %v", r, err)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		var found time.Duration
		start := time.Now()
		r, err := h.eng.Resume(ctx, r.ID, ResumeOptions{Observe: func(e Event) {
			if e.Step != "" && found == 0 {
				found = time.Since(start)
				if e.Step != "s25" || e.Status != string(StepRunning) {
					b.Errorf("first step event = %+v", e)
				}
			}
		}})
		samples = append(samples, found)
		if err != nil || r.Status != StatusFailed {
			b.Fatalf("resume = %+v, %v", r, err)
		}
	}
	b.StopTimer()
	report(b, samples, "ms", 1e6)
}
