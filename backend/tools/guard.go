package tools

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Loop guard limits.
const (
	DefaultMaxIterations   = 5
	HardMaxIterations      = 10 // no setting goes above it
	DefaultMaxIdentical    = 3
	DefaultMaxConsecFailed = 3
)

// GuardConfig sets the loop guard's limits; zero values take the defaults.
type GuardConfig struct {
	MaxIterations   int // model<->tool rounds per turn; clamped to 1..HardMaxIterations
	MaxIdentical    int // the same call (name + canonical arguments) at most this often
	MaxConsecFailed int // stop after this many failed calls in a row
}

func (c GuardConfig) withDefaults() GuardConfig {
	if c.MaxIterations <= 0 {
		c.MaxIterations = DefaultMaxIterations
	}
	c.MaxIterations = min(c.MaxIterations, HardMaxIterations)
	if c.MaxIdentical <= 0 {
		c.MaxIdentical = DefaultMaxIdentical
	}
	if c.MaxConsecFailed <= 0 {
		c.MaxConsecFailed = DefaultMaxConsecFailed
	}
	return c
}

// Reasons a guard stops a turn.
const (
	StopMaxIterations       = "max_iterations"
	StopConsecutiveFailures = "consecutive_failures"
)

// StopReason says why the guard stopped a turn; the UI shows it on a card with
// "continue once".
type StopReason struct {
	Kind       string `json:"kind"`    // StopMaxIterations or StopConsecutiveFailures
	Message    string `json:"message"` // for the user
	Iterations int    `json:"iterations"`
	Failures   int    `json:"failures"`
	LastTool   string `json:"last_tool,omitempty"`
}

// Guard keeps one turn from running away: it caps the model<->tool rounds, blocks
// a call repeated too often and stops after a run of failures. Safe for
// concurrent use.
type Guard struct {
	cfg GuardConfig

	mu         sync.Mutex
	iterations int
	extra      int // rounds granted by ContinueOnce
	failures   int // in a row
	lastTool   string
	seen       map[string]int // name + canonical args -> times called
	stop       *StopReason
}

// NewGuard returns a guard for one turn.
func NewGuard(cfg GuardConfig) *Guard {
	return &Guard{cfg: cfg.withDefaults(), seen: map[string]int{}}
}

// Config is the guard's effective limits.
func (g *Guard) Config() GuardConfig { return g.cfg }

// StartIteration counts one round of tool calls. It returns a StopReason when the
// round is one too many (or the turn is already stopped); the calls must not run.
func (g *Guard) StartIteration() *StopReason {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stop != nil {
		return g.stop
	}
	if g.iterations >= g.cfg.MaxIterations+g.extra {
		g.stop = &StopReason{Kind: StopMaxIterations, Iterations: g.iterations, Failures: g.failures, LastTool: g.lastTool,
			Message: fmt.Sprintf("Stopped after %d rounds of tool calls without a final answer.", g.iterations)}
		return g.stop
	}
	g.iterations++
	return nil
}

// Admit counts a call; it returns false with a corrective message for the model
// when the identical call was already made MaxIdentical times this turn.
func (g *Guard) Admit(name string, args json.RawMessage) (bool, string) {
	key := name + "\x00" + string(canonicalRaw(args))
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen[key]++
	if n := g.seen[key]; n > g.cfg.MaxIdentical {
		return false, fmt.Sprintf("You already called %s with these exact arguments %d times in this turn. "+
			"Do not call it again with the same arguments: use the results you already have, change the arguments, "+
			"or tell the user what is missing.", name, n-1)
	}
	return true, ""
}

// Record notes how a call ended (in the model's order). It returns a StopReason
// once MaxConsecFailed calls in a row have failed.
func (g *Guard) Record(o Outcome) *StopReason {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lastTool = o.Tool
	switch {
	case o.Failed():
		g.failures++
	case o.OK():
		g.failures = 0
	}
	if g.stop == nil && g.failures >= g.cfg.MaxConsecFailed {
		g.stop = &StopReason{Kind: StopConsecutiveFailures, Iterations: g.iterations, Failures: g.failures, LastTool: o.Tool,
			Message: fmt.Sprintf("Stopped after %d tool calls in a row failed (the last one: %s).", g.failures, o.Tool)}
	}
	return g.stop
}

// Stopped is the reason the turn was stopped, or nil.
func (g *Guard) Stopped() *StopReason {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stop
}

// ContinueOnce is the user's "continue once": it clears the stop and the failure
// run and grants one more round.
func (g *Guard) ContinueOnce() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stop = nil
	g.failures = 0
	if g.iterations >= g.cfg.MaxIterations+g.extra {
		g.extra = g.iterations - g.cfg.MaxIterations + 1
	}
}
