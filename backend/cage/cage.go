// Package cage reads the files a user hands Hermes in a child process of
// Hermes (the same executable, run with the hidden Command), under a memory
// limit, a CPU-time limit and a wall-clock limit. A parser that crashes, hangs
// or allocates without end costs that child; the parent gets one refusal that
// says which limit the file crossed. See docs/architecture.md, "The parser cage".
package cage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"hermes/backend/document"
	"hermes/backend/proc"
)

// Command is the hidden first argument that makes the executable a cage child.
const Command = "__cage"

// Limits bound one child.
type Limits struct {
	Memory int64         // bytes the child may map beyond what it had at start
	CPU    time.Duration // CPU time, whole seconds (RLIMIT_CPU)
	Wall   time.Duration // wall-clock time from start to answer
}

// DefaultLimits are the settings' defaults (cage_memory, cage_time).
func DefaultLimits() Limits {
	return Limits{Memory: 512 << 20, CPU: 20 * time.Second, Wall: 20 * time.Second}
}

// Reader reads documents: those that need a parser (document.NeedsParser) in
// a child process, plain text in this one.
type Reader struct {
	Exe    string                       // the program run with Command (os.Executable())
	Limits func(context.Context) Limits // read at each file; nil: DefaultLimits
	Extra  func(cmd *exec.Cmd)          // test hook: adjusts the child's command (nil: none)
}

// maxOut bounds what is read back from a child: the longest text a document
// may have (document.MaxChars runes of up to 4 bytes) escaped as JSON, with
// room; an image's answer (its downscaled bytes and preview in base64, at
// most about 6 MB for a 1024×1024 PNG of noise) fits too.
const maxOut = 16 << 20

// Extract reads one file as document.Extract does, with its parser (PDF,
// image decoders, DOCX, ODT, HTML) in a child. A child that crosses a limit
// or dies is a *document.Refusal (RefusedTooMuchMemory, RefusedTooSlow,
// RefusedReaderFailed); ctx cancels it.
func (r Reader) Extract(ctx context.Context, name string, data []byte) (document.Doc, error) {
	return r.extract(ctx, name, data, false)
}

// ExtractText reads one file for the knowledge base as document.ExtractText
// does (images and scanned PDF pages by text recognition), in a child run in
// text mode (--text) under the same limits, spent as follows. The programs
// the child runs (pdftoppm and tesseract, once a page) inherit its limits:
// the address-space limit as the figure the child set (what it had mapped at
// start plus Memory), the CPU-time limit anew for each. The wall-clock limit
// holds for each step: reading the file, then each page recognised (the
// child says as each begins), so a scan takes as long as its pages need, up
// to document.MaxOCRPages of them; ctx bounds the whole.
func (r Reader) ExtractText(ctx context.Context, name string, data []byte) (document.Doc, error) {
	return r.extract(ctx, name, data, true)
}

func (r Reader) extract(ctx context.Context, name string, data []byte, text bool) (document.Doc, error) {
	name = document.Name(name)
	if err := document.CheckFile(name, data); err != nil {
		return document.Doc{}, err
	}
	if !document.NeedsParser(name, data) {
		if text {
			return document.ExtractText(name, data)
		}
		return document.Extract(name, data)
	}
	lim := DefaultLimits()
	if r.Limits != nil {
		lim = r.Limits(ctx)
	}
	return r.run(ctx, lim, name, data, text)
}

// errWall is the wall-clock limit's cause of cancelling a child.
var errWall = errors.New("wall-clock limit")

func (r Reader) run(ctx context.Context, lim Limits, name string, data []byte, text bool) (document.Doc, error) {
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	clock := time.AfterFunc(lim.Wall, func() { cancel(errWall) })
	defer clock.Stop()
	cmd := exec.CommandContext(wctx, r.Exe, childArgs(lim, name, text)...)
	cmd.Env = []string{"GOMAXPROCS=1", "GOTRACEBACK=none"} // a minimal environment: nothing of the user's
	cmd.Stdin = bytes.NewReader(data)
	out := &tail{max: maxOut}
	errb := &steps{tail: tail{max: 8 << 10}, step: func() { clock.Reset(lim.Wall) }}
	cmd.Stdout, cmd.Stderr = out, errb
	// Its own group, killed with Hermes; stopped (wall clock, cancel) as a group.
	proc.Prepare(cmd)
	cmd.Cancel = func() error { return proc.KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = time.Second
	if r.Extra != nil {
		r.Extra(cmd)
	}
	err := proc.Run(cmd, nil)
	if ctx.Err() != nil {
		return document.Doc{}, fmt.Errorf("read %s: %w", name, ctx.Err())
	}
	if err == nil && !out.cut {
		return decode(name, out.Bytes())
	}
	return document.Doc{}, verdict(name, lim, err, out, errb.String(), errors.Is(context.Cause(wctx), errWall))
}

func childArgs(lim Limits, name string, text bool) []string {
	cpu := max(1, int64(lim.CPU/time.Second))
	args := []string{Command, "--memory", strconv.FormatInt(lim.Memory, 10), "--cpu", strconv.FormatInt(cpu, 10)}
	if text {
		args = append(args, "--text")
	}
	return append(args, "--", name)
}

// verdict is the refusal for a child that did not answer: over its memory
// (the Go runtime's out-of-memory death), over its time (killed at the wall
// clock, or by the kernel at the CPU limit), too much text, or dead otherwise.
func verdict(name string, lim Limits, err error, out *tail, stderr string, wallHit bool) error {
	var exit *exec.ExitError
	signal := ""
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signal = ws.Signal().String()
		}
	}
	cpuHit := !wallHit && (signal == syscall.SIGKILL.String() || signal == syscall.Signal(0x18).String()) // 0x18: SIGXCPU
	switch {
	case outOfMemory(stderr):
		mb := strconv.FormatInt(lim.Memory>>20, 10)
		return document.NewRefusal(document.RefusedTooMuchMemory, name, map[string]string{"limit": mb + " MB"},
			document.ErrTooLarge, fmt.Sprintf("%q could not be read: it needs more than %s MB", name, mb))
	case wallHit || cpuHit:
		d := lim.Wall
		if cpuHit {
			d = lim.CPU
		}
		s := strconv.Itoa(int(d.Round(time.Second)/time.Second)) + " s"
		return document.NewRefusal(document.RefusedTooSlow, name, map[string]string{"limit": s},
			document.ErrTooLarge, fmt.Sprintf("%q could not be read: it took longer than %s", name, s))
	case out.cut:
		return document.NewRefusal(document.RefusedTooLong, name, map[string]string{"chars": "more than " + strconv.Itoa(document.MaxChars), "limit": strconv.Itoa(document.MaxChars)},
			document.ErrTooLarge, fmt.Sprintf("%q has more than %d characters of text; documents up to %d characters can be attached", name, document.MaxChars, document.MaxChars))
	}
	detail := "the reader stopped"
	switch {
	case signal != "":
		detail += " (" + signal + ")"
	case exit != nil:
		detail += " (exit " + strconv.Itoa(exit.ExitCode()) + ")"
	case err != nil:
		detail = err.Error()
	}
	return document.NewRefusal(document.RefusedReaderFailed, name, map[string]string{"detail": detail},
		document.ErrUnsupported, fmt.Sprintf("%q could not be read: %s; the file may be damaged", name, detail))
}

// outOfMemory: the Go runtime's words when a mapping fails under RLIMIT_AS
// (the last: a race-detector build's heap finding no room).
func outOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "failed to create new OS thread", "address space collisions"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// answer is what a child writes to stdout: a document or a refusal.
type answer struct {
	Doc     *document.Doc `json:"doc,omitempty"`
	Refusal *refusal      `json:"refusal,omitempty"`
}

type refusal struct {
	Reason  string            `json:"reason"`
	Kind    string            `json:"kind"`
	Params  map[string]string `json:"params,omitempty"`
	Message string            `json:"message"`
}

func decode(name string, b []byte) (document.Doc, error) {
	var a answer
	if err := json.Unmarshal(b, &a); err != nil || (a.Doc == nil) == (a.Refusal == nil) {
		return document.Doc{}, document.NewRefusal(document.RefusedReaderFailed, name, map[string]string{"detail": "no answer"},
			document.ErrUnsupported, fmt.Sprintf("%q could not be read: the reader gave no answer", name))
	}
	if f := a.Refusal; f != nil {
		kind, ok := document.Kinds[f.Kind]
		if !ok {
			kind = document.ErrUnsupported
		}
		return document.Doc{}, document.NewRefusal(f.Reason, name, f.Params, kind, f.Message)
	}
	a.Doc.Name = name
	return *a.Doc, nil
}

// tail keeps the first max bytes written to it and says whether more came.
// Its buffer is not embedded: a bytes.Buffer's ReadFrom, which io.Copy (and
// so exec.Cmd) prefers to Write, would take all there is.
type tail struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (t *tail) Write(p []byte) (int, error) {
	if room := t.max - t.buf.Len(); len(p) > room {
		t.cut = true
		t.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return t.buf.Write(p)
}

func (t *tail) Bytes() []byte  { return t.buf.Bytes() }
func (t *tail) String() string { return t.buf.String() }

var _ io.Writer = (*tail)(nil)

// progressPrefix begins the line a text-mode child writes to stderr as each
// page's recognition begins ("cage: page 3 of 40").
const progressPrefix = "cage: page "

// steps passes a child's stderr to a tail, line by line, less its progress
// lines, each of which calls step (which restarts the wall clock).
type steps struct {
	tail
	line []byte
	step func()
}

func (s *steps) Write(p []byte) (int, error) {
	s.line = append(s.line, p...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		if bytes.HasPrefix(s.line, []byte(progressPrefix)) {
			s.step()
		} else {
			s.tail.Write(s.line[:i+1])
		}
		s.line = s.line[i+1:]
	}
	if len(s.line) > 1<<10 { // no progress line is that long
		s.tail.Write(s.line)
		s.line = s.line[:0]
	}
	return len(p), nil
}

// String is what the child wrote, less its progress lines.
func (s *steps) String() string { return s.tail.String() + string(s.line) }
