package toolfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"hermes/backend/proc"
)

// commandExec runs a program with an argv built from the arguments: never a
// shell, so an argument is always one argv entry, whatever it contains.
type commandExec struct {
	path string     // argv[0], resolved at load
	argv []template // argv[1:]
	env  []string   // the whole environment of the child
	dir  string
	rec  *proc.Recorder
}

// limitedBuffer keeps the first max bytes and counts the rest.
type limitedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := l.max - l.buf.Len(); room < n {
		keep := max(room, 0)
		l.dropped += n - keep
		p = p[:keep]
	}
	l.buf.Write(p)
	return n, nil
}

func (c *commandExec) run(ctx context.Context, args map[string]json.RawMessage) (json.RawMessage, error) {
	argv := make([]string, len(c.argv))
	for i, t := range c.argv {
		argv[i] = t.render(args, nil)
	}
	cmd := exec.CommandContext(ctx, c.path, argv...)
	cmd.Env = c.env
	cmd.Dir = c.dir
	cmd.Stdin = nil // the null device
	stdout := &limitedBuffer{max: maxResponse}
	stderr := &limitedBuffer{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second
	// Its own process group, killed whole when the call ends early, so no
	// grandchild is left behind; SIGKILL if Hermes dies while it runs, and
	// what it started then stopped by the next Hermes (c.rec).
	proc.Prepare(cmd)
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return proc.KillGroup(cmd.Process.Pid)
	}
	run := c.rec.Mark(cmd)
	err := proc.Run(cmd, func(err error) {
		if err == nil {
			c.rec.Started(cmd.Process.Pid, run)
		}
	})
	c.rec.Ended(run)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		msg := strings.TrimSpace(toValidUTF8(tail(stderr.buf.Bytes(), 500)))
		if msg == "" {
			msg = "(no error output)"
		}
		return nil, fmt.Errorf("%s exited with status %d: %s", c.path, exitErr.ExitCode(), msg)
	case err != nil:
		return nil, fmt.Errorf("run %s: %w", c.path, err)
	}
	if stdout.dropped > 0 {
		return nil, fmt.Errorf("%s wrote more than %d bytes of output", c.path, maxResponse)
	}
	return result(stdout.buf.Bytes()), nil
}

func tail(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[len(b)-n:]
}
