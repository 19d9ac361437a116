package mcp

import (
	"context"
	"os"
	"time"
)

// stamp is what the watcher compares to notice an edit.
type stamp struct {
	exists bool
	mod    time.Time
	size   int64
}

func stampOf(file string) stamp {
	fi, err := os.Stat(file)
	if err != nil {
		return stamp{}
	}
	return stamp{exists: true, mod: fi.ModTime(), size: fi.Size()}
}

// watch polls the config file and reloads it when its modification time or size
// changes, until ctx ends.
func (m *Manager) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(m.opts.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		m.mu.Lock()
		last := m.stamp
		m.mu.Unlock()
		now := stampOf(m.opts.ConfigPath)
		if now == last {
			continue
		}
		// An editor that truncates and rewrites in place shows an empty or
		// partial file for a moment: reload only once the file holds still.
		if !settled(ctx, m.opts.ConfigPath, now, min(m.opts.PollInterval, 100*time.Millisecond)) {
			continue
		}
		if err := m.Reload(ctx); err != nil && ctx.Err() == nil {
			m.opts.Logger.Warn("mcp: reload config", "file", m.opts.ConfigPath, "err", err)
		}
	}
}

// settled reports whether the file still has stamp st after d.
func settled(ctx context.Context, file string, st stamp, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	}
	return stampOf(file) == st
}
