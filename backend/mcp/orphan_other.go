//go:build !linux

package mcp

import (
	"log/slog"
	"os/exec"
	"path/filepath"

	"hermes/backend/proc"
)

// BecomeSubreaper makes this process a child subreaper on Linux; elsewhere it
// does nothing.
func BecomeSubreaper() error { return nil }

// newRecords keeps nothing off Linux (proc.Recorder).
func newRecords(dataDir string, log *slog.Logger) *proc.Recorder {
	return proc.NewRecorder(filepath.Join(dataDir, recordDirName), markerVar, proc.Whole, log)
}

func newRun(*proc.Recorder, *exec.Cmd) string { return "" }
func forgetRun(*proc.Recorder, string)        {}
func trackStart(*proc.Recorder, *process)     {}
func trackEnd(*proc.Recorder, *process)       {}
func killEndedRuns()                          {}
