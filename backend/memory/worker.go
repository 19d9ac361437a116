package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"hermes/backend/llm"
)

// Worker runs the memory's background jobs: extraction of observed turns,
// reindexing after the embedder changed, and the periodic decay sweep.
type Worker struct {
	s *Store
	// Poll is how often the queue is checked without a wake-up (default 30 s).
	Poll time.Duration
	// SweepEvery is how often decayed facts are archived (default 1 h).
	SweepEvery time.Duration
}

// Worker returns the worker of s; run one per Store.
func (s *Store) Worker() *Worker {
	return &Worker{s: s, Poll: 30 * time.Second, SweepEvery: time.Hour}
}

// Run works until ctx is cancelled. A job interrupted by the cancellation stays in
// the queue and resumes at the next start.
func (w *Worker) Run(ctx context.Context) error {
	poll := time.NewTicker(w.Poll)
	defer poll.Stop()
	sweep := time.NewTicker(w.SweepEvery)
	defer sweep.Stop()
	sweepAll := func() {
		if _, err := w.s.Sweep(ctx); err != nil {
			w.s.cfg.Logf("memory: %v", err)
		}
		w.verify(ctx)
	}
	sweepAll()
	for {
		n, err := w.s.RunJobs(ctx)
		if err != nil && ctx.Err() == nil {
			w.s.cfg.Logf("memory: %v", err)
		}
		if n > 0 {
			w.verify(ctx) // new pending memories may have a verifier
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.s.wake:
		case <-poll.C:
		case <-sweep.C:
			sweepAll()
		}
	}
}

// verify runs the verifiers over the inbox, logging a failure.
func (w *Worker) verify(ctx context.Context) {
	if _, err := w.s.VerifyPending(ctx); err != nil && ctx.Err() == nil {
		w.s.cfg.Logf("memory: %v", err)
	}
}

// RunJobs processes the jobs that are due, one after another, and returns how many
// finished. A failing job is rescheduled (and logged), not returned as an error.
func (s *Store) RunJobs(ctx context.Context) (int, error) {
	done := 0
	for {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		j, err := s.claim(ctx)
		if err != nil {
			return done, err
		}
		if j == nil {
			return done, nil
		}
		err = s.runJob(ctx, j)
		switch {
		case err == nil:
			if err := s.finish(context.WithoutCancel(ctx), j.ID); err != nil {
				return done, err
			}
			done++
		case ctx.Err() != nil:
			// Shutting down: leave the job running; Open queues it again.
			return done, ctx.Err()
		default:
			s.cfg.Logf("memory: %s job %d failed: %v", j.Kind, j.ID, err)
			if err := s.retryLater(ctx, j, err); err != nil {
				return done, err
			}
		}
	}
}

func (s *Store) runJob(ctx context.Context, j *job) error {
	switch j.Kind {
	case jobObserve:
		return s.runObserve(ctx, j)
	case jobReindex:
		_, err := s.Reindex(ctx, s.cfg.OnProgress)
		return err
	}
	s.cfg.Logf("memory: dropped job %d of unknown kind %q", j.ID, j.Kind)
	return nil
}

// runObserve extracts the facts of a turn (once: the result is kept with the job)
// and writes each candidate at most once.
func (s *Store) runObserve(ctx context.Context, j *job) error {
	var o observation
	if err := json.Unmarshal([]byte(j.Payload), &o); err != nil {
		s.cfg.Logf("memory: dropped observe job %d: bad payload: %v", j.ID, err)
		return nil
	}
	var facts []extracted
	if j.Result.Valid {
		if err := json.Unmarshal([]byte(j.Result.String), &facts); err != nil {
			return fmt.Errorf("read extraction of job %d: %w", j.ID, err)
		}
	} else {
		var err error
		facts, err = s.extract(ctx, o, s.knownFacts(ctx, o))
		if isInvalidOutput(err) {
			s.cfg.Logf("memory: dropped the extraction of job %d after a retry: %v", j.ID, err)
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.saveResult(ctx, j.ID, facts); err != nil {
			return err
		}
	}
	var added, pending, reinforcedIDs, superseded []string
	for i, c := range facts {
		f := fact{Profile: o.Profile, SessionID: o.SessionID, Layer: LayerFact, Text: c.Text, Key: c.Key, Value: c.Value,
			Category: c.Category, Confidence: c.Confidence, AssertedBy: AssertedByUser, Origin: OriginChat,
			Supersedes: c.Supersedes, Explicit: o.Explicit}
		if o.UserMessageID != "" {
			f.Sources = []string{o.UserMessageID}
		}
		if c.Scope == "session" {
			f.Layer = LayerWorking
		}
		if c.Asserted == "inferred" {
			f.AssertedBy = AssertedByModel
		}
		if c.ValidUntil != "" {
			f.ValidUntil, _ = parseDay(c.ValidUntil)
		}
		w, err := s.write(ctx, f, &idemKey{job: j.ID, candidate: i})
		if err != nil && !errors.Is(err, ErrInvalid) {
			return err
		}
		if err != nil {
			s.cfg.Logf("memory: job %d dropped candidate %d: %v", j.ID, i+1, err)
		}
		switch w.Action {
		case "added":
			added = append(added, w.Memory.ID)
		case "pending":
			pending = append(pending, w.Memory.ID)
		case "reinforced":
			reinforcedIDs = append(reinforcedIDs, w.Memory.ID)
		}
		superseded = append(superseded, w.Superseded...)
		if s.afterCandidate != nil {
			if err := s.afterCandidate(j.ID, i); err != nil {
				return err
			}
		}
	}
	base := Change{Profile: o.Profile, SessionID: o.SessionID, MessageID: o.UserMessageID}
	for _, k := range []struct {
		kind string
		ids  []string
	}{{"added", added}, {"pending", pending}, {"reinforced", reinforcedIDs}, {"superseded", superseded}} {
		c := base
		c.Kind, c.IDs = k.kind, k.ids
		s.emit(c)
	}
	return nil
}

// errorKind names an error without its text (job rows keep no conversation text).
func errorKind(err error) string {
	switch {
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrOverloaded):
		return "unavailable"
	case errors.Is(err, llm.ErrModelNotFound):
		return "model not found"
	case errors.Is(err, llm.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, errInvalidOutput):
		return "invalid output"
	}
	return "internal"
}
