package mcp

import (
	"context"
	"fmt"
	"time"
)

// requestTimeout is how long one request of the server may take.
func (s *server) requestTimeout(cfg ServerConfig) time.Duration {
	if cfg.Timeout > 0 {
		return time.Duration(cfg.Timeout)
	}
	return s.m.opts.RequestTimeout
}

// current is the live session, or an error saying why there is none.
func (s *server) current() (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil && s.state == StateReady {
		return s.sess, nil
	}
	msg := fmt.Sprintf("%s is %s", s.name, s.state)
	if s.state == StateBackingOff && !s.retryAt.IsZero() {
		msg += fmt.Sprintf(" (it restarts in %s)", time.Until(s.retryAt).Round(time.Second))
	}
	if s.lastErr != "" {
		msg += "; last error: " + s.lastErr
	}
	return nil, fmt.Errorf("%w: %s", ErrNotRunning, msg)
}

// callTool calls a tool of the server and returns the text the model reads.
func (s *server) callTool(ctx context.Context, remote string, args []byte) (string, error) {
	sess, err := s.current()
	if err != nil {
		return "", fmt.Errorf("call %s: %w", remote, err)
	}
	var onProgress func(Progress)
	if fn := s.m.opts.OnProgress; fn != nil {
		onProgress = func(p Progress) {
			p.Server, p.Tool = s.name, remote
			fn(p)
		}
	}
	res, err := sess.callTool(ctx, s.requestTimeout(s.config()), remote, args, onProgress)
	if err != nil {
		return "", fmt.Errorf("call %s on %s: %w", remote, s.name, err)
	}
	text := resultText(res, s.m.opts.MaxResultBytes)
	if res.IsError {
		return "", &ToolError{Tool: remote, Text: text}
	}
	return text, nil
}

// ping asks the server whether it still answers.
func (s *server) ping(ctx context.Context) error {
	sess, err := s.current()
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return sess.ping(ctx, s.m.opts.pingTimeout())
}

func (s *server) config() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}
