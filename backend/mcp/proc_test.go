//go:build linux

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dead reports whether pid no longer runs (gone, or a zombie nobody reaped yet).
func dead(pid int) bool {
	st, err := readStat(pid)
	return err != nil || st.state == 'Z'
}

// waitDead waits until pid no longer runs; reaped also wants it out of /proc.
func waitDead(t *testing.T, pid int, reaped bool, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(10 * time.Millisecond) {
		_, err := readStat(pid)
		if reaped && err != nil || !reaped && dead(pid) {
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			t.Fatalf("process %d still there after %s: %s", pid, within, b)
		}
	}
}

// readPIDFile waits for the fake server's grandchild to write its pid.
func readPIDFile(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not written", path)
		}
	}
}

// asSubreaper makes the test process a subreaper for the test, with a fast
// sweeper.
func asSubreaper(t *testing.T) {
	t.Helper()
	if err := setSubreaper(true); err != nil {
		t.Fatal("cannot become a subreaper (prctl PR_SET_CHILD_SUBREAPER works on every Linux CI runs on):", err)
	}
	tr := procs()
	tr.mu.Lock()
	old := tr.sweepEvery
	tr.sweepEvery = 50 * time.Millisecond
	tr.mu.Unlock()
	t.Cleanup(func() {
		if err := setSubreaper(false); err != nil {
			t.Error(err)
		}
		tr.mu.Lock()
		tr.sweepEvery = old
		tr.mu.Unlock()
	})
}

// killAtEnd kills pid when the test ends, whatever happened (if it is still
// the same process).
func killAtEnd(t *testing.T, pid int) {
	st, err := readStat(pid)
	if err != nil {
		return
	}
	t.Cleanup(func() {
		if now, err := readStat(pid); err == nil && now.start == st.start {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			if now.ppid == os.Getpid() { // ours to reap: a failed test leaves no zombie for the next
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, 0, nil)
			}
		}
	})
}

func TestDoubleForkedGrandchildIsStoppedOnClose(t *testing.T) {
	for _, tc := range []struct {
		name      string
		subreaper bool
		args      []string
	}{
		{"subreaper, new session", true, nil},
		{"subreaper, same group", true, []string{"-setsid=false"}},
		{"no subreaper, new session", false, nil},
		{"no subreaper, same group", false, []string{"-setsid=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.subreaper {
				asSubreaper(t)
			}
			leak := checkGoroutines(t)
			pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
			h := newHarness(t, map[string]ServerConfig{"df": fake(append([]string{"-mode", "double-fork", "-pid-file", pidFile}, tc.args...)...)}, nil)
			st := h.waitState("df", StateReady, 10*time.Second)
			gc := readPIDFile(t, pidFile)
			killAtEnd(t, gc)
			if dead(gc) {
				t.Fatal("the grandchild is not running")
			}
			if run, ok := readMarker(gc); !ok || !strings.HasPrefix(run, procs().self.prefix()) {
				t.Fatalf("the grandchild's marker = %q, %v; want our prefix %q", run, ok, procs().self.prefix())
			}
			if gst, _ := readStat(gc); tc.subreaper && gst.ppid != os.Getpid() {
				t.Fatalf("as a subreaper the orphan should be our child: ppid %d", gst.ppid)
			}
			if err := h.m.Close(); err != nil {
				t.Fatal(err)
			}
			waitDead(t, st.PID, true, 3*time.Second)
			waitDead(t, gc, tc.subreaper, 3*time.Second) // as a subreaper we reap it; otherwise init does
			if tc.subreaper {
				checkNoZombies(t)
			}
			leak()
		})
	}
}

func TestAServerThatStopsTakesItsDescendants(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	h := newHarness(t, map[string]ServerConfig{"df": fake("-mode", "double-fork", "-pid-file", pidFile)}, nil)
	h.waitState("df", StateReady, 10*time.Second)
	gc := readPIDFile(t, pidFile)
	killAtEnd(t, gc)
	if err := h.m.SetServerDisabled(context.Background(), "df", true); err != nil {
		t.Fatal(err)
	}
	h.waitState("df", StateDisabled, 5*time.Second)
	waitDead(t, gc, false, 3*time.Second)
}

func TestSubreaperReapsOrphansThatExitOnTheirOwn(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"new session: known by its marker", nil},
		{"same group: known by its group", []string{"-setsid=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asSubreaper(t)
			pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
			h := newHarness(t, map[string]ServerConfig{"df": fake(append([]string{"-mode", "double-fork", "-pid-file", pidFile, "-sleep", "4s"}, tc.args...)...)}, nil)
			h.waitState("df", StateReady, 10*time.Second)
			gc := readPIDFile(t, pidFile)
			killAtEnd(t, gc)
			// It exits by itself 4 s after it starts (a window wide enough for
			// the sweeper, every 500 ms, to see it alive under CI's load);
			// the sweeper reaps it while the server runs.
			waitDead(t, gc, true, 10*time.Second)
			if st, _ := h.m.Server("df"); st.State != StateReady {
				t.Fatalf("state = %s", st.State)
			}
			checkNoZombies(t)
		})
	}
}

func TestRecordOfRunningServers(t *testing.T) {
	h := newHarness(t, map[string]ServerConfig{"a": fake()}, nil)
	st := h.waitState("a", StateReady, 10*time.Second)
	self := procs().self
	path := filepath.Join(h.dir, recordDirName, fmt.Sprintf("%d-%d.json", self.PID, self.Start))
	var rf recordFile
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rf); err != nil {
		t.Fatal(err)
	}
	pst, _ := readStat(st.PID)
	if rf.Owner != self || len(rf.Servers) != 1 || rf.Servers[0].PID != st.PID || rf.Servers[0].Start != pst.start ||
		!slices.Equal(rf.Servers[0].Cmdline, []string{fakeBin}) || !strings.HasPrefix(rf.Servers[0].Run, self.prefix()) {
		t.Fatalf("record = %+v (server pid %d, start %d)", rf, st.PID, pst.start)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record file: %v %v", fi, err)
	}
	t.Run("a server that stops normally leaves no record", func(t *testing.T) {
		if err := h.m.SetServerDisabled(context.Background(), "a", true); err != nil {
			t.Fatal(err)
		}
		h.waitState("a", StateDisabled, 5*time.Second)
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("record still there: %v", err)
		}
	})
}

// sleeper starts a process that sleeps, in its own group, with env; it is
// reaped in the background and killed at the end of the test.
func sleeper(t *testing.T, env []string, setsid bool) (*exec.Cmd, chan error) {
	t.Helper()
	cmd := exec.Command(fakeBin, "-mode", "sleeper")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !setsid, Setsid: setsid}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return cmd, done
}

// orphanSleeper starts a sleeper that is not our child (its parent exits at
// once), as the processes of a Hermes that died are; it is killed at the end of
// the test.
func orphanSleeper(t *testing.T, env []string, setsid bool) int {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "orphan.pid")
	mid := exec.Command(fakeBin, "-mode", "fork-middle", "-pid-file", pidFile, fmt.Sprintf("-setsid=%v", setsid))
	mid.Env = env
	if out, err := mid.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	pid := readPIDFile(t, pidFile)
	killAtEnd(t, pid)
	return pid
}

func killedSoon(pid int) bool {
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if dead(pid) {
			return true
		}
	}
	return false
}

func stillRunning(done chan error) bool {
	select {
	case err := <-done:
		done <- err
		return false
	case <-time.After(100 * time.Millisecond):
		return true
	}
}

func writeRecord(t *testing.T, dir string, rf recordFile) string {
	t.Helper()
	b, _ := json.Marshal(rf)
	path := filepath.Join(dir, recordDirName, fmt.Sprintf("%d-%d.json", rf.Owner.PID, rf.Owner.Start))
	if err := writeFileAtomic(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServersOfADeadHermesAreStoppedAtStart(t *testing.T) {
	self := procs().self
	// A Hermes that is gone: a pid that no longer runs.
	gone := exec.Command(fakeBin, "-mode", "sleeper", "-sleep", "0s")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	deadOwner := procOwner{PID: gone.Process.Pid, Start: 4242, Boot: self.Boot, PIDNS: self.PIDNS}
	if ownerAlive(deadOwner) {
		t.Skip("the pid was reused at once")
	}
	deadRun := deadOwner.prefix() + "1"

	recordPID := func(pid int) procRecord {
		st, err := readStat(pid)
		if err != nil {
			t.Fatal(err)
		}
		return procRecord{PID: pid, Start: st.start, Cmdline: startedCmdline(pid)}
	}
	record := func(cmd *exec.Cmd) procRecord { return recordPID(cmd.Process.Pid) }

	// The processes the dead Hermes left are no children of ours (they were
	// re-parented); the others may be.
	server := orphanSleeper(t, nil, false)                                // the dead Hermes's server, still running
	orphan := orphanSleeper(t, []string{markerVar + "=" + deadRun}, true) // a double-forked grandchild of it
	reused, reusedDone := sleeper(t, nil, false)                          // its pid now belongs to another process
	renamed, renamedDone := sleeper(t, nil, false)
	_, otherNSDone := sleeper(t, []string{markerVar + "=1:" + deadRun[strings.Index(deadRun, ":")+1:]}, true) // a dead Hermes elsewhere
	liveOwner := procOwner{PID: reused.Process.Pid, Start: record(reused).Start, Boot: self.Boot, PIDNS: self.PIDNS}
	_, livesChildDone := sleeper(t, []string{markerVar + "=" + liveOwner.prefix() + "1"}, true)

	dir := t.TempDir()
	rServer := recordPID(server)
	rReused := record(reused)
	rReused.Start++ // another start time: not the process that was recorded
	rRenamed := record(renamed)
	rRenamed.Cmdline = []string{"/usr/bin/something-else"}
	stale := writeRecord(t, dir, recordFile{Owner: deadOwner, Servers: []procRecord{rServer, rReused, rRenamed}})
	oldBoot := deadOwner
	oldBoot.Start++
	oldBoot.Boot = "an-earlier-boot"
	earlier := writeRecord(t, dir, recordFile{Owner: oldBoot, Servers: []procRecord{record(reused)}})
	running := writeRecord(t, dir, recordFile{Owner: liveOwner, Servers: []procRecord{record(renamed)}})

	newHarness(t, map[string]ServerConfig{}, func(o *Options) { o.DataDir = dir })

	for _, tc := range []struct {
		name string
		pid  int
	}{
		{"its recorded server (same pid, start time and command line) is killed", server},
		{"a process carrying its marker is killed", orphan},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !killedSoon(tc.pid) {
				t.Fatal("still running")
			}
		})
	}
	for _, tc := range []struct {
		name string
		done chan error
	}{
		{"a reused pid (another start time) is not touched", reusedDone},
		{"another command line is not touched", renamedDone},
		{"a record of an earlier boot is not acted on", reusedDone},
		{"a marker of another pid namespace is not touched", otherNSDone},
		{"a marker of a running Hermes is not touched", livesChildDone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !stillRunning(tc.done) {
				t.Fatal("it was stopped")
			}
		})
	}
	t.Run("records", func(t *testing.T) {
		for path, want := range map[string]bool{stale: false, earlier: false, running: true} {
			if _, err := os.Stat(path); (err == nil) != want {
				t.Errorf("%s: exists %v, want %v", filepath.Base(path), err == nil, want)
			}
		}
	})
}

// TestHelperHermes is a Hermes to kill -9 (see TestKilledHermes); it runs only
// when HERMES_MCP_TEST_HELPER names its data dir.
func TestHelperHermes(t *testing.T) {
	dir := os.Getenv("HERMES_MCP_TEST_HELPER")
	if dir == "" {
		t.Skip("a helper process for TestKilledHermes")
	}
	writeConfig(t, dir, map[string]ServerConfig{
		"df":       fake("-mode", "double-fork", "-pid-file", filepath.Join(dir, "grandchild.pid")),
		"stubborn": fake("-mode", "ignore-term"), // stays up when its stdin closes: only the parent-death signal ends it
	})
	o := testOptions(dir)
	m, err := New(newRegistry(), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"df", "stubborn"} {
		if err := m.Approve(context.Background(), name); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"df", "stubborn"} {
		for {
			if st, _ := m.Server(name); st.State == StateReady {
				_ = writeFileAtomic(filepath.Join(dir, name+".pid"), []byte(strconv.Itoa(st.PID)), 0o600)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	time.Sleep(time.Minute) // until killed
}

func TestKilledHermes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second test process")
	}
	dir := t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperHermes$")
	helper.Env = append(os.Environ(), "HERMES_MCP_TEST_HELPER="+dir, "TMPDIR="+dir) // its fake server is built there
	helper.Stdout, helper.Stderr = os.Stderr, os.Stderr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	server := readPIDFileWithin(t, filepath.Join(dir, "df.pid"), 60*time.Second)
	stubborn := readPIDFileWithin(t, filepath.Join(dir, "stubborn.pid"), 10*time.Second)
	gc := readPIDFile(t, filepath.Join(dir, "grandchild.pid"))
	for _, pid := range []int{server, stubborn, gc} {
		killAtEnd(t, pid)
	}

	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	t.Run("the servers get the parent-death signal", func(t *testing.T) {
		waitDead(t, server, false, 3*time.Second)
		waitDead(t, stubborn, false, 3*time.Second)
	})
	t.Run("the double-forked grandchild survives it", func(t *testing.T) {
		time.Sleep(100 * time.Millisecond)
		if dead(gc) {
			// Only another Hermes (a test binary running at the same time) may
			// have stopped it already.
			t.Skip("the grandchild is gone already: another Hermes started meanwhile?")
		}
	})
	records := func() []string {
		names, _ := filepath.Glob(filepath.Join(dir, recordDirName, "[0-9]*.json")) // not temporary files
		return names
	}
	t.Run("the next Hermes stops it and removes the record", func(t *testing.T) {
		if r := records(); len(r) != 1 {
			t.Fatalf("records of the killed Hermes: %v", r)
		}
		// The next Hermes on the same data dir (which would start the servers
		// again; here it only looks, as `hermes mcp list` does).
		newHarness(t, map[string]ServerConfig{}, func(o *Options) { o.DataDir, o.NoAutoStart = dir, true })
		waitDead(t, gc, false, 3*time.Second)
		if r := records(); len(r) != 0 {
			b, _ := os.ReadFile(r[0])
			t.Fatalf("records left: %v: %s (we are %d, the helper was %d)", r, b, os.Getpid(), helper.Process.Pid)
		}
	})
}

func readPIDFileWithin(t *testing.T, path string, within time.Duration) int {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("%s was not written within %s", path, within)
	return 0
}

func TestParseRunAndStat(t *testing.T) {
	o, ok := parseRun("4026531836:123:456:7")
	if !ok || o != (procOwner{PID: 123, Start: 456, PIDNS: "4026531836"}) {
		t.Fatalf("parseRun = %+v %v", o, ok)
	}
	for _, bad := range []string{"", "a:b:c:d", "1:2:3", "1:0:3:4", "1:-5:3:4"} {
		if _, ok := parseRun(bad); ok {
			t.Errorf("parseRun(%q) ok", bad)
		}
	}
	st, err := readStat(os.Getpid())
	if err != nil || st.ppid != os.Getppid() || st.start == 0 || st.state == 'Z' {
		t.Fatalf("readStat(self) = %+v %v", st, err)
	}
	if st.start != procs().self.Start {
		t.Fatalf("start %d, tracker says %d", st.start, procs().self.Start)
	}
}
