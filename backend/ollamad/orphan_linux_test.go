//go:build linux

package ollamad

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/proc"
)

// runnerStandIn is an ollama that, given "serve", starts a runner as Ollama
// does (its environment, its process group, no parent-death signal: here a
// sleep), writes the runner's pid to $HERMES_TEST_RUNNER_PID and serves.
func runnerStandIn(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ollama")
	script := "#!/bin/sh\n[ \"$1\" = serve ] || exit 2\nsleep 300 &\necho $! > \"$HERMES_TEST_RUNNER_PID\"\nexec " +
		fakeOllama + " --addr \"$OLLAMA_HOST\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// running: pid is a process that has not exited (a zombie has).
func running(pid int) bool {
	st, err := proc.ReadStat(pid)
	return err == nil && st.State != 'Z'
}

func readPID(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

// TestRunnersLeftByAKilledHermesAreStopped: a helper process (this test
// binary) starts Ollama with records and is killed with SIGKILL. The serve goes
// with it (the parent-death signal) but its runner stays; the next Daemon that
// starts an Ollama on that data dir stops the runner and removes the record.
func TestRunnersLeftByAKilledHermesAreStopped(t *testing.T) {
	if os.Getenv("HERMES_OLLAMAD_CHILD") != "" {
		serveAsChild()
		return
	}
	dir := filepath.Join(t.TempDir(), "ollama-pids")
	pidFile := filepath.Join(t.TempDir(), "runner.pid")
	t.Setenv("HERMES_TEST_RUNNER_PID", pidFile)
	bin := runnerStandIn(t)
	host := freeHost(t)
	cmd := startChild(t, "TestRunnersLeftByAKilledHermesAreStopped", host, bin, dir)
	runner := readPID(t, pidFile)
	t.Cleanup(func() { syscall.Kill(runner, syscall.SIGKILL) })
	records, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if want := proc.RecordPath(dir, proc.Owner{PID: cmd.Process.Pid, Start: mustStart(t, cmd.Process.Pid)}); len(records) != 1 || records[0] != want {
		t.Fatalf("records while it runs: %v, want %s", records, want)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	for deadline := time.Now().Add(3 * time.Second); answers(host)(context.Background()); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the serve of a killed Hermes still answers")
		}
	}
	if !running(runner) {
		t.Fatal("the runner ended with its serve: nothing left to sweep, the test shows nothing")
	}

	os.Remove(pidFile)
	next := freeHost(t)
	d := New(Config{Host: next, Path: bin, Manage: "auto", LogFile: filepath.Join(t.TempDir(), "l2"), Answers: answers(next),
		Records: NewRecorder(dir, nil)})
	if _, err := d.Ensure(context.Background()); err != nil {
		t.Fatal(err)
	}
	ownRunner := readPID(t, pidFile)
	for deadline := time.Now().Add(3 * time.Second); running(runner); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the runner left by a killed Hermes still runs after the next start")
		}
	}
	records, _ = filepath.Glob(filepath.Join(dir, "*.json"))
	if want := proc.RecordPath(dir, proc.Self()); len(records) != 1 || records[0] != want {
		t.Fatalf("records after the sweep: %v, want only this process's %s", records, want)
	}
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	// The record goes, and the runners are stopped, just after the serve's exit is known.
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		records, _ = filepath.Glob(filepath.Join(dir, "*.json"))
		if len(records) == 0 && !running(ownRunner) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after Stop: records %v, runner running %v", records, running(ownRunner))
		}
	}
}

func mustStart(t *testing.T, pid int) uint64 {
	t.Helper()
	st, err := proc.ReadStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	return st.Start
}
