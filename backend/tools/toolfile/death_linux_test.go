package toolfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/proc"
	"hermes/backend/tools"
)

// TestHelperRunsACommand is a Hermes to kill -9 in TestCommandDiesWithHermes.
func TestHelperRunsACommand(t *testing.T) {
	pidFile := os.Getenv("HERMES_TOOLFILE_TEST_PIDFILE")
	if pidFile == "" {
		t.Skip("a helper process for TestCommandDiesWithHermes")
	}
	file := fmt.Sprintf(`tools:
  - name: wait
    description: Waits.
    parameters: {type: object}
    timeout: 1m
    command: {argv: [sh, -c, 'echo $$ > %s.tmp && mv %s.tmp %s && exec sleep 60']}
`, pidFile, pidFile, pidFile)
	ts, errs := Parse("tools.yaml", []byte(file), Options{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	runDeclared(t, ts, "wait", `{}`) // until killed
}

func TestCommandDiesWithHermes(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "command.pid")
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperRunsACommand$")
	helper.Env = append(os.Environ(), "HERMES_TOOLFILE_TEST_PIDFILE="+pidFile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(string(b[:len(b)-1]))
		}
		if time.Now().After(deadline) {
			t.Fatal("the command did not start")
		}
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	_ = helper.Process.Signal(syscall.SIGKILL)
	_ = helper.Wait()
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || len(b) > 0 && stateOf(b) == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command outlived Hermes: %s", b)
		}
	}
}

func stateOf(stat []byte) byte {
	for i := len(stat) - 1; i >= 0; i-- {
		if stat[i] == ')' && i+2 < len(stat) {
			return stat[i+2]
		}
	}
	return 0
}

// helperLeavesAndWaits is a Hermes to kill -9 in
// TestWhatAKilledCallLeftIsStopped: with records in $HERMES_TOOLFILE_TEST_RECORDS,
// one call ends normally leaving a sleep behind (its pid in leftover), then
// another starts a sleep in its group (grandchild) and waits until killed.
func helperLeavesAndWaits(t *testing.T, dir string) {
	out := os.Getenv("HERMES_TOOLFILE_TEST_OUT")
	file := fmt.Sprintf(`tools:
  - name: leave
    description: Leaves a program running.
    parameters: {type: object}
    command: {argv: [sh, -c, 'sleep 60 >/dev/null 2>&1 & echo $! > %[1]s/leftover.tmp && mv %[1]s/leftover.tmp %[1]s/leftover']}
  - name: wait
    description: Waits.
    parameters: {type: object}
    timeout: 1m
    command: {argv: [sh, -c, 'sleep 60 & echo $! > %[1]s/grandchild.tmp && mv %[1]s/grandchild.tmp %[1]s/grandchild && exec sleep 60']}
`, out)
	rec := proc.NewRecorder(dir, "HERMES_TOOL_RUN", proc.InFlight, nil)
	ts, errs := Parse("tools.yaml", []byte(file), Options{Records: rec})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if o := runDeclared(t, ts, "leave", `{}`); o.Status != tools.StatusOK {
		t.Fatalf("leave: %+v", o)
	}
	runDeclared(t, ts, "wait", `{}`) // until killed
}

// TestWhatAKilledCallLeftIsStopped: a Hermes killed with SIGKILL while a command
// tool runs takes the command with it (the parent-death signal), but not what
// the command started; the next Hermes's Recorder stops that, from the record
// and the call's marker, and leaves alone what a call that had ended left on
// purpose (proc.InFlight).
func TestWhatAKilledCallLeftIsStopped(t *testing.T) {
	dir := os.Getenv("HERMES_TOOLFILE_TEST_RECORDS")
	if dir != "" {
		helperLeavesAndWaits(t, dir)
		return
	}
	dir, out := filepath.Join(t.TempDir(), "tool-pids"), t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^TestWhatAKilledCallLeftIsStopped$")
	helper.Env = append(os.Environ(), "HERMES_TOOLFILE_TEST_RECORDS="+dir, "HERMES_TOOLFILE_TEST_OUT="+out)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	leftover, grandchild := readPIDFile(t, filepath.Join(out, "leftover")), readPIDFile(t, filepath.Join(out, "grandchild"))
	t.Cleanup(func() { _ = syscall.Kill(leftover, syscall.SIGKILL); _ = syscall.Kill(grandchild, syscall.SIGKILL) })
	if records, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(records) != 1 {
		t.Fatalf("records while the call runs: %v", records)
	}
	_ = helper.Process.Signal(syscall.SIGKILL)
	_ = helper.Wait()
	time.Sleep(100 * time.Millisecond)
	if !alive(grandchild) {
		t.Fatal("the grandchild ended with Hermes: nothing left to stop, the test shows nothing")
	}

	proc.NewRecorder(dir, "HERMES_TOOL_RUN", proc.InFlight, nil).Sweep()
	for deadline := time.Now().Add(3 * time.Second); alive(grandchild); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("what the killed call started still runs after the sweep")
		}
	}
	if !alive(leftover) {
		t.Error("the sweep stopped what a call that had ended left on purpose")
	}
	if records, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(records) != 0 {
		t.Errorf("records after the sweep: %v", records)
	}
}

func readPIDFile(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

// alive: pid runs and is no zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && stateOf(b) != 'Z'
}
