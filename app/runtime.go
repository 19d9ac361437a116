package app

import "runtime/debug"

// GC settings for the interactive app. Every streamed chat request makes the
// official Ollama client allocate an 8 MiB line buffer; with Go's default
// (GOGC=100) and Hermes' ≈ 10 MB of live heap that starts a collection every other
// turn, and on a 2-core laptop the collection competes with the stream it was
// started by. 300 collects a quarter as often (SendMessage → first delta: 2.1 →
// 1.7 ms p50 on the 2-core development machine); the soft limit makes the
// collector work harder only if the heap ever grows large.
const (
	gcPercent   = 300
	memoryLimit = 1 << 30
)

// TuneRuntime applies the GC settings, unless GOGC or GOMEMLIMIT is set in the
// environment (those win), and returns a function that restores the previous ones.
// The process entry calls it once; benchmarks call it to measure what runs.
func TuneRuntime(getenv func(string) string) (restore func()) {
	prevPercent, prevLimit := -2, int64(-1)
	if getenv("GOGC") == "" {
		prevPercent = debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		prevLimit = debug.SetMemoryLimit(memoryLimit)
	}
	return func() {
		if prevPercent != -2 {
			debug.SetGCPercent(prevPercent)
		}
		if prevLimit >= 0 {
			debug.SetMemoryLimit(prevLimit)
		}
	}
}
