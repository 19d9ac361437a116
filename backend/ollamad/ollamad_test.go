package ollamad

import (
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

	"hermes/backend/llm/llmtest"
)

var fakeOllama string // the fake-ollama program, built by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hermes-ollamad-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeOllama = filepath.Join(dir, "fake-ollama")
	build := exec.Command("go", "build", "-o", fakeOllama, "hermes/backend/llm/llmtest/cmd/fake-ollama")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build fake-ollama:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// standIn writes an executable named ollama that, given "serve", runs the fake
// Ollama on $OLLAMA_HOST, as the real one does.
func standIn(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "ollama")
	script := "#!/bin/sh\n[ \"$1\" = serve ] || { echo \"usage: ollama serve\" >&2; exit 2; }\nexec " + fakeOllama + " --addr \"$OLLAMA_HOST\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func freeHost(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "http://" + l.Addr().String()
}

func answers(host string) func(context.Context) bool {
	return func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, host+"/api/version", nil)
		resp, err := (&http.Client{Timeout: time.Second}).Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
}

func TestStartsAndStopsItsOwnOllama(t *testing.T) {
	host := freeHost(t)
	logFile := filepath.Join(t.TempDir(), "ollama.log")
	models := t.TempDir()
	t.Setenv("OLLAMA_MODELS", models)
	d := New(Config{Host: host, Path: standIn(t), Manage: "auto", LogFile: logFile, Answers: answers(host)})
	ctx := context.Background()
	if st := d.State(ctx); st.Status != Stopped || !strings.Contains(st.Hint, "Hermes can start it") {
		t.Fatalf("before: %+v", st)
	}
	if d.Models() != "" {
		t.Errorf("a models folder before Hermes started Ollama: %q", d.Models())
	}
	st, err := d.Ensure(ctx)
	if err != nil || st.Status != Running || !st.Managed {
		t.Fatalf("ensure = %+v, %v", st, err)
	}
	if d.Models() != models {
		t.Errorf("models folder = %q, want OLLAMA_MODELS %q", d.Models(), models)
	}
	if !answers(host)(ctx) {
		t.Fatal("nothing answers after the start")
	}
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), "FAKE_OLLAMA_URL") || !strings.Contains(string(b), "Hermes starts") {
		t.Errorf("log = %q", b)
	}
	d.Stop()
	if answers(host)(ctx) {
		t.Error("the Ollama Hermes started still answers after Stop")
	}
	if d.Models() != "" {
		t.Errorf("a models folder after Stop: %q", d.Models())
	}
}

func TestNeverStopsAForeignOllama(t *testing.T) {
	fake := llmtest.New()
	srv := fake.Start()
	defer func() { fake.Close(); srv.Close() }()
	d := New(Config{Host: srv.URL, Path: standIn(t), Manage: "auto", LogFile: filepath.Join(t.TempDir(), "l"), Answers: answers(srv.URL)})
	st, err := d.Ensure(context.Background())
	if err != nil || st.Status != Running || st.Managed {
		t.Fatalf("ensure = %+v, %v", st, err)
	}
	if d.Models() != "" {
		t.Errorf("a foreign Ollama's models folder: %q", d.Models())
	}
	d.Stop()
	if !answers(srv.URL)(context.Background()) {
		t.Error("Stop stopped an Ollama Hermes did not start")
	}
}

func TestWhenItMayNotStart(t *testing.T) {
	ctx := context.Background()
	host := freeHost(t)
	cases := []struct {
		name   string
		cfg    Config
		status string
		hint   string
	}{
		{"manage_ollama never", Config{Host: host, Path: standIn(t), Manage: "never"}, Stopped, "manage_ollama is never"},
		{"no program", Config{Host: host, Manage: "auto", Search: []string{"/nonexistent/ollama"}}, Missing, "Install Ollama: "},
		{"ollama_path wrong", Config{Host: host, Path: "/nonexistent/ollama", Manage: "auto"}, Missing, "ollama_path is /nonexistent/ollama"},
		{"another computer", Config{Host: "http://192.168.1.50:11434", Path: standIn(t), Manage: "auto"}, Unreachable, "set ollama_host"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "no program" {
				t.Setenv("PATH", t.TempDir()) // no ollama on PATH either
			}
			c.cfg.LogFile = filepath.Join(t.TempDir(), "l")
			c.cfg.Answers = answers(c.cfg.Host)
			d := New(c.cfg)
			st, err := d.Ensure(ctx)
			if err != nil || st.Status != c.status || st.Managed || !strings.Contains(st.Hint, c.hint) {
				t.Fatalf("state = %+v, %v", st, err)
			}
		})
	}
}

// TestOllamaDiesWithHermes: a helper process (this test binary) starts Ollama
// and is killed with SIGKILL; the Ollama it started goes with it.
func TestOllamaDiesWithHermes(t *testing.T) {
	if os.Getenv("HERMES_OLLAMAD_CHILD") != "" {
		serveAsChild()
		return
	}
	host := freeHost(t)
	cmd := startChild(t, "TestOllamaDiesWithHermes", host, standIn(t), "")
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for answers(host)(context.Background()) {
		if time.Now().After(deadline) {
			t.Fatal("the Ollama started by a killed Hermes still answers")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serveAsChild is the helper process of the tests that kill a Hermes: it
// starts the Ollama its environment names (records kept where
// HERMES_OLLAMAD_RECORDS says, if set), says STARTED and waits to be killed.
func serveAsChild() {
	host := os.Getenv("HERMES_OLLAMAD_HOST")
	cfg := Config{Host: host, Path: os.Getenv("HERMES_OLLAMAD_BIN"), Manage: "auto",
		LogFile: os.Getenv("HERMES_OLLAMAD_LOG"), Answers: answers(host)}
	if dir := os.Getenv("HERMES_OLLAMAD_RECORDS"); dir != "" {
		cfg.Records = NewRecorder(dir, nil)
	}
	if _, err := New(cfg).Ensure(context.Background()); err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println("STARTED")
	time.Sleep(time.Minute)
}

// startChild runs test in a helper process that starts bin's Ollama at host
// (serveAsChild), and returns once it has.
func startChild(t *testing.T, test, host, bin, records string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^"+test+"$")
	cmd.Env = append(os.Environ(), "HERMES_OLLAMAD_CHILD=1", "HERMES_OLLAMAD_HOST="+host, "HERMES_OLLAMAD_BIN="+bin,
		"HERMES_OLLAMAD_LOG="+filepath.Join(t.TempDir(), "l"), "HERMES_OLLAMAD_RECORDS="+records)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "STARTED") || !answers(host)(context.Background()) {
		t.Fatalf("child: %q", buf[:n])
	}
	return cmd
}

// TestStartFailuresSayWhich: a started Ollama that exits at once, and one that
// never answers, come back as a StartError saying which, with the program, the
// wait and the log (the UI words them: ollama_exited, ollama_start_timeout).
func TestStartFailuresSayWhich(t *testing.T) {
	dir := t.TempDir()
	exits := filepath.Join(dir, "exits")
	silent := filepath.Join(dir, "silent")
	if err := os.WriteFile(exits, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "ollama.log")
	for _, tc := range []struct {
		bin    string
		exited bool
		says   string
	}{{exits, true, "exited at once"}, {silent, false, "did not answer within 300ms"}} {
		host := freeHost(t)
		d := New(Config{Host: host, Path: tc.bin, Manage: "auto", LogFile: logFile, Answers: answers(host), StartTimeout: 300 * time.Millisecond})
		_, err := d.Ensure(t.Context())
		var se *StartError
		if !errors.As(err, &se) || se.Exited != tc.exited || se.Binary != tc.bin || se.Log != logFile || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v (%+v)", filepath.Base(tc.bin), err, se)
		}
		if !tc.exited && se != nil && se.Wait != 300*time.Millisecond {
			t.Errorf("wait = %v", se.Wait)
		}
		_ = d.Stop()
	}
}

func TestModelsDir(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"PATH=/bin"}, filepath.Join(home, ".ollama", "models")},
		{[]string{"OLLAMA_MODELS=/a", "PATH=/bin", "OLLAMA_MODELS=/b"}, "/b"},
		{[]string{"OLLAMA_MODELS="}, filepath.Join(home, ".ollama", "models")},
		{[]string{`OLLAMA_MODELS= "/c d" `}, "/c d"},
	} {
		if got := modelsDir(c.env); got != c.want {
			t.Errorf("modelsDir(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestModelsOfAnOllamaThatDied: once the Ollama Hermes started has exited, its
// folder is no longer given (another Ollama may answer there now).
func TestModelsOfAnOllamaThatDied(t *testing.T) {
	host := freeHost(t)
	t.Setenv("OLLAMA_MODELS", t.TempDir())
	d := New(Config{Host: host, Path: standIn(t), Manage: "auto", LogFile: filepath.Join(t.TempDir(), "l"), Answers: answers(host)})
	if _, err := d.Ensure(context.Background()); err != nil || d.Models() == "" {
		t.Fatalf("ensure: %v, models %q", err, d.Models())
	}
	defer d.Stop()
	d.mu.Lock()
	cmd, done := d.cmd, d.done
	d.mu.Unlock()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	if got := d.Models(); got != "" {
		t.Errorf("models folder of an Ollama that died: %q", got)
	}
}

// TestStartAgainAfterItDied: the Ollama Hermes started dies; the state says it
// stopped responding (not missing, not "stopped as soon as it started"), with
// how it ended and its log, and Ensure really starts a new one.
func TestStartAgainAfterItDied(t *testing.T) {
	host := freeHost(t)
	logFile := filepath.Join(t.TempDir(), "ollama.log")
	d := New(Config{Host: host, Path: standIn(t), Manage: "auto", LogFile: logFile, Answers: answers(host)})
	defer d.Stop()
	if st, err := d.Ensure(t.Context()); err != nil || st.Status != Running {
		t.Fatalf("first start: %+v, %v", st, err)
	}
	first := killStarted(t, d)
	st := d.State(t.Context())
	if st.Status != Lost || !st.Exited || !st.Answered || st.Exit == "" || !d.CanStart(st) || !strings.Contains(st.Hint, logFile) {
		t.Fatalf("after it died: %+v", st)
	}
	if lines := d.LogTail(20); len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "serve ended") {
		t.Errorf("log tail: %q", lines)
	}
	st, err := d.Ensure(t.Context())
	if err != nil || st.Status != Running || !st.Managed {
		t.Fatalf("start again: %+v, %v", st, err)
	}
	d.mu.Lock()
	second := d.cmd.Process.Pid
	d.mu.Unlock()
	if second == first {
		t.Errorf("start again kept the dead process %d", first)
	}
	if st := d.State(t.Context()); st.Status != Running || !st.Managed || st.Exited {
		t.Errorf("running again: %+v", st)
	}
}

// killStarted kills the server d started and waits until it is gone; its pid.
func killStarted(t *testing.T, d *Daemon) int {
	t.Helper()
	d.mu.Lock()
	cmd, done := d.cmd, d.done
	d.mu.Unlock()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	return cmd.Process.Pid
}

// TestStartAgainAfterAFailedStart: a program that exits at once fails the
// start; once it is mended, the next Ensure runs it (before, every later try
// answered "exited at once" without running anything).
func TestStartAgainAfterAFailedStart(t *testing.T) {
	host := freeHost(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "ollama")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'Error: listen tcp: address already in use' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := New(Config{Host: host, Path: bin, Manage: "auto", LogFile: filepath.Join(dir, "ollama.log"), Answers: answers(host)})
	defer d.Stop()
	var se *StartError
	if _, err := d.Ensure(t.Context()); !errors.As(err, &se) || !se.Exited {
		t.Fatalf("first start: %v", err)
	}
	st := d.State(t.Context())
	if st.Status != Stopped || !st.Exited || st.Answered || !d.CanStart(st) {
		t.Errorf("after a failed start: %+v", st)
	}
	if lines := d.LogTail(5); !strings.Contains(strings.Join(lines, "\n"), "address already in use") {
		t.Errorf("log tail: %q", lines)
	}
	good, err := os.ReadFile(standIn(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, good, 0o755); err != nil {
		t.Fatal(err)
	}
	if st, err := d.Ensure(t.Context()); err != nil || st.Status != Running || !st.Managed {
		t.Fatalf("start again: %+v, %v", st, err)
	}
}

// TestLostIsNotMissing: an Ollama Hermes did not start (a container, another
// terminal) answered and stopped; with no ollama program here the state is
// Lost, never Missing (the install screen), and Hermes does not offer to start it.
func TestLostIsNotMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	host := freeHost(t)
	fake := exec.Command(fakeOllama, "--addr", strings.TrimPrefix(host, "http://"))
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	d := New(Config{Host: host, Manage: "auto", LogFile: filepath.Join(t.TempDir(), "l"), Answers: answers(host), Search: []string{}})
	deadline := time.Now().Add(10 * time.Second)
	for d.State(t.Context()).Status != Running {
		if time.Now().After(deadline) {
			t.Fatal("the fake never answered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = fake.Process.Kill()
	_ = fake.Wait()
	st := d.State(t.Context())
	if st.Status != Lost || st.Exited || st.Managed || d.CanStart(st) || !strings.Contains(st.Hint, host) || d.LogTail(10) != nil {
		t.Errorf("after the foreign Ollama stopped: %+v", st)
	}
	if st, err := d.Ensure(t.Context()); err != nil || st.Status != Lost {
		t.Errorf("ensure: %+v, %v", st, err)
	}
	fresh := New(Config{Host: host, Manage: "auto", LogFile: filepath.Join(t.TempDir(), "l"), Answers: answers(host), Search: []string{}})
	if st := fresh.State(t.Context()); st.Status != Missing {
		t.Errorf("never answered, no program: %+v", st)
	}
}

func TestLogTail(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ollama.log")
	text := "old run\n--- t: " + startMarker + " x serve on y ---\n" + strings.Repeat("line\n", 30) + "last\n"
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	got := tail(file, 3)
	if len(got) != 3 || got[2] != "last" || got[0] != "line" {
		t.Errorf("tail = %q", got)
	}
	if got := tail(file, 100); len(got) != 31 || strings.Contains(strings.Join(got, "\n"), "old run") {
		t.Errorf("tail since the marker = %d lines %q", len(got), got[:2])
	}
	if got := tail(filepath.Join(t.TempDir(), "none"), 3); got != nil {
		t.Errorf("no file: %q", got)
	}
}
