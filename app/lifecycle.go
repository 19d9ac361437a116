package app

import (
	"context"
	"fmt"
	"time"

	"hermes/backend/config"
	"hermes/backend/session"
)

// closeHook titles and summarises a conversation that went idle, with the one
// summariser (never during a sweep that must not ask the model).
func (c *Core) closeHook(ctx context.Context, s session.Session, msgs []session.Message) (string, string, error) {
	if ctx.Value(noModelKey{}) != nil {
		return "", "", fmt.Errorf("close session: no model answers")
	}
	return c.summary.Close(ctx, s, msgs)
}

// Sweep applies the session lifecycle once: idle after idle_timeout (summarized and
// titled), archived a week later.
func (c *Core) Sweep(ctx context.Context) (int, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return 0, err
	}
	return c.lifecycle(s).Sweep(ctx, c.sessions.Now())
}

// lifecycle is the conversations' lifecycle under settings s.
func (c *Core) lifecycle(s config.Settings) *session.Lifecycle {
	return &session.Lifecycle{Store: c.sessions, IdleAfter: s.IdleTimeout, ArchiveAfter: s.ArchiveAfter, Close: c.closeHook,
		Archived: func(ctx context.Context, id string) {
			if m, err := c.memoryStore(); err == nil {
				m.EndSession(ctx, id)
			}
		}}
}

// sweepAtClose applies the due lifecycle work when a command closes the data
// dir, so that every door applies it; the window and web mode sweep at start
// and every minute instead (RunMaintenance). It runs after the command, on the
// connection the command used: run beside it, it opened a second connection
// to the file (reading its schema again), a tenth of a short command's time
// (BenchmarkSessionListProcess, app/cli). The model titles and summarises only
// when an Ollama already answers; otherwise the extractive summary serves, as
// when Ollama is away.
func (c *Core) sweepAtClose() {
	if c.maintained.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.settings.Load(ctx)
	if err != nil {
		return
	}
	// Ollama is looked for only when a conversation is due to close (a
	// command that reads, on a data dir with nothing due, connects nowhere).
	if due, err := c.lifecycle(s).Due(ctx, c.sessions.Now()); err != nil || !due || !c.answers(s.OllamaHost)(ctx) {
		ctx = context.WithValue(ctx, noModelKey{}, true)
	}
	_, _ = c.Sweep(ctx)
}

// noModelKey marks a sweep that must not ask the model (nor start Ollama).
type noModelKey struct{}

// RunMaintenance sweeps now and then every interval until ctx ends (desktop and
// web mode), keeps the knowledge base current (Knowledge.Run), and scrubs the file after erasures that could not be checkpointed
// at once (another process was reading): "scrub:done" tells the UI.
func (c *Core) RunMaintenance(ctx context.Context, every time.Duration) {
	c.maintained.Store(true)
	go c.kb.Run(ctx)
	c.ollamaRecords.Sweep() // the Ollama runners a killed Hermes left hold a model's memory
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_, _ = c.Sweep(ctx)
		c.retryScrubs(ctx)
		_ = c.saveUnsaved(ctx, "") // when the disk has room again
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// retryScrubs completes erasures that wait for a checkpoint.
func (c *Core) retryScrubs(ctx context.Context) {
	if ids, err := c.db.RetryScrubs(ctx); err == nil && len(ids) > 0 {
		send(c.emitEvent, evScrubDone, ids)
	}
}
