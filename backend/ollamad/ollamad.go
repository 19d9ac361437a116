// Package ollamad looks after the local Ollama server: it says whether one
// answers, finds the ollama program when none does, starts `ollama serve`
// bound to the loopback address Hermes uses (output kept in a log in the data
// dir), and stops it when Hermes exits. An Ollama that Hermes did not start is
// never stopped.
package ollamad

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"hermes/backend/proc"
)

// States of the local server.
const (
	Running     = "running"     // something answers at the host
	Stopped     = "stopped"     // nothing answers; an ollama program was found (or may not be started)
	Missing     = "missing"     // nothing answers and no ollama program was found
	Unreachable = "unreachable" // nothing answers at a host that is not this computer
	// Lost: nothing answers at a loopback host where an Ollama answered before
	// (this Daemon saw it, or Hermes started it): it stopped or died, it is not
	// missing (docs/architecture.md, "Connecting to Ollama").
	Lost = "lost"
)

// Config says where Ollama should answer and what Hermes may do about it.
type Config struct {
	Host    string // ollama_host: scheme://host:port
	Path    string // ollama_path: the program; "" searches
	Manage  string // manage_ollama: "auto" or "never"
	LogFile string // where a started server's output goes
	// Answers reports whether a server answers at Host (Ollama's "/" or version).
	Answers func(ctx context.Context) bool
	// Search lists where to look for the program, after PATH; default the usual
	// install places.
	Search []string
	// StartTimeout bounds the wait for a started server to answer; default 20 s.
	StartTimeout time.Duration
	// Answered: an Ollama answered at Host before this Daemon was made (the
	// one it replaces, for the same host, saw it).
	Answered bool
	// Records keeps the record of the server this Daemon starts, so a Hermes
	// started after a crash stops what it left (NewRecorder); nil keeps none.
	Records *proc.Recorder
}

// State is what the status bar, the setup screen and doctor show.
type State struct {
	Status  string `json:"status"`
	Managed bool   `json:"managed"` // Hermes started it and stops it on exit
	Binary  string `json:"binary,omitempty"`
	Hint    string `json:"hint,omitempty"` // what the user can do, with the exact command
	// Answered: an Ollama answered at this host before (for Lost and Unreachable).
	Answered bool `json:"answered,omitempty"`
	// Exited: the Ollama Hermes started has exited; Exit says how (e.g. "exit status 1").
	Exited bool   `json:"exited,omitempty"`
	Exit   string `json:"exit,omitempty"`
}

// Daemon is the local server as Hermes sees it.
type Daemon struct {
	cfg Config

	mu       sync.Mutex
	cmd      *exec.Cmd
	done     chan struct{}
	exit     string // how the server Hermes started ended ("" while it runs)
	models   string // the models folder of the server Hermes started
	answered bool   // something answered at the host since this Daemon was made
	started  bool   // Hermes started a server here (its log is worth showing)
}

// New returns a Daemon for cfg.
func New(cfg Config) *Daemon {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 20 * time.Second
	}
	if cfg.Search == nil {
		home, _ := os.UserHomeDir()
		cfg.Search = []string{"/usr/local/bin/ollama", "/usr/bin/ollama", filepath.Join(home, ".local/bin/ollama"),
			"/opt/ollama/bin/ollama", "/Applications/Ollama.app/Contents/Resources/ollama", "/opt/homebrew/bin/ollama"}
	}
	return &Daemon{cfg: cfg, answered: cfg.Answered}
}

// Answered reports whether an Ollama has answered at the host (as this Daemon
// or the one it replaced saw).
func (d *Daemon) Answered() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.answered
}

// InstallCommand is the command that installs Ollama on this OS.
func InstallCommand() string {
	switch runtime.GOOS {
	case "darwin":
		return "brew install ollama"
	case "windows":
		return "winget install Ollama.Ollama"
	}
	return "curl -fsSL https://ollama.com/install.sh | sh"
}

// InstallNote says what else installs it (offline too).
func InstallNote() string {
	switch runtime.GOOS {
	case "darwin":
		return "Or install the app from https://ollama.com/download."
	case "windows":
		return "Or run the installer from https://ollama.com/download."
	}
	return "Or install your distribution's ollama package; offline, copy the ollama program to /usr/local/bin."
}

// Find returns the ollama program Hermes would start, or "".
func (d *Daemon) Find() string {
	if d.cfg.Path != "" {
		if isExecutable(d.cfg.Path) {
			return d.cfg.Path
		}
		return ""
	}
	if p, err := exec.LookPath("ollama"); err == nil {
		return p
	}
	for _, p := range d.cfg.Search {
		if isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// loopback reports whether the host is this computer, and its host:port.
func (d *Daemon) loopback() (string, bool) {
	u, err := url.Parse(d.cfg.Host)
	if err != nil {
		return "", false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return u.Host, h == "localhost" || (ip != nil && ip.IsLoopback())
}

// State says whether a server answers and, if not, what can be done.
func (d *Daemon) State(ctx context.Context) State {
	up := d.cfg.Answers(ctx)
	d.mu.Lock()
	d.answered = d.answered || up
	answered := d.answered
	// An exit is known as soon as the server is reaped, a moment before done closes.
	exit := d.exit
	managed := d.runningLocked() && exit == ""
	exited := d.cmd != nil && !managed
	d.mu.Unlock()
	if up {
		return State{Status: Running, Managed: managed, Answered: true}
	}
	if _, ok := d.loopback(); !ok {
		return State{Status: Unreachable, Answered: answered, Hint: fmt.Sprintf("Nothing answers at %s; check that Ollama runs there and listens on that address, or set ollama_host to another address (Settings → Connection).", d.cfg.Host)}
	}
	bin := d.Find()
	if answered {
		return d.lost(bin, exited, exit)
	}
	st := d.notRunning(bin)
	st.Exited, st.Exit = exited, exit // a start that failed: its log says why
	return st
}

// notRunning is the state of a loopback host where nothing has answered yet.
func (d *Daemon) notRunning(bin string) State {
	switch {
	case bin == "" && d.cfg.Path != "":
		return State{Status: Missing, Hint: fmt.Sprintf("ollama_path is %s, which is not an executable program; fix it or clear it (hermes settings set ollama_path \"\").", d.cfg.Path)}
	case bin == "":
		return State{Status: Missing, Hint: "Install Ollama: " + InstallCommand() + "   (" + InstallNote() + ")"}
	case d.cfg.Manage == "never":
		return State{Status: Stopped, Binary: bin, Hint: fmt.Sprintf("Start it: %s serve   (Hermes does not, since manage_ollama is never)", bin)}
	}
	return State{Status: Stopped, Binary: bin, Hint: "Hermes can start it: " + bin + " serve"}
}

// lost is the state of a loopback host that answered before and does not now.
func (d *Daemon) lost(bin string, exited bool, exit string) State {
	st := State{Status: Lost, Answered: true, Binary: bin, Exited: exited, Exit: exit}
	switch {
	case exited:
		st.Hint = fmt.Sprintf("The Ollama Hermes started has stopped (%s); its log is %s. Start it again, or run %s serve yourself.", exit, d.cfg.LogFile, bin)
	case bin != "" && d.cfg.Manage != "never":
		st.Hint = "Ollama stopped responding at " + d.cfg.Host + "; Hermes can start it again: " + bin + " serve"
	default:
		st.Hint = "Ollama stopped responding at " + d.cfg.Host + "; start it again where it ran (ollama serve, or its container)."
	}
	return st
}

// runningLocked: Hermes started a server that has not exited (d.mu held).
func (d *Daemon) runningLocked() bool {
	if d.cmd == nil {
		return false
	}
	select {
	case <-d.done:
		return false
	default:
		return true
	}
}

// Pid is the process id of the server Hermes started while it runs, else 0.
func (d *Daemon) Pid() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.runningLocked() {
		return 0
	}
	return d.cmd.Process.Pid
}

// CanStart says whether Ensure would start a server for st.
func (d *Daemon) CanStart(st State) bool {
	return (st.Status == Stopped || st.Status == Lost) && st.Binary != "" && d.cfg.Manage != "never"
}

// Ensure starts the server when nothing answers at a loopback host, an ollama
// program is found and manage_ollama is auto, and waits until it answers.
func (d *Daemon) Ensure(ctx context.Context) (State, error) {
	st := d.State(ctx)
	if !d.CanStart(st) {
		return st, nil
	}
	if err := d.start(st.Binary); err != nil {
		return st, err
	}
	deadline := time.Now().Add(d.cfg.StartTimeout)
	for {
		if d.cfg.Answers(ctx) {
			d.mu.Lock()
			d.answered = true
			d.mu.Unlock()
			return State{Status: Running, Managed: true, Binary: st.Binary, Answered: true}, nil
		}
		d.mu.Lock()
		done := d.done
		d.mu.Unlock()
		select {
		case <-done:
			return st, &StartError{Binary: st.Binary, Log: d.cfg.LogFile, Exited: true}
		case <-ctx.Done():
			return st, fmt.Errorf("start ollama: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			d.Stop()
			return st, &StartError{Binary: st.Binary, Log: d.cfg.LogFile, Wait: d.cfg.StartTimeout}
		}
	}
}

// StartError is an Ollama that Hermes started but that did not come up: it
// exited at once, or did not answer within Wait. Its log says why.
type StartError struct {
	Binary, Log string
	Wait        time.Duration
	Exited      bool
}

func (e *StartError) Error() string {
	if e.Exited {
		return fmt.Sprintf("start ollama: %s serve exited at once; see %s", e.Binary, e.Log)
	}
	return fmt.Sprintf("start ollama: %s serve did not answer within %s; see %s", e.Binary, e.Wait, e.Log)
}

// startMarker begins the line the log gets at each start (LogTail reads from the last one).
const startMarker = "Hermes starts"

func (d *Daemon) start(bin string) error {
	rec := d.cfg.Records
	rec.Sweep() // what a killed Hermes left, before anything is held
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.runningLocked() {
		return nil // started already; waiting for it
	}
	// One that exited is forgotten here, so Start again really starts it again.
	d.cmd, d.done, d.exit = nil, nil, ""
	hostPort, _ := d.loopback()
	log, err := os.OpenFile(d.cfg.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("start ollama: log file: %w", err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+hostPort)
	cmd.Stdout, cmd.Stderr = log, log
	run := rec.Mark(cmd)
	proc.Prepare(cmd) // its own process group; SIGKILL when Hermes dies
	fmt.Fprintf(log, "\n--- %s: %s %s serve on %s ---\n", time.Now().Format(time.RFC3339), startMarker, bin, hostPort)
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		ran := false
		err := proc.Run(cmd, func(err error) {
			if ran = err == nil; ran {
				rec.Started(cmd.Process.Pid, run)
			}
			started <- err
		})
		if !ran {
			rec.Ended(run) // it never started
			return
		}
		fmt.Fprintf(log, "--- %s: %s serve ended: %s ---\n", time.Now().Format(time.RFC3339), bin, exitWords(err))
		log.Close()
		d.mu.Lock()
		if d.done == done {
			d.exit = exitWords(err)
		}
		d.mu.Unlock()
		rec.Ended(run) // once its exit is known; Stop waits for its runners too
		close(done)
	}()
	if err := <-started; err != nil {
		log.Close()
		return fmt.Errorf("start ollama: %w", err)
	}
	d.cmd, d.done, d.models, d.started = cmd, done, modelsDir(cmd.Env), true
	return nil
}

// LogTail is the end of the log of the server Hermes started (the lines since
// its last start, at most n of them), or nil when this Daemon started none:
// a log left by another run says nothing about the Ollama at this host now.
func (d *Daemon) LogTail(n int) []string {
	d.mu.Lock()
	started := d.started
	d.mu.Unlock()
	if !started || n <= 0 {
		return nil
	}
	return tail(d.cfg.LogFile, n)
}

// tailBytes bounds what LogTail reads of the log.
const tailBytes = 16 << 10

// tail is the last n lines of file after its last start marker.
func tail(file string, n int) []string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	off := max(fi.Size()-tailBytes, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	text := string(buf)
	if i := strings.LastIndex(text, startMarker); i >= 0 {
		if nl := strings.IndexByte(text[i:], '\n'); nl >= 0 {
			text = text[i+nl+1:]
		}
	} else if off > 0 {
		if nl := strings.IndexByte(text, '\n'); nl >= 0 {
			text = text[nl+1:] // the first line read may be cut
		}
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines[max(len(lines)-n, 0):]
}

// exitWords says how a started server ended.
func exitWords(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Models is the folder where the server Hermes started keeps its models (as
// Ollama finds it: OLLAMA_MODELS in its environment, else ~/.ollama/models),
// "" while Hermes has not started one, or once it has exited: Hermes knows no
// other Ollama's folder.
func (d *Daemon) Models() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cmd == nil {
		return ""
	}
	select {
	case <-d.done:
		return "" // it died; whatever answers now is not it
	default:
		return d.models
	}
}

// modelsDir is Ollama's models folder for the environment env.
func modelsDir(env []string) string {
	dir := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "OLLAMA_MODELS="); ok {
			dir = strings.Trim(strings.TrimSpace(v), `"'`) // the last one counts, as for exec; trimmed as Ollama does
		}
	}
	if dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".ollama", "models")
}

// Stop stops the server if Hermes started it (SIGTERM, then SIGKILL after 5 s);
// an Ollama Hermes did not start is left alone.
func (d *Daemon) Stop() error {
	d.mu.Lock()
	cmd, done, running := d.cmd, d.done, d.runningLocked()
	d.cmd, d.done = nil, nil
	d.mu.Unlock()
	if cmd == nil || !running {
		return nil // gone already: its process group id may belong to another program by now
	}
	return proc.Stop(context.Background(), cmd.Process.Pid, done, stopGrace)
}

// stopGrace is how long a started server has to exit after SIGTERM.
const stopGrace = 5 * time.Second
