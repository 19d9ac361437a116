package agent

import (
	"context"
	"fmt"
	"sync/atomic"

	"hermes/backend/session"
)

// classification runs the classifier once, on whichever goroutine gets to it first:
// the one started with the turn, or the turn itself when that goroutine has not
// started by the time the label is needed (on a busy machine a hand-off between
// goroutines costs more than the classification).
type classification struct {
	claimed atomic.Bool
	done    chan classified
	run     func() classified
}

type classified struct {
	label string
	conf  float32
}

func (a *Agent) startClassification(ctx context.Context, text string) *classification {
	c := &classification{done: make(chan classified, 1)}
	c.run = func() classified {
		label, conf := a.classify(ctx, text)
		return classified{label, conf}
	}
	go c.claim()
	return c
}

func (c *classification) claim() {
	if c.claimed.CompareAndSwap(false, true) {
		c.done <- c.run()
	}
}

// result is the label, classifying now if no goroutine has begun to.
func (c *classification) result() (string, float32) {
	c.claim()
	r := <-c.done
	return r.label, r.conf
}

// pendingCommit is the user's message being committed beside the model request.
type pendingCommit struct {
	ch   chan error
	msg  session.Message
	err  error
	done bool
}

// commitInBackground appends m; a failure calls stop (which cancels the request).
func (a *Agent) commitInBackground(ctx context.Context, m session.Message, stop context.CancelCauseFunc) *pendingCommit {
	p := &pendingCommit{ch: make(chan error, 1)}
	go func() {
		stored, err := a.Sessions.Append(ctx, m)
		if err != nil {
			err = fmt.Errorf("turn: %w", err)
			stop(err)
		}
		p.msg = stored
		p.ch <- err
	}()
	return p
}

// wait returns the stored message once it has committed. It is called from the
// turn's goroutine only.
func (p *pendingCommit) wait() (session.Message, error) {
	if !p.done {
		p.err, p.done = <-p.ch, true
	}
	return p.msg, p.err
}
