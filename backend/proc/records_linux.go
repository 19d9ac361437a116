package proc

// What a Hermes killed with SIGKILL leaves. The parent-death signal ends its
// children, but not a grandchild that double-forked (setsid) out of a child's
// process group, nor a child started by a thread that did not hold on (see
// Run). So a Hermes that starts children can:
//
//  1. mark each child, and through inheritance everything it starts, with an
//     environment variable whose value names the run: "<pid ns>:<Hermes
//     pid>:<Hermes start time>:<run>" (Owner.Prefix plus the caller's number),
//     so its descendants are known wherever they were re-parented;
//  2. keep its running children (pid, start time, command line, marker) in a
//     record file, <dir>/<pid>-<start>.json, written atomically (WriteRecords);
//  3. at start, Sweep: read the records of Hermes processes that are gone and
//     kill what they left: a recorded child only while its pid has the same
//     start time and the same command line (or its marker), so a reused pid is
//     never touched, and any process that carries a dead Hermes's marker; then
//     remove the record.

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Owner identifies a Hermes process across its life.
type Owner struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`  // /proc/PID/stat field 22: clock ticks after boot
	Boot  string `json:"boot"`   // start times compare only within one boot
	PIDNS string `json:"pid_ns"` // pids compare only within one pid namespace
}

// Self is this process.
func Self() Owner { return selfOnce() }

var selfOnce = sync.OnceValue(func() Owner {
	o := Owner{PID: os.Getpid()}
	if st, err := ReadStat(o.PID); err == nil {
		o.Start = st.Start
	}
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		o.Boot = strings.TrimSpace(string(b))
	}
	if ns, err := os.Readlink("/proc/self/ns/pid"); err == nil {
		o.PIDNS = strings.Trim(strings.TrimPrefix(ns, "pid:"), "[]")
	}
	return o
})

// Alive reports whether the Hermes process o still runs (a zombie does not).
func (o Owner) Alive() bool {
	st, err := ReadStat(o.PID)
	return err == nil && st.Start == o.Start && st.State != 'Z'
}

// Prefix starts the marker of every run of the owner.
func (o Owner) Prefix() string { return fmt.Sprintf("%s:%d:%d:", o.PIDNS, o.PID, o.Start) }

// ParseMarker reads the owner out of a marker's value.
func ParseMarker(v string) (Owner, bool) {
	f := strings.Split(v, ":")
	if len(f) != 4 {
		return Owner{}, false
	}
	pid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[2], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return Owner{}, false
	}
	return Owner{PID: pid, Start: start, PIDNS: f[0]}, true
}

// Record is one running child.
type Record struct {
	PID     int      `json:"pid"`
	Start   uint64   `json:"start"`
	Cmdline []string `json:"cmdline"`
	Run     string   `json:"run"` // the value of its marker
}

// Records is what one Hermes process writes: itself and its running children.
type Records struct {
	Owner    Owner    `json:"owner"`
	Children []Record `json:"servers"` // the key MCP's records have always had
}

// RecordPath is the record file of owner o in dir.
func RecordPath(dir string, o Owner) string {
	return filepath.Join(dir, fmt.Sprintf("%d-%d.json", o.PID, o.Start))
}

// WriteRecords writes rs to its owner's record file in dir (0600, atomically:
// a crash leaves the old or the new file), sorted by pid; with no children it
// removes the file.
func WriteRecords(dir string, rs Records) error {
	path := RecordPath(dir, rs.Owner)
	if len(rs.Children) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	rs.Children = slices.Clone(rs.Children)
	slices.SortFunc(rs.Children, func(a, b Record) int { return a.PID - b.PID })
	data, _ := json.MarshalIndent(rs, "", "  ")
	return writeFileAtomic(path, data, 0o600)
}

// Sweep stops what Hermes processes that are gone left running, as a Hermes
// that starts children does before it starts any. For each record file in dir
// of a Hermes that is gone (same boot and pid namespace as self, its pid no
// longer that process), every recorded child that still runs (same start time,
// and the same command line or marker) gets SIGKILL, with its process group
// when it leads one, then every process whose marker (the environment variable
// marker) is of that Hermes; then the file is removed. Records of an earlier
// boot, and unreadable ones, are removed; a temporary file that a Hermes killed
// while writing left is removed once a minute old. Then every process carrying a
// marker of a Hermes in self's pid namespace that is gone gets SIGKILL. Those
// that are our children are reaped. log, if not nil, says what is stopped.
func Sweep(dir, marker string, self Owner, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sweepRecords(dir, marker, self, log, byPrefix)
	alive := map[string]bool{}
	KillMarked(marker, func(run string) bool {
		o, ok := ParseMarker(run)
		if !ok || o.PIDNS != self.PIDNS || o.Prefix() == self.Prefix() {
			return false // ours, or from a pid namespace where our pids mean nothing
		}
		key := o.Prefix()
		a, seen := alive[key]
		if !seen {
			a = o.Alive()
			alive[key] = a
		}
		if !a {
			log.Info("stopping a process left by a Hermes that is gone", "marker", marker+"="+run)
		}
		return !a
	}, nil)
}

// sweepRecords stops, for each record in dir of a Hermes that is gone, its
// recorded children that still run and every process whose marker matches
// (left: which markers of that record's Hermes are its leftovers).
func sweepRecords(dir, marker string, self Owner, log *slog.Logger, left func(Records) func(string) bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, ".") {
			removeStaleTemp(path, name)
			continue
		}
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var rs Records
		if err := json.Unmarshal(data, &rs); err != nil || rs.Owner.PID <= 0 {
			log.Warn("removing an unreadable record of running children", "file", path, "err", err)
			_ = os.Remove(path)
			continue
		}
		o := rs.Owner
		switch {
		case o == self:
			continue
		case o.Boot != "" && self.Boot != "" && o.Boot != self.Boot:
			_ = os.Remove(path) // from an earlier boot: nothing of it runs
			continue
		case o.PIDNS != self.PIDNS || o.Alive():
			continue // a running Hermes, or one whose pids we cannot check
		}
		for _, r := range rs.Children {
			if st, ok := stillRuns(r, marker); ok {
				log.Info("stopping a child left by a Hermes that is gone", "pid", r.PID, "command", strings.Join(r.Cmdline, " "), "file", path)
				if st.PGRP == r.PID {
					_ = syscall.Kill(-r.PID, syscall.SIGKILL)
				}
				_ = syscall.Kill(r.PID, syscall.SIGKILL)
				Reap([]int{r.PID}, time.Second)
			}
		}
		KillMarked(marker, left(rs), nil)
		_ = os.Remove(path)
	}
}

// removeStaleTemp removes a temporary record file (".PID-START.json.*") that a
// Hermes killed while writing left, once it is a minute old and its writer is
// gone.
func removeStaleTemp(path, name string) {
	pid, start, ok := strings.Cut(strings.TrimPrefix(name, "."), "-")
	start, _, ok2 := strings.Cut(start, ".json.")
	p, err1 := strconv.Atoi(pid)
	st, err2 := strconv.ParseUint(start, 10, 64)
	if !ok || !ok2 || err1 != nil || err2 != nil {
		return
	}
	fi, err := os.Stat(path)
	if err == nil && time.Since(fi.ModTime()) > time.Minute && !(Owner{PID: p, Start: st}).Alive() {
		_ = os.Remove(path)
	}
}

// stillRuns reports whether the recorded child is still the process with its
// pid: the same start time, and the same command line or marker.
func stillRuns(r Record, marker string) (Stat, bool) {
	st, err := ReadStat(r.PID)
	if err != nil || st.Start != r.Start || st.State == 'Z' || r.Start == 0 {
		return st, false
	}
	if cmd, err := Cmdline(r.PID); err == nil && len(r.Cmdline) > 0 && slices.Equal(cmd, r.Cmdline) {
		return st, true
	}
	run, ok := Getenv(r.PID, marker)
	return st, ok && r.Run != "" && run == r.Run
}

// writeFileAtomic replaces file with data through a temporary file
// ".NAME.*" beside it (which removeStaleTemp recognises).
func writeFileAtomic(file string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	return nil
}
