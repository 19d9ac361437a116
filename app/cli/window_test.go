package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/app"
	"hermes/backend/intent"
)

// hermes with no command puts the window's executable next to it in its place:
// the same process, arguments and environment; without one it says what to
// use instead.
func TestWindowIsItsOwnExecutable(t *testing.T) {
	if app.DesktopLinked {
		t.Fatal("the tests are built without the desktop tag")
	}
	r := runCLI(t, map[string]string{"HERMES_DATA_DIR": t.TempDir(), "DISPLAY": ":99"}, "")
	if r.code != 1 || !strings.Contains(r.stderr, "the window is not installed") || !strings.Contains(r.stderr, "hermes serve") {
		t.Fatalf("no window executable: %+v", r)
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "hermes")
	data, err := os.ReadFile(builtHermes(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// The stand-in window prints its pid, arguments and one variable.
	window := "#!/bin/sh\necho \"pid=$$ args=$* data=$HERMES_DATA_DIR\"\necho \"$HERMES_LAUNCHED_AT\"\n"
	if err := os.WriteFile(filepath.Join(dir, app.WindowName), []byte(window), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--data-dir", dir)
	cmd.Env = []string{"DISPLAY=:99", "HERMES_DATA_DIR=" + dir, "PATH=/usr/bin:/bin"}
	before := time.Now()
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := "pid=" + strconv.Itoa(cmd.Process.Pid) + " args=--data-dir " + dir + " data=" + dir
	if err != nil || len(lines) != 2 || lines[0] != want {
		t.Fatalf("hermes started %q, %v; want %q", out, err, want)
	}
	// The window counts its start-up from the command the user ran.
	ns, _ := strconv.ParseInt(lines[1], 10, 64)
	if at := time.Unix(0, ns); at.Before(before) || at.After(time.Now()) {
		t.Errorf("launched at %q, not during the run", lines[1])
	}
	env := Env{Started: time.Now(), Getenv: func(k string) string { return map[string]string{"HERMES_LAUNCHED_AT": lines[1]}[k] }}
	if got := started(env); !got.Equal(time.Unix(0, ns)) {
		t.Errorf("started %v, want the launch time", got)
	}
	env.Getenv = func(string) string { return "soon" }
	if got := started(env); !got.Equal(env.Started) {
		t.Errorf("started %v with no launch time, want the process's own", got)
	}
}

// WindowExecutable finds an executable file only.
func TestWindowExecutable(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "hermes")
	if p, err := app.WindowExecutable(self); err != app.ErrNoWindow {
		t.Fatalf("empty folder: %q, %v", p, err)
	}
	p := filepath.Join(dir, app.WindowName)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := app.WindowExecutable(self); got == p {
		t.Fatal("a file that is not executable was taken for the window")
	}
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := mustWindow(t, self); got != p {
		t.Fatalf("found %q, want %q", got, p)
	}
	// Only the packaged hermes looks in the package's lib directory: a build or
	// a test must never start an installed window (another version, and exec
	// would replace the test process).
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if got, err := app.WindowExecutable(self); err != app.ErrNoWindow {
		t.Fatalf("a hermes outside %s found %q, %v", app.PackagedBinDir, got, err)
	}
	if got, err := app.WindowExecutable(filepath.Join(app.PackagedBinDir, "hermes")); err == nil && filepath.Dir(got) != intent.SystemDir {
		t.Fatalf("the packaged hermes found %q", got)
	}
}

func mustWindow(t *testing.T, self string) string {
	t.Helper()
	p, err := app.WindowExecutable(self)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
