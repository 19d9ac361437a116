//go:build !linux

package proc

import (
	"log/slog"
	"os/exec"
)

// Scope says what belongs to a recorded child (recorder_linux.go).
type Scope int

// The scopes (recorder_linux.go).
const (
	Whole Scope = iota
	InFlight
)

// Recorder keeps no records off Linux, where the processes of a Hermes that
// is gone cannot be told (recorder_linux.go).
type Recorder struct{}

// NewRecorder returns a Recorder that keeps nothing.
func NewRecorder(string, string, Scope, *slog.Logger) *Recorder { return &Recorder{} }

// Reaping returns r: off Linux nothing is killed to reap.
func (r *Recorder) Reaping(func([]int)) *Recorder { return r }

// Sweep does nothing off Linux.
func (*Recorder) Sweep() {}

// Mark marks nothing off Linux.
func (*Recorder) Mark(*exec.Cmd) string { return "" }

// Started does nothing off Linux.
func (*Recorder) Started(int, string) {}

// Ended does nothing off Linux.
func (*Recorder) Ended(string) {}
