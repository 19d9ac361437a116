package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Stat is what Hermes reads of /proc/PID/stat.
type Stat struct {
	State   byte // 'R', 'S', 'Z', ...
	PPID    int
	PGRP    int
	Session int
	Start   uint64 // field 22, clock ticks after boot
}

// ReadStat reads /proc/PID/stat.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return Stat{}, fmt.Errorf("read /proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("read /proc/%d/stat: %d fields", pid, len(f))
	}
	var st Stat
	st.State = f[0][0]
	var errs [4]error
	st.PPID, errs[0] = strconv.Atoi(f[1])
	st.PGRP, errs[1] = strconv.Atoi(f[2])
	st.Session, errs[2] = strconv.Atoi(f[3])
	st.Start, errs[3] = strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return Stat{}, fmt.Errorf("read /proc/%d/stat: %w", pid, err)
	}
	return st, nil
}

// Cmdline is a process's command line; nil while it has none (a process in the
// middle of exec, or a kernel thread).
func Cmdline(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), nil
}

// StartedCmdline is the command line of a process just started: exec has
// returned to the parent once the child's descriptors closed, which is before
// the kernel sets the new program's arguments, so an empty read is tried again
// for a few milliseconds.
func StartedCmdline(pid int) []string {
	for range 50 {
		if c, err := Cmdline(pid); err != nil || c != nil {
			return c
		}
		time.Sleep(200 * time.Microsecond)
	}
	return nil
}

// Getenv returns the variable name of the process's environment, if it has it
// (only processes of this user can be read).
func Getenv(pid int, name string) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	key := []byte(name + "=")
	for len(b) > 0 {
		kv := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			kv, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if bytes.HasPrefix(kv, key) {
			return string(kv[len(key):]), true
		}
	}
	return "", false
}

// PIDs lists the processes (thread groups) in /proc.
func PIDs() []int {
	f, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	out := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// Children lists this process's children from /proc/self/task/*/children; ok
// is false when the kernel does not provide those files.
func Children() (pids []int, ok bool) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, false
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		if err != nil {
			continue // the thread ended, or no CONFIG_PROC_CHILDREN
		}
		ok = true
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids, ok
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// SetSubreaper makes this process a child subreaper, or no longer one: the
// orphans of its descendants are re-parented to it instead of init, and it has
// to reap them.
func SetSubreaper(on bool) error {
	v := uintptr(0)
	if on {
		v = 1
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, v, 0); e != 0 {
		return fmt.Errorf("become a child subreaper: %w", e)
	}
	return nil
}

// Reap waits, for up to within, for the processes just killed that are our
// children; the others are someone else's to reap. It looks at least once.
func Reap(pids []int, within time.Duration) {
	deadline := time.Now().Add(within)
	for len(pids) > 0 {
		left := pids[:0]
		for _, pid := range pids {
			var ws syscall.WaitStatus
			n, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			if n == 0 && err == nil {
				left = append(left, pid) // our child, not dead yet
			}
		}
		pids = left
		if len(pids) == 0 || !time.Now().Before(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ReapGroup, for a subreaper, kills and reaps the members of process group pgid
// that were re-parented to it, for up to within. It reports whether the group
// is empty; members elsewhere in the tree are left alone.
func ReapGroup(pgid int, within time.Duration) (empty bool) {
	self := os.Getpid()
	for deadline := time.Now().Add(within); ; {
		waiting, members := false, false
		for _, pid := range PIDs() {
			st, err := ReadStat(pid)
			if err != nil || st.PGRP != pgid {
				continue
			}
			members = true
			if st.PPID != self {
				continue
			}
			if st.State == 'Z' {
				Reap([]int{pid}, 0)
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			waiting = true
		}
		if !members {
			return true
		}
		if !waiting || time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// KillMarked sends SIGKILL to every process whose environment variable name
// matches, until none is left (a process may start another while we look), and
// hands those it killed to reap (nil: Reap within a second), which waits for
// those that are our children.
func KillMarked(name string, match func(value string) bool, reap func(pids []int)) {
	if reap == nil {
		reap = func(pids []int) { Reap(pids, time.Second) }
	}
	self := os.Getpid()
	for range 5 {
		var killed []int
		for _, pid := range PIDs() {
			if pid == self {
				continue
			}
			if v, ok := Getenv(pid, name); ok && match(v) {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed = append(killed, pid)
				}
			}
		}
		if len(killed) == 0 {
			return
		}
		reap(killed)
	}
}
