package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hermes/backend/proc"
)

// launch is how to start one server process.
type launch struct {
	command string
	args    []string
	env     []string // the whole environment of the child
	dir     string
	records *proc.Recorder // the Manager's record of its running servers
}

// process is one running server: its own process group, stdin/stdout pipes the
// caller speaks JSON-RPC over, and stderr drained into a ring.
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File // our end of the child's stdin
	stdout  *os.File // our end of the child's stdout
	pid     int
	started time.Time
	run     string // the marker its descendants carry (HERMES_MCP_RUN); "" off Linux
	records *proc.Recorder

	stderrDone chan struct{} // the stderr drain ended
	stdoutDone chan struct{} // the stdout reader saw the end of the stream
	stdoutOnce sync.Once
	exited     chan struct{} // the child is reaped, its group killed and our pipe ends closed
	waitErr    error         // cmd.Wait's error; read after exited is closed

	closeOnce sync.Once
}

// pipeGrace is how long, after the child exits, its output may still be read
// before the pipes are closed (a grandchild may hold them open).
const pipeGrace = 500 * time.Millisecond

// startProcess starts the server in a new process group with exactly l.env,
// plus the marker of its run (see orphan_linux.go). On Linux it gets SIGKILL
// when Hermes dies.
func startProcess(l launch, stderr io.Writer) (*process, error) {
	path := l.command
	if !strings.ContainsRune(path, filepath.Separator) {
		// Look the program up in the PATH the child gets (it is the parent's PATH).
		p, err := exec.LookPath(path)
		if err != nil {
			return nil, fmt.Errorf("start server: %q was not found on PATH: %w", l.command, err)
		}
		path = p
	}
	cmd := exec.Command(path, l.args...)
	cmd.Args[0] = l.command
	cmd.Env = slices.Clip(l.env)
	if cmd.Env == nil {
		cmd.Env = []string{} // never the parent's environment
	}
	cmd.Dir = l.dir
	proc.Prepare(cmd)

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("start server: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("start server: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	run := newRun(l.records, cmd) // from here on, runAndReap calls trackStart or forgetRun
	p := &process{cmd: cmd, stdin: inW, stdout: outR, run: run, records: l.records,
		stderrDone: make(chan struct{}), stdoutDone: make(chan struct{}), exited: make(chan struct{})}
	started := make(chan error, 1)
	go p.runAndReap(started, errR)
	if err := <-started; err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("start server: %w", err)
	}
	closeAll(inR, outW, errW) // the child holds its ends now
	go func() {
		defer close(p.stderrDone)
		_, _ = io.Copy(stderr, errR) // the ring never fails; ends at EOF or when closed
	}()
	return p, nil
}

// runAndReap starts the child and reaps it, on one locked OS thread (see
// proc.Run: the parent-death signal follows the thread that forked).
func (p *process) runAndReap(started chan<- error, errR *os.File) {
	ran := false
	err := proc.Run(p.cmd, func(err error) {
		if err != nil {
			forgetRun(p.records, p.run)
			started <- err
			return
		}
		ran = true
		p.pid, p.started = p.cmd.Process.Pid, time.Now()
		trackStart(p.records, p)
		started <- nil
	})
	if !ran {
		return
	}
	p.waitErr = err
	p.reap(errR)
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// reap runs after the child is reaped: it kills what is left of its group and
// of its descendants elsewhere (double-forked ones, by their marker), lets the
// pipes drain for a moment and closes our ends, so no goroutine reading them
// is left.
func (p *process) reap(errR *os.File) {
	_ = proc.KillGroup(p.pid) // stragglers of the group; none is no error
	trackEnd(p.records, p)
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
	expired := false
	for _, done := range []chan struct{}{p.stderrDone, p.stdoutDone} {
		if expired {
			break
		}
		select {
		case <-done:
		case <-grace.C:
			expired = true
		}
	}
	_ = errR.Close()
	_ = p.stdout.Close()
	<-p.stderrDone
	close(p.exited)
}

// output is the child's stdout; reading it to its end (or an error) tells reap
// that nothing more will be read.
func (p *process) output() io.Reader { return stdoutReader{p} }

type stdoutReader struct{ p *process }

func (r stdoutReader) Read(b []byte) (int, error) {
	n, err := r.p.stdout.Read(b)
	if err != nil {
		r.p.stdoutOnce.Do(func() { close(r.p.stdoutDone) })
	}
	return n, err
}

// closeStdin closes the child's stdin: the polite request to exit.
func (p *process) closeStdin() { p.closeOnce.Do(func() { _ = p.stdin.Close() }) }

// running reports whether the child has not exited yet.
func (p *process) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stop ends the child within total: close stdin and wait a quarter of total,
// then SIGTERM to the group and wait a third, then SIGKILL to the group and wait
// for the reap. It returns an error only when the child outlived SIGKILL.
func (p *process) stop(total time.Duration) error {
	if total <= 0 {
		total = 6 * time.Second
	}
	deadline := time.Now().Add(total)
	p.closeStdin()
	if p.wait(total / 4) {
		return nil
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if proc.Stop(ctx, p.pid, p.exited, total/3) == nil {
		return nil
	}
	return fmt.Errorf("stop server (pid %d): it did not exit within %s, even after SIGKILL", p.pid, total)
}

func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitDescription says how the child ended ("exit status 3", "signal: killed");
// call it after exited is closed.
func (p *process) exitDescription() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	return p.waitErr.Error()
}
