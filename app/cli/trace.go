package cli

import (
	"fmt"
	"io"
	"time"
)

// startTrace prints, with HERMES_START_TRACE=1, how long each stage of a
// command took on stderr, from main on: the flags, the stages of opening the
// data dir (app.Open), the command itself, and closing (README, "Start-up").
// What runs before main (the loader, Go's runtime, package initialisers) is
// GODEBUG=inittrace=1's to tell.
type startTrace struct {
	out  io.Writer // nil: no trace
	last time.Time
}

func newStartTrace(env Env) *startTrace {
	t := &startTrace{last: time.Now()}
	if env.Getenv("HERMES_START_TRACE") == "1" {
		t.out = env.Stderr
		fmt.Fprintf(t.out, "start: %-48s %7.2f ms\n", "flags", ms(t.last.Sub(env.Started)))
	}
	return t
}

// stage reports a stage that took took (0: since the last one ended).
func (t *startTrace) stage(name string, took time.Duration) {
	if t.out == nil {
		return
	}
	now := time.Now()
	if took == 0 {
		took = now.Sub(t.last)
	}
	t.last = now
	fmt.Fprintf(t.out, "start: %-48s %7.2f ms\n", name, ms(took))
}

// closing runs close and reports it.
func (t *startTrace) closing(close func() error) {
	t.last = time.Now()
	_ = close()
	t.stage("close", 0)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
