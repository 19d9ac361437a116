//go:build !linux

package ollamad

import (
	"log/slog"
	"os/exec"
)

// Recorder keeps no records off Linux (see orphan_linux.go).
type Recorder struct{}

// NewRecorder returns a Recorder that keeps nothing.
func NewRecorder(string, *slog.Logger) *Recorder { return &Recorder{} }

// Sweep does nothing off Linux.
func (*Recorder) Sweep() {}

func (*Recorder) mark(*exec.Cmd) string { return "" }
func (*Recorder) started(int, string)   {}
func (*Recorder) ended(string)          {}
