package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/tools"
)

// fakeBin is the fake server, built once for the whole test binary by TestMain.
var fakeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hermes-mcp-fake-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBin = filepath.Join(dir, "fakeserver")
	build := exec.Command("go", "build", "-o", fakeBin, "./testdata/fakeserver")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the fake MCP server:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testOptions are fast timings for tests.
func testOptions(dir string) Options {
	return Options{
		DataDir: dir, InitTimeout: 3 * time.Second, RequestTimeout: 3 * time.Second, PingInterval: time.Minute,
		BackoffMin: 50 * time.Millisecond, BackoffMax: 400 * time.Millisecond, StableAfter: 3 * time.Second,
		MaxFastCrashes: 3, PollInterval: -1,
	}
}

type harness struct {
	t   testing.TB
	dir string
	reg *tools.Registry
	m   *Manager
}

// newHarness starts a manager over a config written from servers (name ->
// entry) in a temp data dir; every server is approved unless noApprove.
func newHarness(t testing.TB, servers map[string]ServerConfig, tweak func(*Options), noApprove ...bool) *harness {
	t.Helper()
	dir := t.TempDir()
	writeConfig(t, dir, servers)
	o := testOptions(dir)
	if tweak != nil {
		tweak(&o)
	}
	reg := tools.NewRegistry()
	m, err := New(reg, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, dir: dir, reg: reg, m: m}
	t.Cleanup(func() { m.Close() })
	if len(noApprove) == 0 || !noApprove[0] {
		for name := range servers {
			if err := m.Approve(context.Background(), name); err != nil {
				t.Fatal(err)
			}
		}
	}
	return h
}

func writeConfig(t testing.TB, dir string, servers map[string]ServerConfig) {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "mcp.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func fake(args ...string) ServerConfig {
	return ServerConfig{Command: fakeBin, Args: args}
}

// waitFor polls the server's status until cond holds.
func (h *harness) waitFor(name string, what string, within time.Duration, cond func(Status) bool) Status {
	h.t.Helper()
	deadline := time.Now().Add(within)
	var st Status
	for {
		var err error
		st, err = h.m.Server(name)
		if err != nil && !errors.Is(err, ErrUnknownServer) {
			h.t.Fatal(err)
		}
		if err == nil && cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("server %s: %s not reached within %s; status: state=%s error=%q warnings=%q stderr=%q", name, what, within, st.State, st.Error, st.Warnings, st.StderrTail)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) waitState(name string, state State, within time.Duration) Status {
	h.t.Helper()
	return h.waitFor(name, string(state), within, func(st Status) bool { return st.State == state })
}

// call runs a registered tool directly.
func (h *harness) call(name, args string) (string, error) {
	h.t.Helper()
	tool, ok := h.reg.Get(name)
	if !ok {
		h.t.Fatalf("tool %s is not registered; registry: %v", name, toolNames(h.reg))
	}
	res, err := tool.Execute(context.Background(), json.RawMessage(args))
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(res, &s); err != nil {
		h.t.Fatalf("result %s is not a JSON string", res)
	}
	return s, nil
}

func toolNames(reg *tools.Registry) []string {
	var out []string
	for _, in := range reg.List() {
		out = append(out, in.Name)
	}
	return out
}

// checkNoZombies fails when a child of this process is a zombie.
func checkNoZombies(t testing.TB) {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 2 && f[0] == "Z" && f[1] == me {
			t.Errorf("zombie child: %s", s)
		}
	}
}

// processGone reports whether pid no longer exists (or is not our child).
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) < 2 || f[1] != strconv.Itoa(os.Getpid())
}

// checkGoroutines returns a function that fails when goroutines started since
// it was made are still running after a settle period.
func checkGoroutines(t testing.TB) func() {
	t.Helper()
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		var after int
		for deadline := time.Now().Add(8 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if after = runtime.NumGoroutine(); after <= before {
				return
			}
		}
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func newRegistry() *tools.Registry { return tools.NewRegistry() }
