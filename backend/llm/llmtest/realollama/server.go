// Package realollama runs the real Ollama server for tests: it finds the
// ollama program (../shared/tools/ollama next to the repository, else
// `ollama` on PATH), starts `ollama serve` on a free loopback port with its own
// models folder and home, waits until it answers and stops it when the test
// ends; WriteTinyModel writes a GGUF model it loads and answers with.
//
// A missing program fails the test (CI always has it): the tests that use this
// package are the check that Hermes speaks to the real server, not only to the
// stand-in of package llmtest.
package realollama

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/proc"
)

// How long a server may take to answer, and to stop once asked.
const (
	startWait = 30 * time.Second
	stopWait  = 5 * time.Second
)

// Server is one `ollama serve` started for a test.
type Server struct {
	URL    string // http://127.0.0.1:PORT
	Models string // its OLLAMA_MODELS folder
	Binary string // the program that runs

	logPath string
	cmd     *exec.Cmd
	done    chan struct{} // closed once the process has exited
}

// Start starts a real Ollama for t, and stops it (and its model runners) when
// t ends. It fails t when there is no ollama program or it does not come up.
func Start(t testing.TB) *Server {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("start real ollama: %v", err)
	}
	bin, err := FindBinary(wd)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var lastErr error
	for attempt := range 3 { // a free port may be taken between the look and the listen
		s, err := start(bin, dir, attempt)
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		lastErr = err
	}
	t.Fatal(lastErr)
	return nil
}

// FindBinary finds the ollama program: ../shared/tools/ollama beside the
// repository that holds start (found by walking up to its go.mod), else
// `ollama` on PATH.
func FindBinary(start string) (string, error) {
	if root, ok := repoRoot(start); ok {
		p := filepath.Join(root, "..", "shared", "tools", "ollama")
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return filepath.Clean(p), nil
		}
	}
	if p, err := exec.LookPath("ollama"); err == nil {
		return p, nil
	}
	return "", errors.New("find ollama: no ollama program: the real-server tests need Ollama (0.17.4, the version in go.mod): " +
		"put its program at ../shared/tools/ollama beside the repository (see ../shared/tools/README.md), " +
		"or install Ollama so that `ollama` is on PATH")
}

// repoRoot is the nearest folder at or above dir that holds a go.mod.
func repoRoot(dir string) (string, bool) {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// start runs `ollama serve` on a free port with folders under dir and waits
// until it answers.
func start(bin, dir string, attempt int) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("start real ollama: %w", err)
	}
	home := filepath.Join(dir, "home")
	models := filepath.Join(dir, "models")
	for _, d := range []string{home, models} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("start real ollama: %w", err)
		}
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), Models: models, Binary: bin,
		logPath: filepath.Join(dir, fmt.Sprintf("serve-%d.log", attempt))}
	if err := s.launch(env(home, models, port)); err != nil {
		return nil, err
	}
	if err := s.waitReady(); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// env is the server's whole environment: its own home and models folder, the
// port, and a proxy that refuses, so that nothing it tries (a pull) leaves
// this computer, whatever network the machine has. Go never proxies loopback,
// so the server still reaches its own model runners.
func env(home, models string, port int) []string {
	e := []string{
		"HOME=" + home,
		"OLLAMA_MODELS=" + models,
		fmt.Sprintf("OLLAMA_HOST=127.0.0.1:%d", port),
		"OLLAMA_NUM_PARALLEL=1",
		"OLLAMA_NO_CLOUD=1",
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
	}
	for _, k := range []string{"PATH", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			e = append(e, k+"="+v)
		}
	}
	return e
}

// freePort is a loopback TCP port nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launch starts the process in its own process group (stop signals the whole
// group: the server and the model runners it started), killed with the test
// binary if that dies first.
func (s *Server) launch(env []string) error {
	log, err := os.Create(s.logPath)
	if err != nil {
		return fmt.Errorf("start real ollama: %w", err)
	}
	cmd := exec.Command(s.Binary, "serve")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, log, log
	proc.Prepare(cmd) // its own group, killed with the test binary
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		defer log.Close()
		_ = proc.Run(cmd, func(err error) { started <- err })
	}()
	if err := <-started; err != nil {
		<-done
		return fmt.Errorf("start real ollama: %s serve: %w", s.Binary, err)
	}
	s.cmd, s.done = cmd, done
	return nil
}

// waitReady polls the server's root until it answers "Ollama is running".
func (s *Server) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), startWait)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if s.answers(ctx) {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("start real ollama: %s serve exited at once; its log:\n%s", s.Binary, s.LogTail(20))
		case <-ctx.Done():
			return fmt.Errorf("start real ollama: %s serve did not answer within %s; its log:\n%s", s.Binary, startWait, s.LogTail(20))
		case <-tick.C:
		}
	}
}

// answers reports whether the server answers its root as Ollama does.
func (s *Server) answers(ctx context.Context) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode == http.StatusOK && strings.Contains(b.String(), "Ollama is running")
}

// Kill ends the server and its runners at once (SIGKILL), as a crash does.
func (s *Server) Kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

// stop asks the server to stop (SIGTERM to its group), and kills the group
// when it has not within stopWait.
func (s *Server) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(stopWait):
		s.Kill()
	}
	// Runners the server started are in its group: make sure none outlives it.
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
}

// LogTail is the last n lines of the server's log, for a failure message.
func (s *Server) LogTail(n int) string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
