// Package proc starts the child processes Hermes ties to its life (the Ollama
// server it starts, command tools, stdio MCP servers) and stops them.
//
// A child is made ready by Prepare: its own process group, so that stopping it
// stops what it started too, and on Linux the parent-death signal (SIGKILL), so
// that it does not outlive a Hermes killed with SIGKILL. Run starts it and waits
// for it on one locked OS thread, which the parent-death signal needs. Stop ends
// it: SIGTERM to the group, then SIGKILL to the group after a grace period.
//
// On Linux the package also keeps what a later Hermes needs to stop what a
// killed one left (records.go): the identity of a Hermes process (Owner), a
// marker in the environment of a child and of everything it starts, record
// files of the running children, and Sweep, which stops what the records and
// markers of a Hermes that is gone name. Environment rules (what a child
// inherits) stay with the callers.
package proc

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"time"
)

// Prepare makes cmd a child tied to Hermes: it starts in its own process group
// (Unix) and gets SIGKILL when Hermes dies (Linux, see Run). Other fields of
// cmd.SysProcAttr are kept. Call it before the command starts.
func Prepare(cmd *exec.Cmd) {
	setGroup(cmd)
	setParentDeath(cmd)
}

// Run starts cmd and waits for it, on one OS thread locked from before the fork
// until the child is reaped: the kernel's parent-death signal fires when the
// thread that forked the child exits, not the process, and Go ends a thread
// whenever a goroutine that locked it returns without unlocking (any code in the
// process may do that); holding the forking thread until the child is reaped
// rules that out, and costs nothing, since waiting blocks a thread anyway.
//
// started, when not nil, is called on that goroutine once the start is known:
// with nil before the wait begins (cmd.Process is set), or with the start error,
// which Run then returns too. Otherwise Run returns cmd.Wait's error.
func Run(cmd *exec.Cmd, started func(error)) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cmd.Start(); err != nil {
		if started != nil {
			started(err)
		}
		return err
	}
	if started != nil {
		started(nil)
	}
	return cmd.Wait()
}

// ErrNotStopped is Stop's error when ctx ended before the child was reaped.
var ErrNotStopped = errors.New("the process did not exit")

// Stop ends the child pid that Prepare put in its own group: SIGTERM to the
// group, then, unless done is closed within grace, SIGKILL to the group, and it
// waits until done is closed. done is closed by whoever waits for the child
// (its Run) once it is reaped. A child that has exited already is no error:
// the group gets SIGTERM (stragglers, if any) and Stop returns at once. It
// returns ErrNotStopped (wrapping ctx's error) when ctx ends before done is
// closed; ctx ending during the grace period sends SIGKILL at once.
func Stop(ctx context.Context, pid int, done <-chan struct{}, grace time.Duration) error {
	terminateGroup(pid)
	t := time.NewTimer(max(grace, 0))
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-t.C:
	case <-ctx.Done():
	}
	_ = KillGroup(pid)
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		select {
		case <-done: // both were ready
			return nil
		default:
			return errors.Join(ErrNotStopped, ctx.Err())
		}
	}
}
