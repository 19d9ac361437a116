//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// setGroup keeps the default where there are no Unix process groups.
func setGroup(*exec.Cmd) {}

// terminateGroup does nothing where there is no SIGTERM: Stop kills after grace.
func terminateGroup(int) {}

// KillGroup kills the child pid (there are no Unix process groups here).
func KillGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return os.ErrProcessDone
	}
	return p.Kill()
}
