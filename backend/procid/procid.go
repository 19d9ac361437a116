// Package procid names a running process so that it can be recognised later,
// by another process, without mistaking a new process that reused its pid:
// the pid, its start time (clock ticks after boot, /proc/PID/stat field 22)
// and the boot it belongs to.
package procid

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ID is one process, for as long as it runs.
type ID struct {
	PID   int
	Start uint64 // clock ticks after boot; 0 where unknown (not Linux)
	Boot  string // the boot's id; start times compare only within one boot
}

// Self is this process.
func Self() ID { return Of(os.Getpid()) }

// Of is the process with pid now (Start 0 when it cannot be read).
func Of(pid int) ID {
	id := ID{PID: pid, Boot: bootID()}
	id.Start, _, _ = stat(pid)
	return id
}

// Alive reports whether the process still runs (a zombie does not). Where
// start times cannot be read, a process that exists counts as alive.
func (id ID) Alive() bool {
	if id.PID <= 0 {
		return false
	}
	if id.Boot != bootID() {
		return false // the machine restarted since
	}
	start, state, err := stat(id.PID)
	if err != nil {
		return false
	}
	return start == id.Start && state != 'Z'
}

// String is "pid:start:boot", which Parse reads back.
func (id ID) String() string { return fmt.Sprintf("%d:%d:%s", id.PID, id.Start, id.Boot) }

// Parse reads an ID written by String.
func Parse(s string) (ID, bool) {
	f := strings.SplitN(s, ":", 3)
	if len(f) != 3 {
		return ID{}, false
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return ID{}, false
	}
	return ID{PID: pid, Start: start, Boot: f[2]}, true
}

// stat reads a process's start time and state from /proc/PID/stat.
func stat(pid int) (start uint64, state byte, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return 0, 0, fmt.Errorf("process %d: unreadable stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, 0, fmt.Errorf("process %d: short stat", pid)
	}
	start, err = strconv.ParseUint(f[19], 10, 64) // field 22 overall; f[0] is field 3
	return start, f[0][0], err
}

// bootID identifies this boot ("" where unknown).
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
