package tools

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"
)

// Breaker states as shown to the UI and stored in the audit log.
const (
	BreakerClosed   = "closed"
	BreakerHalfOpen = "half-open"
	BreakerOpen     = "open"
)

// Outcomes reported to a breaker.
var (
	errSlowTimeout = errors.New("timed out after the slow threshold")
	errTimeout     = errors.New("timed out")
	errFailure     = errors.New("failed")
	errCancelled   = errors.New("cancelled by the caller") // excluded: never a failure
)

// BreakerStatus is a tool's breaker as the UI shows it.
type BreakerStatus struct {
	Tool                string    `json:"tool"`
	State               string    `json:"state"`
	ConsecutiveFailures int       `json:"consecutive_failures"`
	ConsecutiveTimeouts int       `json:"consecutive_timeouts"` // slow ones only
	OpenedAt            time.Time `json:"opened_at,omitzero"`
	RetryAt             time.Time `json:"retry_at,omitzero"` // when an open breaker lets a probe through
}

// breaker is one tool's circuit breaker: gobreaker's state machine with a trip
// rule that counts slow timeouts apart from other failures.
type breaker struct {
	name    string
	cb      *gobreaker.TwoStepCircuitBreaker[struct{}]
	slow    atomic.Int32 // consecutive slow timeouts
	openFor time.Duration

	mu       sync.Mutex
	openedAt time.Time
	pending  []transition // state changes not yet told to the listener
}

type transition struct{ from, to string }

func newBreaker(name string, cfg Config, now func() time.Time) *breaker {
	b := &breaker{name: name, openFor: cfg.OpenFor}
	b.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        name,
		MaxRequests: 1,
		Timeout:     cfg.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return int(c.ConsecutiveFailures) >= cfg.TripFailures || int(b.slow.Load()) >= cfg.TripTimeouts
		},
		IsExcluded: func(err error) bool { return errors.Is(err, errCancelled) },
		IsSuccessful: func(err error) bool {
			if errors.Is(err, errSlowTimeout) {
				b.slow.Add(1)
			} else {
				b.slow.Store(0)
			}
			return err == nil
		},
		// Called with gobreaker's lock held: only note the change here.
		OnStateChange: func(_ string, from, to gobreaker.State) {
			b.slow.Store(0)
			b.mu.Lock()
			if to == gobreaker.StateOpen {
				b.openedAt = now()
			}
			b.pending = append(b.pending, transition{from.String(), to.String()})
			b.mu.Unlock()
		},
	})
	return b
}

// state is the breaker's state now (an open breaker past its time reads half-open).
func (b *breaker) state() string { return b.cb.State().String() }

// allow asks to make a call; done reports its outcome. ok is false while open.
func (b *breaker) allow() (done func(error), ok bool) {
	done, err := b.cb.Allow()
	return done, err == nil
}

// flush tells fn about the state changes since the last flush, outside any lock.
func (b *breaker) flush(fn func(tool, from, to string)) {
	b.mu.Lock()
	p := b.pending
	b.pending = nil
	b.mu.Unlock()
	if fn == nil {
		return
	}
	for _, t := range p {
		fn(b.name, t.from, t.to)
	}
}

func (b *breaker) status() BreakerStatus {
	st := BreakerStatus{Tool: b.name, State: b.state(),
		ConsecutiveFailures: int(b.cb.Counts().ConsecutiveFailures), ConsecutiveTimeouts: int(b.slow.Load())}
	if st.State == BreakerOpen {
		b.mu.Lock()
		st.OpenedAt = b.openedAt
		b.mu.Unlock()
		st.RetryAt = st.OpenedAt.Add(b.openFor)
	}
	return st
}
