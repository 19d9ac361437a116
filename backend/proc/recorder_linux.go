package proc

import (
	"log/slog"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Scope says what belongs to a recorded child: what a Recorder stops when
// the child ends and when the Hermes that started it is gone.
type Scope int

const (
	// Whole: everything the child started, wherever it went (every process
	// carrying its marker) belongs to it, and goes when it ends or when its
	// Hermes is gone: the Ollama server and its runners.
	Whole Scope = iota
	// InFlight: only what runs while the child runs is its own; what it left
	// behind on purpose when it ended normally (an editor a command opened)
	// stays, and a sweep stops only the children that were running when their
	// Hermes died, and what carries their marker: the command tools.
	InFlight
)

// Recorder keeps the record of the children of one kind this Hermes starts
// (dir: one file per Hermes process; marker: the environment variable that
// marks them and everything they start) so that a later Hermes stops what a
// killed one left (records_linux.go). A nil Recorder keeps nothing.
type Recorder struct {
	dir, marker string
	scope       Scope
	log         *slog.Logger
	swept       atomic.Bool // a Sweep ran (Mark sweeps first otherwise)

	reap func(pids []int) // hears what Ended killed (Reaping)

	mu   sync.Mutex
	live map[string]Record // by marker value
}

// NewRecorder keeps its record in dir and marks children with marker; log, if
// not nil, says what a sweep stops.
func NewRecorder(dir, marker string, scope Scope, log *slog.Logger) *Recorder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Recorder{dir: dir, marker: marker, scope: scope, log: log, live: map[string]Record{}}
}

// Reaping has reap hear the pids Ended kills, for a caller that must reap
// them (a subreaper, to whom orphans come back); it returns r.
func (r *Recorder) Reaping(reap func(pids []int)) *Recorder {
	r.reap = reap
	return r
}

// Sweep stops what Hermes processes that are gone left of the children they
// recorded here (with Whole, every process carrying one of their markers; with
// InFlight, those carrying the marker of a child that was running).
func (r *Recorder) Sweep() {
	if r == nil {
		return
	}
	r.swept.Store(true)
	if r.scope == Whole {
		Sweep(r.dir, r.marker, Self(), r.log)
		return
	}
	sweepRecords(r.dir, r.marker, Self(), r.log, func(rs Records) func(string) bool {
		runs := map[string]bool{}
		for _, c := range rs.Children {
			runs[c.Run] = c.Run != ""
		}
		return func(v string) bool { return runs[v] }
	})
}

// Mark marks cmd (before it starts), records the marker at once (so what the
// child starts is known even if Hermes dies before Started), and returns the
// marker's value; Ended must follow, whether the child started or not. A
// Recorder that has not swept yet sweeps first.
func (r *Recorder) Mark(cmd *exec.Cmd) string {
	if r == nil {
		return ""
	}
	if !r.swept.Load() {
		r.Sweep()
	}
	run := Self().Prefix() + strconv.FormatUint(rand.Uint64(), 36)
	if cmd.Env == nil {
		cmd.Env = cmd.Environ()
	}
	cmd.Env = append(cmd.Env, r.marker+"="+run)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[run] = Record{Run: run} // no pid yet: a sweep finds it by its marker
	r.saveLocked()
	return run
}

// Started records the pid of the child marked run.
func (r *Recorder) Started(pid int, run string) {
	if r == nil || run == "" {
		return
	}
	st, err := ReadStat(pid)
	if err != nil {
		return // gone already; Ended follows
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[run] = Record{PID: pid, Start: st.Start, Cmdline: StartedCmdline(pid), Run: run}
	r.saveLocked()
}

// Ended forgets the child marked run, which has exited; with Whole it stops
// what the child left running.
func (r *Recorder) Ended(run string) {
	if r == nil || run == "" {
		return
	}
	r.mu.Lock()
	delete(r.live, run)
	r.saveLocked()
	r.mu.Unlock()
	if r.scope == Whole {
		KillMarked(r.marker, func(v string) bool { return v == run }, r.reap)
	}
}

func (r *Recorder) saveLocked() {
	rs := Records{Owner: Self()}
	for _, rec := range r.live {
		rs.Children = append(rs.Children, rec)
	}
	if err := WriteRecords(r.dir, rs); err != nil {
		r.log.Warn("record of the running children", "dir", r.dir, "marker", r.marker, "err", err)
	}
}

// byPrefix matches the marker values of the Hermes that wrote rs.
func byPrefix(rs Records) func(string) bool {
	prefix := rs.Owner.Prefix()
	return func(v string) bool { return strings.HasPrefix(v, prefix) }
}
