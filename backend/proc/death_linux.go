package proc

import (
	"os/exec"
	"syscall"
)

// setParentDeath asks the kernel to SIGKILL the child when the thread that
// started it exits (see Run).
func setParentDeath(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
