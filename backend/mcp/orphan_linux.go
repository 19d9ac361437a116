//go:build linux

package mcp

// Orphans. A server may leave processes behind: a grandchild that double-forks
// (setsid) leaves the server's process group, and a Hermes killed with SIGKILL
// stops nothing. On Linux:
//
//  1. every server gets SIGKILL when Hermes dies (Pdeathsig; the thread that
//     starts it stays locked until the server is reaped, see process.run);
//  2. a server and everything it starts carry HERMES_MCP_RUN=<pid ns>:<Hermes
//     pid>:<Hermes start time>:<run> in their environment, so its descendants
//     are known wherever they were re-parented: when a server ends, the
//     processes with its marker are killed, and when a Manager closes, those of
//     every run that ended;
//  3. after BecomeSubreaper, orphans of the servers are re-parented to Hermes
//     instead of init; Hermes reaps those it can tell are its servers'
//     descendants (their marker was seen while they lived, or they are in a
//     server's process group) and never waits for a child it cannot place, which
//     may belong to other code (os/exec, GLib);
//  4. each Hermes process keeps its running servers (pid, start time, command
//     line, run) in <data dir>/mcp-pids/<pid>-<start>.json, written atomically.
//     A Manager that starts reads the records of Hermes processes that are gone
//     and kills what they left: a recorded server only while its pid has the
//     same start time and the same command line (or its marker), so a reused pid
//     is never touched, and any process that carries a dead Hermes's marker;
//     then it removes the record.

import (
	"bytes"
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

// markerVar is the environment variable that marks a server's descendants.
const markerVar = "HERMES_MCP_RUN"

// recordDirName is the folder of the data dir with one record file per Hermes
// process that runs servers.
const recordDirName = "mcp-pids"

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// BecomeSubreaper makes this process a child subreaper (Linux): the orphans of
// the MCP servers it starts are re-parented to it instead of init, so a Manager
// can still find and stop them, and reaps them. Call it once, early in main or
// the composition root, before starting servers. Elsewhere it does nothing.
func BecomeSubreaper() error { return setSubreaper(true) }

func setSubreaper(on bool) error {
	v := uintptr(0)
	if on {
		v = 1
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, v, 0); e != 0 {
		return fmt.Errorf("become a child subreaper: %w", e)
	}
	t := procs()
	t.mu.Lock()
	t.subreaper = on
	t.mu.Unlock()
	if on {
		t.ensureSweeper()
	}
	return nil
}

// setParentDeath asks the kernel to SIGKILL the child when the thread that
// started it exits.
func setParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// procOwner identifies a Hermes process across its life.
type procOwner struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`  // /proc/PID/stat field 22: clock ticks after boot
	Boot  string `json:"boot"`   // start times compare only within one boot
	PIDNS string `json:"pid_ns"` // pids compare only within one pid namespace
}

// prefix starts the marker of every run of the owner.
func (o procOwner) prefix() string { return fmt.Sprintf("%s:%d:%d:", o.PIDNS, o.PID, o.Start) }

// procRecord is one running server.
type procRecord struct {
	PID     int      `json:"pid"`
	Start   uint64   `json:"start"`
	Cmdline []string `json:"cmdline"`
	Run     string   `json:"run"` // the value of its marker
}

// recordFile is what one Hermes process writes.
type recordFile struct {
	Owner   procOwner    `json:"owner"`
	Servers []procRecord `json:"servers"`
}

// tracker is the process-wide view of the servers this Hermes started: the
// process tree, the subreaper flag and the record file belong to the OS
// process, not to one Manager.
type tracker struct {
	self procOwner

	writeMu sync.Mutex // record writes, one at a time and in order

	mu        sync.Mutex
	seq       uint64
	live      map[string]procRecord // running servers by run
	starting  map[string]bool       // runs handed out whose process is not recorded yet
	livePID   map[int]bool          // their pids: os/exec waits for them, never us
	dirs      map[string]*recordDir // attached record folders
	subreaper bool
	adopted   map[int]uint64 // orphans of our servers re-parented to us, seen alive: pid -> start
	groups    map[int]bool   // process groups of our servers, while they have members
	sweeping  bool
	// sweepEvery is how often, while Hermes is a subreaper and runs servers, it
	// looks for its servers' orphans (to learn them while they live, and to
	// reap them once they exit).
	sweepEvery time.Duration
}

type recordDir struct {
	managers int
	log      *slog.Logger
}

var procs = sync.OnceValue(func() *tracker {
	t := &tracker{live: map[string]procRecord{}, starting: map[string]bool{}, livePID: map[int]bool{}, dirs: map[string]*recordDir{},
		adopted: map[int]uint64{}, groups: map[int]bool{}, sweepEvery: 500 * time.Millisecond}
	t.self.PID = os.Getpid()
	if st, err := readStat(t.self.PID); err == nil {
		t.self.Start = st.start
	}
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		t.self.Boot = strings.TrimSpace(string(b))
	}
	if ns, err := os.Readlink("/proc/self/ns/pid"); err == nil {
		t.self.PIDNS = strings.Trim(strings.TrimPrefix(ns, "pid:"), "[]")
	}
	return t
})

// newRun returns the marker of a server about to start; trackStart or
// forgetRun follows.
func newRun() string {
	t := procs()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	run := t.self.prefix() + strconv.FormatUint(t.seq, 10)
	t.starting[run] = true
	return run
}

// forgetRun drops the marker of a server that could not start.
func forgetRun(run string) {
	t := procs()
	t.mu.Lock()
	delete(t.starting, run)
	t.mu.Unlock()
}

// trackStart records a server that started.
func trackStart(p *process) {
	t := procs()
	st, err := readStat(p.pid)
	cmdline := startedCmdline(p.pid)
	t.mu.Lock()
	delete(t.starting, p.run)
	if err != nil {
		t.mu.Unlock()
		return // it is gone already; reap handles the rest
	}
	t.live[p.run] = procRecord{PID: p.pid, Start: st.start, Cmdline: cmdline, Run: p.run}
	t.livePID[p.pid] = true
	t.groups[p.pid] = true
	t.mu.Unlock()
	t.save()
	t.ensureSweeper()
}

// trackEnd runs once the server is reaped: it forgets the server and stops
// what the server left (processes with its marker; as a subreaper, its group's
// members re-parented to us).
func trackEnd(p *process) {
	t := procs()
	t.mu.Lock()
	_, known := t.live[p.run]
	delete(t.live, p.run)
	delete(t.livePID, p.pid)
	t.mu.Unlock()
	if known {
		t.save()
	}
	t.killRuns(func(run string) bool { return run == p.run })
	t.reapGroup(p.pid)
}

// attachRecords is a Manager's start: it adds dir to the folders this process
// keeps its record in, and stops what Hermes processes that are gone left
// behind (their records in dir, and any process with a dead Hermes's marker).
func attachRecords(dataDir string, log *slog.Logger) {
	t := procs()
	dir := filepath.Join(dataDir, recordDirName)
	t.mu.Lock()
	d := t.dirs[dir]
	if d == nil {
		d = &recordDir{log: log}
		t.dirs[dir] = d
	}
	d.managers++
	t.mu.Unlock()
	t.cleanStale(dir, log)
	alive := map[string]bool{}
	t.killRuns(func(run string) bool {
		o, ok := parseRun(run)
		if !ok || o.PIDNS != t.self.PIDNS || o.prefix() == t.self.prefix() {
			return false // ours, or from a pid namespace where our pids mean nothing
		}
		key := o.prefix()
		a, seen := alive[key]
		if !seen {
			a = ownerAlive(o)
			alive[key] = a
		}
		if !a {
			log.Info("mcp: stopping a process left by a Hermes that is gone", "marker", run)
		}
		return !a
	})
	t.save()
}

// detachRecords is a Manager's close, after its servers stopped: it kills what
// ended runs of this process left, and drops dir when no Manager uses it.
func detachRecords(dataDir string) {
	t := procs()
	dir := filepath.Join(dataDir, recordDirName)
	prefix := t.self.prefix()
	t.killRuns(func(run string) bool {
		if !strings.HasPrefix(run, prefix) {
			return false
		}
		t.mu.Lock()
		_, live := t.live[run]
		starting := t.starting[run] // another Manager's server, being started
		t.mu.Unlock()
		return !live && !starting
	})
	t.mu.Lock()
	d := t.dirs[dir]
	last := d != nil && d.managers <= 1
	if d != nil {
		d.managers--
	}
	if last {
		delete(t.dirs, dir)
	}
	t.mu.Unlock()
	if last {
		t.writeMu.Lock()
		_ = os.Remove(t.recordPath(dir))
		t.writeMu.Unlock()
	}
}

func (t *tracker) recordPath(dir string) string {
	return filepath.Join(dir, fmt.Sprintf("%d-%d.json", t.self.PID, t.self.Start))
}

// save writes this process's record into every attached folder (or removes it
// when no server runs).
func (t *tracker) save() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	rf := recordFile{Owner: t.self}
	for _, r := range t.live {
		rf.Servers = append(rf.Servers, r)
	}
	dirs := make(map[string]*slog.Logger, len(t.dirs))
	for dir, d := range t.dirs {
		dirs[dir] = d.log
	}
	t.mu.Unlock()
	slices.SortFunc(rf.Servers, func(a, b procRecord) int { return a.PID - b.PID })
	data, _ := json.MarshalIndent(rf, "", "  ")
	for dir, log := range dirs {
		path := t.recordPath(dir)
		var err error
		if len(rf.Servers) == 0 {
			if err = os.Remove(path); errors.Is(err, os.ErrNotExist) {
				err = nil
			}
		} else {
			err = writeFileAtomic(path, data, 0o600)
		}
		if err != nil && log != nil {
			log.Warn("mcp: record of running servers", "file", path, "err", err)
		}
	}
}

// cleanStale reads the records in dir of Hermes processes that are gone, kills
// their servers that still run (checked by start time and command line) and
// removes the records.
func (t *tracker) cleanStale(dir string, log *slog.Logger) {
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
		var rf recordFile
		if err := json.Unmarshal(data, &rf); err != nil || rf.Owner.PID <= 0 {
			log.Warn("mcp: removing an unreadable record of servers", "file", path, "err", err)
			_ = os.Remove(path)
			continue
		}
		o := rf.Owner
		switch {
		case o == t.self:
			continue
		case o.Boot != "" && t.self.Boot != "" && o.Boot != t.self.Boot:
			_ = os.Remove(path) // from an earlier boot: nothing of it runs
			continue
		case o.PIDNS != t.self.PIDNS || ownerAlive(o):
			continue // a running Hermes, or one whose pids we cannot check
		}
		for _, r := range rf.Servers {
			if st, ok := recordRuns(r); ok {
				log.Info("mcp: stopping a server left by a Hermes that is gone", "pid", r.PID, "command", strings.Join(r.Cmdline, " "))
				if st.pgrp == r.PID {
					_ = syscall.Kill(-r.PID, syscall.SIGKILL)
				}
				_ = syscall.Kill(r.PID, syscall.SIGKILL)
				t.reapKilled([]int{r.PID})
			}
		}
		prefix := o.prefix()
		t.killRuns(func(run string) bool { return strings.HasPrefix(run, prefix) })
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
	if err == nil && time.Since(fi.ModTime()) > time.Minute && !ownerAlive(procOwner{PID: p, Start: st}) {
		_ = os.Remove(path)
	}
}

// recordRuns reports whether the recorded server is still the process with its
// pid: the same start time, and the same command line or marker.
func recordRuns(r procRecord) (procStat, bool) {
	st, err := readStat(r.PID)
	if err != nil || st.start != r.Start || st.state == 'Z' || r.Start == 0 {
		return st, false
	}
	if cmd, err := readCmdline(r.PID); err == nil && len(r.Cmdline) > 0 && slices.Equal(cmd, r.Cmdline) {
		return st, true
	}
	run, ok := readMarker(r.PID)
	return st, ok && r.Run != "" && run == r.Run
}

// ownerAlive reports whether the Hermes process o still runs.
func ownerAlive(o procOwner) bool {
	st, err := readStat(o.PID)
	return err == nil && st.start == o.Start && st.state != 'Z'
}

// parseRun reads the owner out of a marker.
func parseRun(run string) (procOwner, bool) {
	f := strings.Split(run, ":")
	if len(f) != 4 {
		return procOwner{}, false
	}
	pid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[2], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return procOwner{}, false
	}
	return procOwner{PID: pid, Start: start, PIDNS: f[0]}, true
}

// killRuns kills every process whose marker matches, until none is left (a
// process may start another while we look), and reaps those that are our
// children.
func (t *tracker) killRuns(match func(run string) bool) {
	self := os.Getpid()
	for range 5 {
		var killed []int
		for _, pid := range listPIDs() {
			if pid == self {
				continue
			}
			if run, ok := readMarker(pid); ok && match(run) {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed = append(killed, pid)
				}
			}
		}
		if len(killed) == 0 {
			return
		}
		t.reapKilled(killed)
	}
}

// reapKilled waits (briefly) for processes we just killed that are our
// children; the others are someone else's to reap.
func (t *tracker) reapKilled(pids []int) {
	t.mu.Lock()
	for _, pid := range pids {
		delete(t.adopted, pid)
	}
	t.mu.Unlock()
	deadline := time.Now().Add(time.Second)
	for len(pids) > 0 && time.Now().Before(deadline) {
		left := pids[:0]
		for _, pid := range pids {
			var ws syscall.WaitStatus
			n, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			if n == 0 && err == nil {
				left = append(left, pid) // our child, not dead yet
			}
		}
		pids = left
		if len(pids) > 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// reapGroup, for a subreaper, kills and reaps the members of an ended server's
// process group that were re-parented to us.
func (t *tracker) reapGroup(pgid int) {
	t.mu.Lock()
	sub := t.subreaper
	t.mu.Unlock()
	if !sub {
		t.mu.Lock()
		delete(t.groups, pgid)
		t.mu.Unlock()
		return
	}
	self := os.Getpid()
	for deadline := time.Now().Add(time.Second); ; {
		waiting, members := false, false
		for _, pid := range listPIDs() {
			st, err := readStat(pid)
			if err != nil || st.pgrp != pgid {
				continue
			}
			members = true
			if st.ppid != self {
				continue
			}
			if st.state == 'Z' {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			waiting = true
		}
		if !members {
			t.mu.Lock()
			delete(t.groups, pgid)
			t.mu.Unlock()
			return
		}
		if !waiting || time.Now().After(deadline) {
			return // members elsewhere in the tree: the sweeper reaps them if they come to us
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ensureSweeper starts the sweeper when Hermes is a subreaper with servers.
func (t *tracker) ensureSweeper() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.subreaper || t.sweeping || len(t.live) == 0 {
		return
	}
	t.sweeping = true
	go t.sweepLoop()
}

func (t *tracker) sweepLoop() {
	for {
		t.mu.Lock()
		every := t.sweepEvery
		t.mu.Unlock()
		time.Sleep(every)
		t.sweep()
		t.mu.Lock()
		if !t.subreaper || len(t.live) == 0 && len(t.adopted) == 0 && len(t.groups) == 0 {
			t.sweeping = false
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
	}
}

// sweep learns the orphans of our servers re-parented to us while they live
// (by their marker) and reaps those that exited, and those of a server's
// group. A child it cannot place is left alone. It reads only our children
// (/proc/self/task/*/children) unless groups of ended servers are to be
// checked or the kernel does not list children.
func (t *tracker) sweep() {
	self := os.Getpid()
	prefix := t.self.prefix()
	t.mu.Lock()
	ended := false
	for pgid := range t.groups {
		ended = ended || !t.livePID[pgid]
	}
	t.mu.Unlock()
	pids, children := listChildren()
	if !children || ended {
		pids = listPIDs()
	}
	present := map[int]bool{} // pids that exist
	groupsSeen := map[int]bool{}
	for _, pid := range pids {
		st, err := readStat(pid)
		if err != nil {
			continue
		}
		present[pid] = true
		groupsSeen[st.pgrp] = true
		if st.ppid != self {
			continue
		}
		t.mu.Lock()
		start, adopted := t.adopted[pid]
		ours := !t.livePID[pid] && (adopted && start == st.start || t.groups[st.pgrp])
		known := t.livePID[pid] || adopted
		t.mu.Unlock()
		if st.state == 'Z' {
			if ours {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
				t.mu.Lock()
				delete(t.adopted, pid)
				t.mu.Unlock()
			}
			continue
		}
		if !known {
			if run, ok := readMarker(pid); ok && strings.HasPrefix(run, prefix) {
				t.mu.Lock()
				t.adopted[pid] = st.start
				t.mu.Unlock()
			}
		}
	}
	t.mu.Lock()
	for pid := range t.adopted {
		if !present[pid] {
			delete(t.adopted, pid) // an adopted process is our child until reaped
		}
	}
	for pgid := range t.groups {
		if ended && !groupsSeen[pgid] && !t.livePID[pgid] {
			delete(t.groups, pgid) // only a full scan tells a group is empty
		}
	}
	t.mu.Unlock()
}

// listChildren lists this process's children from /proc/self/task/*/children;
// ok is false when the kernel does not provide those files.
func listChildren() (pids []int, ok bool) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, false
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		if errors.Is(err, os.ErrNotExist) {
			continue // the thread ended, or no CONFIG_PROC_CHILDREN
		}
		if err != nil {
			continue
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

// procStat is what Hermes reads of /proc/PID/stat.
type procStat struct {
	state   byte
	ppid    int
	pgrp    int
	session int
	start   uint64 // field 22, clock ticks after boot
}

func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return procStat{}, fmt.Errorf("read /proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, fmt.Errorf("read /proc/%d/stat: %d fields", pid, len(f))
	}
	var st procStat
	st.state = f[0][0]
	var errs [4]error
	st.ppid, errs[0] = strconv.Atoi(f[1])
	st.pgrp, errs[1] = strconv.Atoi(f[2])
	st.session, errs[2] = strconv.Atoi(f[3])
	st.start, errs[3] = strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return procStat{}, fmt.Errorf("read /proc/%d/stat: %w", pid, err)
	}
	return st, nil
}

// readCmdline is a process's command line; nil while it has none (a process
// in the middle of exec, or a kernel thread).
func readCmdline(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), nil
}

// startedCmdline is the command line of a process just started: exec has
// returned to the parent once the child's descriptors closed, which is before
// the kernel sets the new program's arguments, so an empty read is tried again
// for a few milliseconds.
func startedCmdline(pid int) []string {
	for range 50 {
		if c, err := readCmdline(pid); err != nil || c != nil {
			return c
		}
		time.Sleep(200 * time.Microsecond)
	}
	return nil
}

// readMarker returns the process's HERMES_MCP_RUN, if it has one (only
// processes of this user can be read).
func readMarker(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	key := []byte(markerVar + "=")
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

// listPIDs lists the processes (thread groups) in /proc.
func listPIDs() []int {
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
