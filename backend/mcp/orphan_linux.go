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
//  4. each Manager keeps its running servers in <data dir>/mcp-pids through a
//     proc.Recorder (one file per Hermes process, the marker recorded before
//     the server starts), as Ollama and the command tools keep theirs; a
//     Manager that starts stops what Hermes processes that are gone left.
//
// What stays here is the subreaper's part, which belongs to the OS process and
// not to one Manager: the runs this process started and their groups, and the
// orphans it adopted.

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hermes/backend/proc"
)

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

// procRecord is one running server in a record file.
type procRecord = proc.Record

// tracker is the process-wide view of the servers this Hermes started: the
// process tree and the subreaper flag belong to the OS process, not to one
// Manager.
type tracker struct {
	self procOwner

	mu        sync.Mutex
	live      map[string]int  // running servers' pids by run
	starting  map[string]bool // runs handed out whose process is not tracked yet
	livePID   map[int]bool    // their pids: os/exec waits for them, never us
	subreaper bool
	adopted   map[int]uint64 // orphans of our servers re-parented to us, seen alive: pid -> start
	groups    map[int]bool   // process groups of our servers, while they have members
	sweeping  bool
	// sweepEvery is how often, while Hermes is a subreaper and runs servers, it
	// looks for its servers' orphans (to learn them while they live, and to
	// reap them once they exit).
	sweepEvery time.Duration
}

var procs = sync.OnceValue(func() *tracker {
	return &tracker{self: procOwner(proc.Self()), live: map[string]int{}, starting: map[string]bool{}, livePID: map[int]bool{},
		adopted: map[int]uint64{}, groups: map[int]bool{}, sweepEvery: 500 * time.Millisecond}
})

// newRecords is a Manager's record of its running servers, in dataDir's
// mcp-pids folder: what the servers leave is killed (and, ours, reaped) when
// each ends.
func newRecords(dataDir string, log *slog.Logger) *proc.Recorder {
	return proc.NewRecorder(filepath.Join(dataDir, recordDirName), markerVar, proc.Whole, log).Reaping(procs().reapKilled)
}

// newRun marks cmd, a server about to start, through its Manager's record
// (the marker is recorded at once); trackStart or forgetRun follows.
func newRun(rec *proc.Recorder, cmd *exec.Cmd) string {
	run := rec.Mark(cmd)
	t := procs()
	t.mu.Lock()
	t.starting[run] = true
	t.mu.Unlock()
	return run
}

// forgetRun drops the marker of a server that could not start.
func forgetRun(rec *proc.Recorder, run string) {
	t := procs()
	t.mu.Lock()
	delete(t.starting, run)
	t.mu.Unlock()
	rec.Ended(run)
}

// trackStart records a server that started.
func trackStart(rec *proc.Recorder, p *process) {
	rec.Started(p.pid, p.run)
	t := procs()
	t.mu.Lock()
	delete(t.starting, p.run)
	t.live[p.run] = p.pid
	t.livePID[p.pid] = true
	t.groups[p.pid] = true
	t.mu.Unlock()
	t.ensureSweeper()
}

// trackEnd runs once the server is reaped: it forgets the server and stops
// what the server left (the record's end kills the processes with its
// marker; as a subreaper, its group's members re-parented to us go too).
func trackEnd(rec *proc.Recorder, p *process) {
	t := procs()
	t.mu.Lock()
	delete(t.live, p.run)
	delete(t.livePID, p.pid)
	t.mu.Unlock()
	rec.Ended(p.run)
	t.reapGroup(p.pid)
}

// killEndedRuns is a Manager's close, after its servers stopped: it kills what
// ended runs of this process left (a descendant that forked away while its
// server's end was being cleaned up).
func killEndedRuns() {
	t := procs()
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
