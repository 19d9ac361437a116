//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// terminateGroup sends SIGTERM to the process group pid.
func terminateGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGTERM)
	}
}

// KillGroup sends SIGKILL to the process group of the child pid that Prepare
// put in its own group (elsewhere than Unix: to the child). A group that is gone
// returns os.ErrProcessDone, which exec.Cmd.Cancel takes as no error.
func KillGroup(pid int) error {
	if pid <= 0 {
		return os.ErrProcessDone // never kill(0) or kill(-1)
	}
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
