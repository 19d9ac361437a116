//go:build !unix

package toolfile

import "os/exec"

// setProcessGroup keeps exec's default: the process is killed when the call ends early.
func setProcessGroup(*exec.Cmd) {}
