//go:build linux

package mcp

// Orphans. A server may leave processes behind: a grandchild that double-forks
// (setsid) leaves the server's process group, and a Hermes killed with SIGKILL
// stops nothing. backend/proc holds the general part (the parent-death signal,
// markers, record files and the sweep at start); here is what MCP keeps of its
// own servers. On Linux:
//
//  1. every server gets SIGKILL when Hermes dies (proc.Prepare and proc.Run);
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
//  4. each Hermes process keeps its running servers in
//     <data dir>/mcp-pids/<pid>-<start>.json (proc.WriteRecords); a Manager that
//     starts stops what Hermes processes that are gone left (proc.Sweep).

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/proc"
)

// markerVar is the environment variable that marks a server's descendants.
const markerVar = "HERMES_MCP_RUN"

// recordDirName is the folder of the data dir with one record file per Hermes
// process that runs servers.
const recordDirName = "mcp-pids"

// BecomeSubreaper makes this process a child subreaper (Linux): the orphans of
// the MCP servers it starts are re-parented to it instead of init, so a Manager
// can still find and stop them, and reaps them. Call it once, early in main or
// the composition root, before starting servers. Elsewhere it does nothing.
func BecomeSubreaper() error { return setSubreaper(true) }

func setSubreaper(on bool) error {
	if err := proc.SetSubreaper(on); err != nil {
		return err
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

// procOwner identifies a Hermes process across its life.
type procOwner proc.Owner

// prefix starts the marker of every run of the owner.
func (o procOwner) prefix() string { return proc.Owner(o).Prefix() }

// procRecord is one running server.
type procRecord = proc.Record

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
	return &tracker{self: procOwner(proc.Self()), live: map[string]procRecord{}, starting: map[string]bool{}, livePID: map[int]bool{},
		dirs: map[string]*recordDir{}, adopted: map[int]uint64{}, groups: map[int]bool{}, sweepEvery: 500 * time.Millisecond}
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
	st, err := proc.ReadStat(p.pid)
	cmdline := proc.StartedCmdline(p.pid)
	t.mu.Lock()
	delete(t.starting, p.run)
	if err != nil {
		t.mu.Unlock()
		return // it is gone already; reap handles the rest
	}
	t.live[p.run] = procRecord{PID: p.pid, Start: st.Start, Cmdline: cmdline, Run: p.run}
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
	proc.Sweep(dir, markerVar, proc.Owner(t.self), log)
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
		_ = os.Remove(proc.RecordPath(dir, proc.Owner(t.self)))
		t.writeMu.Unlock()
	}
}

// save writes this process's record into every attached folder (or removes it
// when no server runs).
func (t *tracker) save() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	rs := proc.Records{Owner: proc.Owner(t.self)}
	for _, r := range t.live {
		rs.Children = append(rs.Children, r)
	}
	dirs := make(map[string]*slog.Logger, len(t.dirs))
	for dir, d := range t.dirs {
		dirs[dir] = d.log
	}
	t.mu.Unlock()
	for dir, log := range dirs {
		if err := proc.WriteRecords(dir, rs); err != nil && log != nil {
			log.Warn("mcp: record of running servers", "file", proc.RecordPath(dir, rs.Owner), "err", err)
		}
	}
}

// killRuns kills every process whose marker matches, until none is left, and
// reaps those that are our children.
func (t *tracker) killRuns(match func(run string) bool) {
	proc.KillMarked(markerVar, match, t.reapKilled)
}

// reapKilled waits (briefly) for processes we just killed that are our
// children; the others are someone else's to reap.
func (t *tracker) reapKilled(pids []int) {
	t.mu.Lock()
	for _, pid := range pids {
		delete(t.adopted, pid)
	}
	t.mu.Unlock()
	proc.Reap(pids, time.Second)
}

// reapGroup, for a subreaper, kills and reaps the members of an ended server's
// process group that were re-parented to us; members elsewhere in the tree are
// the sweeper's to reap if they come to us.
func (t *tracker) reapGroup(pgid int) {
	t.mu.Lock()
	sub := t.subreaper
	t.mu.Unlock()
	if !sub || proc.ReapGroup(pgid, time.Second) {
		t.mu.Lock()
		delete(t.groups, pgid)
		t.mu.Unlock()
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
	pids, children := proc.Children()
	if !children || ended {
		pids = proc.PIDs()
	}
	present := map[int]bool{} // pids that exist
	groupsSeen := map[int]bool{}
	for _, pid := range pids {
		st, err := proc.ReadStat(pid)
		if err != nil {
			continue
		}
		present[pid] = true
		groupsSeen[st.PGRP] = true
		if st.PPID != self {
			continue
		}
		t.mu.Lock()
		start, adopted := t.adopted[pid]
		ours := !t.livePID[pid] && (adopted && start == st.Start || t.groups[st.PGRP])
		known := t.livePID[pid] || adopted
		t.mu.Unlock()
		if st.State == 'Z' {
			if ours {
				proc.Reap([]int{pid}, 0)
				t.mu.Lock()
				delete(t.adopted, pid)
				t.mu.Unlock()
			}
			continue
		}
		if !known {
			if run, ok := proc.Getenv(pid, markerVar); ok && strings.HasPrefix(run, prefix) {
				t.mu.Lock()
				t.adopted[pid] = st.Start
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
