package toolfile

import (
	"os/exec"
	"runtime"
	"syscall"
)

// runTied runs cmd so that it gets SIGKILL if Hermes dies while it runs. The
// parent-death signal follows the thread that forked the child, so that thread
// stays locked to this goroutine until the child is reaped (Run waits on it
// anyway).
func runTied(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Run()
}
