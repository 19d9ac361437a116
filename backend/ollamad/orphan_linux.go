//go:build linux

package ollamad

// What a Hermes killed with SIGKILL leaves of the Ollama it started. The
// parent-death signal ends `ollama serve`, but not its runners: Ollama starts
// each with its own environment, in its process group, with no parent-death
// signal (llm/server.go, 0.17.4), and a runner holds the loaded model's memory.
// So, on Linux:
//
//  1. the serve Hermes starts, and through inheritance its runners, carry
//     HERMES_OLLAMA_RUN=<pid ns>:<Hermes pid>:<Hermes start time>:<run>;
//  2. while they run, the serves are recorded in <data dir>/ollama-pids/
//     <Hermes pid>-<start>.json (proc.WriteRecords);
//  3. before it starts one, a Daemon stops what Hermes processes that are gone
//     left (Recorder.Sweep: their recorded serve, and every process with their
//     marker), as does the window or web mode once it runs; when a serve ends,
//     the runners it left are stopped.
//
// docs/architecture.md, "Connecting to Ollama", and backend/proc's records.

import (
	"log/slog"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"sync"

	"hermes/backend/proc"
)

// markerVar is the environment variable that marks the Ollama Hermes started
// and its runners.
const markerVar = "HERMES_OLLAMA_RUN"

// Recorder keeps the record of the servers the Daemons of one data dir
// started (a Daemon replaced by a settings change may still run one).
type Recorder struct {
	dir string
	log *slog.Logger

	mu   sync.Mutex
	live map[string]proc.Record // by marker
}

// NewRecorder keeps its record in dir; log, if not nil, says what a sweep stops.
func NewRecorder(dir string, log *slog.Logger) *Recorder {
	return &Recorder{dir: dir, log: log, live: map[string]proc.Record{}}
}

// Sweep stops what Hermes processes that are gone left of the Ollama servers
// they started (proc.Sweep); a nil Recorder does nothing.
func (r *Recorder) Sweep() {
	if r != nil {
		proc.Sweep(r.dir, markerVar, proc.Self(), r.log)
	}
}

// mark marks cmd and returns the marker's value ("" for a nil Recorder, which
// keeps nothing).
func (r *Recorder) mark(cmd *exec.Cmd) string {
	if r == nil {
		return ""
	}
	run := proc.Self().Prefix() + strconv.FormatUint(rand.Uint64(), 36)
	cmd.Env = append(cmd.Env, markerVar+"="+run)
	return run
}

// started records the serve with pid, marked run.
func (r *Recorder) started(pid int, run string) {
	if r == nil {
		return
	}
	st, err := proc.ReadStat(pid)
	if err != nil {
		return // gone already; ended follows
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[run] = proc.Record{PID: pid, Start: st.Start, Cmdline: proc.StartedCmdline(pid), Run: run}
	r.saveLocked()
}

// ended forgets the serve marked run, which has exited, and stops the runners
// it left.
func (r *Recorder) ended(run string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	delete(r.live, run)
	r.saveLocked()
	r.mu.Unlock()
	proc.KillMarked(markerVar, func(v string) bool { return v == run }, nil)
}

func (r *Recorder) saveLocked() {
	rs := proc.Records{Owner: proc.Self()}
	for _, rec := range r.live {
		rs.Children = append(rs.Children, rec)
	}
	if err := proc.WriteRecords(r.dir, rs); err != nil && r.log != nil {
		r.log.Warn("ollama: record of the started servers", "dir", r.dir, "err", err)
	}
}
