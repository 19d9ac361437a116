package toolfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
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
