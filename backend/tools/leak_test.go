package tools

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestNoGoroutinesLeftBehind runs 1,000 concurrent calls (successes, timeouts,
// cancellations, invalid arguments) and checks that every goroutine they started
// has ended.
func TestNoGoroutinesLeftBehind(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{Timeout: 20 * time.Millisecond, TripFailures: 1 << 20, TripTimeouts: 1 << 20},
		echoTool("echo", Annotations{ReadOnly: true}), blockTool("wait", nil))
	h.exec.Now = time.Now
	h.exec.NewTurn(TurnInfo{}).Run(ctx, call("echo", `{"text":"warm up"}`)) // the database's own goroutines start here
	before := runtime.NumGoroutine()

	const n = 1000
	var wg sync.WaitGroup
	statuses := make([]Status, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var c = call("echo", fmt.Sprintf(`{"text":"%d"}`, i))
			switch i % 4 {
			case 1:
				c = call("wait", `{"text":"x"}`) // times out
			case 2:
				c = call("wait", `{"text":"y"}`)
				go func() { time.Sleep(5 * time.Millisecond); cancel() }()
			case 3:
				c = call("echo", `{"text":""}`) // invalid
			}
			o, _ := h.exec.NewTurn(TurnInfo{SessionID: "s"}).Run(cctx, c)
			statuses[i] = o.Status
		}()
	}
	wg.Wait()

	counts := map[Status]int{}
	for _, s := range statuses {
		counts[s]++
	}
	// Under load a few echo calls may also time out; every call ends one of these ways.
	if counts[StatusOK] == 0 || counts[StatusOK]+counts[StatusTimeout]+counts[StatusCancelled] != 3*n/4 || counts[StatusError] != n/4 {
		t.Fatalf("statuses = %v", counts)
	}
	if rows := h.rows(t, AuditFilter{SessionID: "s", Limit: 1000}); len(rows) != n {
		t.Fatalf("audit rows = %d; want %d", len(rows), n)
	}
	var after int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
}
