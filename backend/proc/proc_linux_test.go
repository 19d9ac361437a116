package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// child is a prepared command started by Run in the background.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once reaped
	err  error         // Run's error, once done is closed
}

func start(t *testing.T, name string, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(name, args...), done: make(chan struct{})}
	Prepare(c.cmd)
	started := make(chan error, 1)
	go func() {
		defer close(c.done)
		c.err = Run(c.cmd, func(err error) { started <- err })
	}()
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = KillGroup(c.cmd.Process.Pid)
		<-c.done
	})
	return c
}

// gone reports whether pid no longer runs (gone, or a zombie).
func gone(pid int) bool {
	st, err := ReadStat(pid)
	return err != nil || st.State == 'Z'
}

func goneSoon(pid int) bool {
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if gone(pid) {
			return true
		}
	}
	return false
}

// readPID waits for a pid written to path.
func readPID(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	t.Fatalf("%s was not written", path)
	return 0
}

func killAtEnd(t *testing.T, pid int) {
	st, err := ReadStat(pid)
	if err != nil {
		return
	}
	t.Cleanup(func() {
		if now, err := ReadStat(pid); err == nil && now.Start == st.Start {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

func TestAChildInItsOwnGroupWithTheParentDeathSignal(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Noctty: true}
	Prepare(cmd)
	if a := cmd.SysProcAttr; !a.Setpgid || a.Pdeathsig != syscall.SIGKILL || !a.Noctty {
		t.Fatalf("SysProcAttr = %+v", a)
	}
	c := start(t, "sleep", "30")
	st, err := ReadStat(c.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if st.PGRP != c.cmd.Process.Pid || st.PGRP == syscall.Getpgrp() {
		t.Fatalf("the child's group is %d; want its own, %d (ours is %d)", st.PGRP, c.cmd.Process.Pid, syscall.Getpgrp())
	}
	if st.PPID != os.Getpid() {
		t.Fatalf("parent %d", st.PPID)
	}
}

func TestRunReportsAStartError(t *testing.T) {
	cmd := exec.Command(filepath.Join(t.TempDir(), "no-such-program"))
	Prepare(cmd)
	var got error
	called := 0
	err := Run(cmd, func(err error) { got = err; called++ })
	if err == nil || !errors.Is(got, err) || called != 1 {
		t.Fatalf("Run = %v, started(%v) called %d times", err, got, called)
	}
}

func TestStopTakesTheWholeGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	c := start(t, "sh", "-c", `sleep 60 & echo $! > "$0"; wait`, pidFile)
	gc := readPID(t, pidFile)
	killAtEnd(t, gc)
	began := time.Now()
	if err := Stop(context.Background(), c.cmd.Process.Pid, c.done, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("Stop took %s: SIGTERM should have ended it", d)
	}
	var ee *exec.ExitError
	if !errors.As(c.err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the child ended with %v; want SIGTERM", c.err)
	}
	if !goneSoon(gc) {
		t.Error("the grandchild in the child's group survived Stop")
	}
}

func TestStopKillsWhatIgnoresTERMAfterGrace(t *testing.T) {
	dir := t.TempDir()
	termFile, readyFile := filepath.Join(dir, "term"), filepath.Join(dir, "ready")
	// The shell notes SIGTERM and goes on; its sleeps end with it and are replaced.
	c := start(t, "sh", "-c", `trap 'echo term >> "$0"' TERM; echo $$ > "$1"; while :; do sleep 0.05; done`, termFile, readyFile)
	readPID(t, readyFile)
	const grace = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	began := time.Now()
	if err := Stop(ctx, c.cmd.Process.Pid, c.done, grace); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < grace {
		t.Errorf("Stop returned after %s, before the grace of %s", d, grace)
	}
	var ee *exec.ExitError
	if !errors.As(c.err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the child ended with %v; want SIGKILL", c.err)
	}
	if b, _ := os.ReadFile(termFile); !strings.Contains(string(b), "term") {
		t.Error("the child got no SIGTERM before SIGKILL")
	}
}

func TestStopAChildThatExitedAlready(t *testing.T) {
	c := start(t, "true")
	<-c.done
	began := time.Now()
	if err := Stop(context.Background(), c.cmd.Process.Pid, c.done, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("Stop of an exited child took %s", d)
	}
	if err := KillGroup(c.cmd.Process.Pid); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("KillGroup of a group that is gone = %v", err)
	}
}

func TestStopGivesUpWhenItsContextEnds(t *testing.T) {
	c := start(t, "sleep", "30")
	never := make(chan struct{}) // as if nobody reaped it
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := Stop(ctx, c.cmd.Process.Pid, never, time.Minute)
	if !errors.Is(err, ErrNotStopped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v", err)
	}
	<-c.done // the context ending in the grace sent SIGKILL
}

// TestHelperTiedChild is a Hermes to kill -9 in TestAChildDiesWithHermes.
func TestHelperTiedChild(t *testing.T) {
	pidFile := os.Getenv("HERMES_PROC_TEST_PIDFILE")
	if pidFile == "" {
		t.Skip("a helper process for TestAChildDiesWithHermes")
	}
	go func() { // on a goroutine of its own, as callers start children
		cmd := exec.Command("sh", "-c", `echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec sleep 60`, pidFile)
		Prepare(cmd)
		_ = Run(cmd, nil)
	}()
	time.Sleep(time.Minute) // until killed
}

func TestAChildDiesWithHermes(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperTiedChild$")
	helper.Env = append(os.Environ(), "HERMES_PROC_TEST_PIDFILE="+pidFile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	pid := readPID(t, pidFile)
	killAtEnd(t, pid)
	_ = helper.Process.Signal(syscall.SIGKILL)
	_ = helper.Wait()
	if !goneSoon(pid) {
		t.Fatal("the child outlived the Hermes that started it")
	}
}
