//go:build unix

package toolfile

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command in its own process group and, when the call
// ends early, kills the whole group so no grandchild is left behind.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
