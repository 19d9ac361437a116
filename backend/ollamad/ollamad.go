// Package ollamad looks after the local Ollama server: it says whether one
// answers, finds the ollama program when none does, starts `ollama serve`
// bound to the loopback address Hermes uses (output kept in a log in the data
// dir), and stops it when Hermes exits. An Ollama that Hermes did not start is
// never stopped.
package ollamad

import (
	"context"
	"fmt"
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
}

// State is what the status bar, the setup screen and doctor show.
type State struct {
	Status  string `json:"status"`
	Managed bool   `json:"managed"` // Hermes started it and stops it on exit
	Binary  string `json:"binary,omitempty"`
	Hint    string `json:"hint,omitempty"` // what the user can do, with the exact command
}

// Daemon is the local server as Hermes sees it.
type Daemon struct {
	cfg Config

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	models string // the models folder of the server Hermes started
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
	return &Daemon{cfg: cfg}
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
	d.mu.Lock()
	managed := d.cmd != nil
	d.mu.Unlock()
	if d.cfg.Answers(ctx) {
		return State{Status: Running, Managed: managed}
	}
	if _, ok := d.loopback(); !ok {
		return State{Status: Unreachable, Hint: fmt.Sprintf("Nothing answers at %s; start Ollama there, or set ollama_host to http://127.0.0.1:11434.", d.cfg.Host)}
	}
	bin := d.Find()
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

// Ensure starts the server when nothing answers at a loopback host, an ollama
// program is found and manage_ollama is auto, and waits until it answers.
func (d *Daemon) Ensure(ctx context.Context) (State, error) {
	st := d.State(ctx)
	if st.Status != Stopped || d.cfg.Manage == "never" {
		return st, nil
	}
	if err := d.start(st.Binary); err != nil {
		return st, err
	}
	deadline := time.Now().Add(d.cfg.StartTimeout)
	for {
		if d.cfg.Answers(ctx) {
			return State{Status: Running, Managed: true, Binary: st.Binary}, nil
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

func (d *Daemon) start(bin string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cmd != nil {
		return nil // started already; waiting for it
	}
	hostPort, _ := d.loopback()
	log, err := os.OpenFile(d.cfg.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("start ollama: log file: %w", err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+hostPort)
	cmd.Stdout, cmd.Stderr = log, log
	proc.Prepare(cmd) // its own process group; SIGKILL when Hermes dies
	fmt.Fprintf(log, "\n--- %s: Hermes starts %s serve on %s ---\n", time.Now().Format(time.RFC3339), bin, hostPort)
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		ran := false
		_ = proc.Run(cmd, func(err error) { ran = err == nil; started <- err })
		if ran {
			log.Close()
			close(done)
		}
	}()
	if err := <-started; err != nil {
		log.Close()
		return fmt.Errorf("start ollama: %w", err)
	}
	d.cmd, d.done, d.models = cmd, done, modelsDir(cmd.Env)
	return nil
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
	cmd, done := d.cmd, d.done
	d.cmd, d.done = nil, nil
	d.mu.Unlock()
	if cmd == nil {
		return nil
	}
	return proc.Stop(context.Background(), cmd.Process.Pid, done, stopGrace)
}

// stopGrace is how long a started server has to exit after SIGTERM.
const stopGrace = 5 * time.Second
