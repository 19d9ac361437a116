package procid

import "syscall"

// DieWithParent asks the kernel to kill the child when the process that starts
// it dies, even by SIGKILL (a parent-death signal). Go delivers it when the OS
// thread that forked exits, so the caller locks the thread for the start
// (runtime.LockOSThread) when the goroutine may end sooner than Hermes.
func DieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
