package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
	"hermes/backend/llm/llmtest/realollama"
)

// fakeOllamaBin builds the stand-in's program once per test binary.
func fakeOllamaBin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fake-ollama")
	if out, err := exec.Command("go", "build", "-o", bin, "hermes/backend/llm/llmtest/cmd/fake-ollama").CombinedOutput(); err != nil {
		t.Fatalf("build fake-ollama: %v\n%s", err, out)
	}
	return bin
}

// ollamaStandIn is an executable named ollama whose `serve` runs prog on
// $OLLAMA_HOST, as the real one does.
func ollamaStandIn(t *testing.T, prog string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ollama")
	script := "#!/bin/sh\n[ \"$1\" = serve ] || exit 2\nexec " + prog + " --addr \"$OLLAMA_HOST\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func setAll(t *testing.T, c *Core, kv ...string) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		if err := c.settings.Set(context.Background(), kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
}

// killManaged kills the Ollama Hermes started and waits until it has exited.
func killManaged(t *testing.T, c *Core) {
	t.Helper()
	c.mu.Lock()
	d := c.ollama
	c.mu.Unlock()
	if d == nil || d.Pid() == 0 {
		t.Fatal("Hermes started no Ollama")
	}
	if err := syscall.Kill(-d.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return d.Pid() == 0 })
}

// hasEvent reports whether the UI was sent an event named name.
func (e *events) hasEvent(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, g := range e.got {
		if strings.HasPrefix(g, name+" ") {
			return true
		}
	}
	return false
}

// TestConnectionStates: each state of the connection against the stand-in,
// as Setup (the main area) and Status (the status bar) say it: not installed,
// installed and stopped, ready, stopped responding after it answered (the
// Ollama Hermes started, killed: its exit and log, and Start again that
// really starts it), and a foreign Ollama that stopped (never the install screen).
func TestConnectionStates(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	fake := fakeOllamaBin(t)
	host := closedHost(t)
	t.Setenv("OLLAMA_MODELS", t.TempDir())
	setAll(t, core, "ollama_host", host, "ollama_path", "/nonexistent/ollama", "manage_ollama", "auto", "connect_timeout", "500ms")

	su, _ := a.Models.Setup()
	if su.Connection != ConnNotInstalled || su.Step != "install" || su.CanStart || su.Remote {
		t.Errorf("not installed: %+v", su)
	}
	standIn := ollamaStandIn(t, fake)
	setAll(t, core, "ollama_path", standIn, "manage_ollama", "never")
	if su, _ = a.Models.Setup(); su.Connection != ConnStopped || su.Step != "start" || su.CanStart {
		t.Errorf("stopped, manage never: %+v", su)
	}
	setAll(t, core, "manage_ollama", "auto")
	if su, _ = a.Models.Setup(); su.Connection != ConnStopped || !su.CanStart || su.Binary != standIn {
		t.Errorf("stopped: %+v", su)
	}
	if su, err := a.Models.StartOllama(); err != nil || su.Connection != ConnReady || !su.Managed {
		t.Fatalf("start: %+v, %v", su, err)
	}
	if st, _ := a.Settings.Status(); st.Connection != ConnReady || !st.Reachable || !st.OllamaManaged {
		t.Errorf("ready: %+v", st)
	}

	killManaged(t, core)
	su, _ = a.Models.Setup()
	if su.Connection != ConnLost || su.Step != "reconnect" || !su.Exited || !su.CanStart || su.Code != NoticeOllamaLost ||
		len(su.LogTail) == 0 || !strings.Contains(strings.Join(su.LogTail, "\n"), "serve ended") {
		t.Errorf("stopped responding: %+v", su)
	}
	if st, _ := a.Settings.Status(); st.Connection != ConnLost || st.Code != NoticeOllamaLost || st.Params["host"] != host || st.Reachable {
		t.Errorf("status, stopped responding: %+v", st)
	}
	if su, err := a.Models.StartOllama(); err != nil || su.Connection != ConnReady || !su.Managed {
		t.Fatalf("start again: %+v, %v", su, err)
	}

	// An Ollama Hermes did not start (a container, another terminal), with no
	// ollama program here: once it answered, its stop is "stopped responding".
	foreign := closedHost(t)
	setAll(t, core, "ollama_host", foreign, "ollama_path", "/nonexistent/ollama")
	cmd := exec.Command(fake, "--addr", strings.TrimPrefix(foreign, "http://"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	waitFor(t, func() bool { su, _ := a.Models.Setup(); return su.Connection == ConnReady })
	setAll(t, core, "manage_ollama", "never") // a new supervisor for the same host remembers it answered
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if su, _ = a.Models.Setup(); su.Connection != ConnLost || su.Step != "reconnect" || su.CanStart || su.LogTail != nil || su.Exited {
		t.Errorf("foreign Ollama stopped: %+v", su)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 15s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRemoteConnectionStates: an address that is not this computer never
// leads to the install screen: a LAN host that does not answer is
// remote_unreachable, an internet host without ollama_allow_internet is refused
// by Hermes itself (as MCP over HTTP), and offline_only refuses the LAN too.
func TestRemoteConnectionStates(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	setAll(t, core, "connect_timeout", "300ms", "ollama_path", "/nonexistent/ollama")
	cases := []struct {
		name, host, offline, conn, code, step string
	}{
		{"LAN host down", "http://hermes-test-no-such-host:11434", "false", ConnRemoteDown, NoticeOllamaRemoteDown, "connect"},
		{"internet host", "http://192.0.2.10:11434", "false", ConnRefused, NoticeOllamaRefused, "connect"},
		{"offline_only", "http://10.11.12.13:11434", "true", ConnRefused, NoticeOfflineRefused, "connect"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setAll(t, core, "ollama_host", c.host, "offline_only", c.offline)
			su, _ := a.Models.Setup()
			if su.Connection != c.conn || su.Code != c.code || su.Step != c.step || !su.Remote || su.CanStart {
				t.Errorf("setup: %+v", su)
			}
			st, _ := a.Settings.Status()
			if st.Connection != c.conn || st.Code != c.code || st.Reachable {
				t.Errorf("status: %+v", st)
			}
		})
	}
}

// TestCheckAndUseOllamaHost: an address is checked (version, model count)
// before it is saved; one that does not answer is saved only when asked
// anyway; one the network rules refuse never is.
func TestCheckAndUseOllamaHost(t *testing.T) {
	a, core, fake, ev := newTestApp(t, llmtest.Echo(0, 0))
	other := llmtest.New()
	other.Version = "0.17.4"
	srv := other.Start()
	t.Cleanup(func() { other.Close(); srv.Close() })
	notOllama := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notOllama.Close)
	_ = fake
	setAll(t, core, "connect_timeout", "300ms")

	got, err := a.Models.CheckOllamaHost(srv.URL)
	if err != nil || !got.OK || got.Version != "0.17.4" || got.Models != len(other.Models) || got.Saved || got.Remote || got.Params["models"] == "" {
		t.Fatalf("check: %+v, %v", got, err)
	}
	if h, _ := core.settings.Get(context.Background(), "ollama_host"); h == srv.URL {
		t.Error("a check saved the address")
	}
	if got, err = a.Models.UseOllamaHost(strings.TrimPrefix(srv.URL, "http://"), false); err != nil || !got.Saved || got.Host != srv.URL {
		t.Fatalf("use: %+v, %v", got, err)
	}
	if h, _ := core.settings.Get(context.Background(), "ollama_host"); h != srv.URL {
		t.Errorf("saved %q", h)
	}
	if !ev.hasEvent("setup:changed") {
		t.Error("no setup:changed after the address changed")
	}
	if st, _ := a.Settings.Status(); st.Host != srv.URL || !st.Reachable || st.Version != "0.17.4" {
		t.Errorf("status after use: %+v", st)
	}

	closed := closedHost(t)
	for _, c := range []struct {
		name, url string
		anyway    bool
		code      string
		saved     bool
	}{
		{"not a URL", "ftp://x:1", true, CheckBadURL, false},
		{"link-local", "http://169.254.169.254", true, CheckBadURL, false},
		{"internet", "http://192.0.2.10:11434", true, CheckNeedsInternet, false},
		{"not Ollama", notOllama.URL, false, CheckNotOllama, false},
		{"nothing answers", closed, false, CheckNoAnswer, false},
		{"nothing answers, anyway", closed, true, CheckNoAnswer, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := core.settings.Get(context.Background(), "ollama_host")
			got, err := a.Models.UseOllamaHost(c.url, c.anyway)
			after, _ := core.settings.Get(context.Background(), "ollama_host")
			if err != nil || got.OK || got.Code != c.code || got.Saved != c.saved || got.Problem == "" || (after != before) != c.saved {
				t.Errorf("%+v, %v (ollama_host %s -> %s)", got, err, before, after)
			}
		})
	}
	setAll(t, core, "offline_only", "true")
	if got, _ := a.Models.CheckOllamaHost("http://10.11.12.13:11434"); got.Code != CheckOffline {
		t.Errorf("offline_only: %+v", got)
	}
	setAll(t, core, "offline_only", "false", "ollama_allow_internet", "true")
	if got, _ := a.Models.CheckOllamaHost("http://192.0.2.10:9"); got.Code == CheckNeedsInternet || got.Warning != "plain_http" {
		t.Errorf("internet allowed, plain http: %+v", got)
	}
}

// TestConnectionWithTheRealOllama: the real server, started by Hermes as its
// ollama_path: checked (its version), killed (stopped responding, with its
// log), and started again.
func TestConnectionWithTheRealOllama(t *testing.T) {
	wd, _ := os.Getwd()
	bin, err := realollama.FindBinary(wd)
	if err != nil {
		t.Fatal(err)
	}
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("OLLAMA_MODELS", filepath.Join(home, "models"))
	host := closedHost(t)
	setAll(t, core, "ollama_host", host, "ollama_path", bin, "manage_ollama", "auto")
	if su, _ := a.Models.Setup(); su.Connection != ConnStopped || !su.CanStart {
		t.Fatalf("stopped: %+v", su)
	}
	if su, err := a.Models.StartOllama(); err != nil || su.Connection != ConnReady {
		t.Fatalf("start: %+v, %v", su, err)
	}
	got, err := a.Models.CheckOllamaHost(host)
	if err != nil || !got.OK || got.Version == "" || got.Models != 0 {
		t.Errorf("check of the real server: %+v, %v", got, err)
	}
	killManaged(t, core)
	if su, _ := a.Models.Setup(); su.Connection != ConnLost || !su.Exited || len(su.LogTail) == 0 {
		t.Errorf("real server killed: %+v", su)
	}
	if su, err := a.Models.StartOllama(); err != nil || su.Connection != ConnReady || !su.Managed {
		t.Errorf("start again: %+v, %v", su, err)
	}
}

// TestWebOllamaInternetNeedsTheTerminalCode: allowing an internet Ollama from
// the browser sends the chats off the network, so it needs the printed code;
// turning it off does not.
func TestWebOllamaInternetNeedsTheTerminalCode(t *testing.T) {
	rig := startWebRig(t)
	res := rig.call(t, "SetSetting", "", "ollama_allow_internet", "on")
	if res.status != http.StatusPreconditionRequired || !strings.Contains(rig.terminal.String(), "Ollama on the internet") {
		t.Fatalf("without a code = %d %v", res.status, res.body)
	}
	if v, _ := rig.core.settings.Get(context.Background(), "ollama_allow_internet"); v != "false" {
		t.Fatalf("set to %q without a code", v)
	}
	if res := rig.call(t, "SetSetting", "", "ollama_allow_internet", "false"); res.status != http.StatusOK {
		t.Fatalf("turning it off = %d %v", res.status, res.body)
	}
	code := rig.terminal.lastCode(t)
	if res := rig.call(t, "SetSetting", code, "ollama_allow_internet", "true"); res.status != http.StatusOK {
		t.Fatalf("with the code = %d %v", res.status, res.body)
	}
}
