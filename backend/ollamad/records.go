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

	"hermes/backend/proc"
)

// markerVar is the environment variable that marks the Ollama Hermes started
// and its runners.
const markerVar = "HERMES_OLLAMA_RUN"

// NewRecorder keeps the record of the servers the Daemons of one data dir
// start (a Daemon replaced by a settings change may still run one) in dir;
// a server's runners are its own (proc.Whole). log, if not nil, says what a
// sweep stops.
func NewRecorder(dir string, log *slog.Logger) *proc.Recorder {
	return proc.NewRecorder(dir, markerVar, proc.Whole, log)
}
