package mcp

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFaults runs the fake server in each fault mode: each ends in a bounded,
// clear error, restarts with backoff where that makes sense, and leaves no
// zombie and no goroutine behind.
func TestFaults(t *testing.T) {
	tests := []struct {
		name  string
		args  func(dir string) []string
		tweak func(*Options)
		check func(t *testing.T, h *harness)
	}{
		{name: "exits during initialize", args: func(string) []string { return []string{"-mode", "exit-init"} },
			check: func(t *testing.T, h *harness) {
				st := h.waitState("fake", StateBackingOff, 5*time.Second)
				for _, want := range []string{"initialize: the server exited during initialize (exit status 3)", "stderr: fatal: boom during initialize"} {
					if !strings.Contains(st.Error, want) {
						t.Errorf("error %q lacks %q", st.Error, want)
					}
				}
				st = h.waitState("fake", StateCrashed, 5*time.Second)
				if st.Restarts != 2 || !strings.Contains(st.Error, "gave up after 3 failures in a row") {
					t.Errorf("crashed: restarts %d, error %q", st.Restarts, st.Error)
				}
				if err := h.m.Restart(context.Background(), "fake"); err != nil {
					t.Fatal(err)
				}
				h.waitState("fake", StateCrashed, 5*time.Second)
			}},
		{name: "exits at start", args: func(string) []string { return []string{"-mode", "exit-start"} },
			check: func(t *testing.T, h *harness) {
				st := h.waitState("fake", StateBackingOff, 5*time.Second)
				if !strings.Contains(st.Error, "exit status 1") || !strings.Contains(st.Error, "fatal: cannot start: missing configuration") {
					t.Errorf("error = %q", st.Error)
				}
				if st.RetryAt.IsZero() {
					t.Error("no retry time while backing off")
				}
			}},
		{name: "never answers initialize", args: func(string) []string { return []string{"-mode", "hang-init"} },
			tweak: func(o *Options) { o.InitTimeout = 300 * time.Millisecond },
			check: func(t *testing.T, h *harness) {
				start := time.Now()
				st := h.waitState("fake", StateBackingOff, 5*time.Second)
				if !strings.Contains(st.Error, "the server did not answer initialize within 300ms") {
					t.Errorf("error = %q", st.Error)
				}
				if d := time.Since(start); d > 3*time.Second {
					t.Errorf("took %s", d)
				}
			}},
		{name: "writes non-JSON to stdout", args: func(string) []string { return []string{"-mode", "garbage"} },
			check: func(t *testing.T, h *harness) {
				h.waitState("fake", StateReady, 5*time.Second)
				if got, err := h.call("fake__echo", `{"text":"x"}`); err != nil || got != "echo: x" {
					t.Errorf("echo = %q, %v", got, err)
				}
				st, _ := h.m.Server("fake")
				if !strings.Contains(strings.Join(st.Warnings, "\n"), "not JSON-RPC") {
					t.Errorf("warnings = %q", st.Warnings)
				}
			}},
		{name: "crashes mid-call, then restarts and registers again", args: func(dir string) []string {
			return []string{"-mode", "crash-call", "-once", filepath.Join(dir, "crashed")}
		},
			check: func(t *testing.T, h *harness) {
				first := h.waitState("fake", StateReady, 5*time.Second)
				_, err := h.call("fake__echo", `{"text":"x"}`)
				if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), "panic: crashed in the middle of a call") {
					t.Fatalf("error = %v", err)
				}
				st := h.waitFor("fake", "a new ready run", 5*time.Second, func(st Status) bool { return st.State == StateReady && st.PID != first.PID })
				if st.Restarts != 1 {
					t.Errorf("restarts = %d", st.Restarts)
				}
				if got, err := h.call("fake__echo", `{"text":"again"}`); err != nil || got != "echo: again" {
					t.Errorf("after restart: %q, %v", got, err)
				}
			}},
		{name: "never answers a call", args: func(string) []string { return []string{"-mode", "hang-call"} },
			tweak: func(o *Options) { o.RequestTimeout = 300 * time.Millisecond },
			check: func(t *testing.T, h *harness) {
				h.waitState("fake", StateReady, 5*time.Second)
				start := time.Now()
				_, err := h.call("fake__echo", `{"text":"x"}`)
				if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no answer within 300ms") {
					t.Errorf("error = %v", err)
				}
				if d := time.Since(start); d > 2*time.Second {
					t.Errorf("took %s", d)
				}
				h.waitFor("fake", "the cancellation notice", 3*time.Second, func(st Status) bool {
					return strings.Contains(st.StderrTail, `cancelled "hermes-`)
				})
			}},
		{name: "answers after twice the timeout", args: func(string) []string { return []string{"-mode", "slow-call", "-delay", "600ms"} },
			tweak: func(o *Options) { o.RequestTimeout = 300 * time.Millisecond },
			check: func(t *testing.T, h *harness) {
				first := h.waitState("fake", StateReady, 5*time.Second)
				if _, err := h.call("fake__echo", `{"text":"x"}`); !errors.Is(err, ErrTimeout) {
					t.Errorf("error = %v", err)
				}
				time.Sleep(600 * time.Millisecond) // the late answer arrives and is dropped
				tool, _ := h.reg.Get("fake__echo")
				if err := tool.(interface{ HealthCheck(context.Context) error }).HealthCheck(context.Background()); err != nil {
					t.Errorf("ping after the late answer: %v", err)
				}
				if st, _ := h.m.Server("fake"); st.State != StateReady || st.PID != first.PID {
					t.Errorf("status = %s pid %d", st.State, st.PID)
				}
			}},
		{name: "writes 1 MB to stderr", args: func(string) []string { return []string{"-mode", "stderr-flood", "-size", "1048576"} },
			check: func(t *testing.T, h *harness) {
				h.waitState("fake", StateReady, 5*time.Second)
				s, _ := h.m.server("fake")
				if s.stderr.Total() < 1<<20 {
					t.Errorf("stderr drained %d bytes", s.stderr.Total())
				}
				tail, _ := h.m.Stderr("fake")
				if len(tail) != 64<<10 {
					t.Errorf("stderr kept %d bytes", len(tail))
				}
				if got, err := h.call("fake__echo", `{"text":"x"}`); err != nil || got != "echo: x" {
					t.Errorf("echo = %q, %v", got, err)
				}
			}},
		{name: "one 200 MB line", args: func(string) []string { return nil },
			tweak: func(o *Options) { o.RequestTimeout = 60 * time.Second },
			check: func(t *testing.T, h *harness) {
				h.waitState("fake", StateReady, 5*time.Second)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				_, err := h.call("fake__big", `{"size":209715200}`)
				var rpc *RPCError
				if !errors.As(err, &rpc) || rpc.Code != codeMessageTooLarge || !strings.Contains(err.Error(), "over the 4 MiB limit") {
					t.Fatalf("error = %v", err)
				}
				runtime.ReadMemStats(&after)
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
					t.Errorf("allocated %d MiB for one 200 MB line", alloc>>20)
				}
				if after.HeapInuse > 128<<20 {
					t.Errorf("heap in use %d MiB", after.HeapInuse>>20)
				}
				t.Logf("200 MB line: allocated %.1f MiB, heap in use %.1f MiB", float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), float64(after.HeapInuse)/(1<<20))
				// The id at the end of the line (as the TypeScript SDK writes it).
				if _, err := h.call("fake__big", `{"size":5242880,"id_last":true}`); !errors.As(err, &rpc) || rpc.Code != codeMessageTooLarge {
					t.Errorf("id last: %v", err)
				}
				if got, err := h.call("fake__echo", `{"text":"still here"}`); err != nil || got != "echo: still here" {
					t.Errorf("echo = %q, %v", got, err)
				}
				st, _ := h.m.Server("fake")
				if !strings.Contains(strings.Join(st.Warnings, "\n"), "2 oversized message(s) dropped") {
					t.Errorf("warnings = %q", st.Warnings)
				}
			}},
		{name: "ignores SIGTERM", args: func(string) []string { return []string{"-mode", "ignore-term"} },
			check: func(t *testing.T, h *harness) {
				st := h.waitState("fake", StateReady, 5*time.Second)
				start := time.Now()
				h.m.Close()
				d := time.Since(start)
				if d < 3*time.Second || d > 6500*time.Millisecond {
					t.Errorf("stop took %s; want SIGKILL after about 3.5 s and within 6 s", d)
				}
				if !processGone(st.PID) {
					t.Errorf("process %d survived", st.PID)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leaks := checkGoroutines(t)
			h := newHarness(t, map[string]ServerConfig{"fake": fake(tt.args(t.TempDir())...)}, tt.tweak)
			tt.check(t, h)
			if err := h.m.Close(); err != nil {
				t.Error(err)
			}
			checkNoZombies(t)
			leaks()
		})
	}
}
