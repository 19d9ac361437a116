//go:build !linux

package procid

import "syscall"

// DieWithParent is a no-op where the kernel has no parent-death signal.
func DieWithParent(*syscall.SysProcAttr) {}
