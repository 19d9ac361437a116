//go:build !linux

package proc

import "os/exec"

// setParentDeath does nothing where the kernel has no parent-death signal.
func setParentDeath(*exec.Cmd) {}
