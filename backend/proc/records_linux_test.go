package proc

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const testMarker = "HERMES_PROC_TEST_RUN"

// orphan starts sleep 60 with env, not as our child (its shell exits at once),
// as what a dead Hermes left is; it is killed at the end of the test.
func orphan(t *testing.T, env ...string) int {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "orphan.pid")
	sh := exec.Command("sh", "-c", `sleep 60 & echo $! > "$0"`, pidFile)
	sh.Env = append(os.Environ(), env...)
	if err := sh.Run(); err != nil { // no pipes: the sleep would hold them open
		t.Fatal(err)
	}
	pid := readPID(t, pidFile)
	killAtEnd(t, pid)
	return pid
}

func recordOf(t *testing.T, pid int) Record {
	t.Helper()
	st, err := ReadStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	return Record{PID: pid, Start: st.Start, Cmdline: StartedCmdline(pid)}
}

func TestSelfAndMarkers(t *testing.T) {
	self := Self()
	st, err := ReadStat(os.Getpid())
	if err != nil || self.PID != os.Getpid() || self.Start != st.Start || self.Start == 0 || self.PIDNS == "" || !self.Alive() {
		t.Fatalf("Self = %+v; stat %+v %v", self, st, err)
	}
	if st.PPID != os.Getppid() || st.State == 'Z' {
		t.Fatalf("stat = %+v", st)
	}
	o, ok := ParseMarker(self.Prefix() + "7")
	if !ok || o != (Owner{PID: self.PID, Start: self.Start, PIDNS: self.PIDNS}) {
		t.Fatalf("ParseMarker = %+v %v", o, ok)
	}
	for _, bad := range []string{"", "a:b:c:d", "1:2:3", "1:0:3:4", "1:-5:3:4"} {
		if _, ok := ParseMarker(bad); ok {
			t.Errorf("ParseMarker(%q) ok", bad)
		}
	}
}

func TestWriteRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pids")
	rs := Records{Owner: Self(), Children: []Record{{PID: 20, Start: 2, Cmdline: []string{"b"}, Run: "r2"}, {PID: 10, Start: 1, Cmdline: []string{"a"}, Run: "r1"}}}
	if err := WriteRecords(dir, rs); err != nil {
		t.Fatal(err)
	}
	path := RecordPath(dir, Self())
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Records
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Owner != Self() || len(back.Children) != 2 || back.Children[0].PID != 10 || back.Children[1].Run != "r2" || rs.Children[0].PID != 20 {
		t.Fatalf("written %s (the caller's slice is %+v)", b, rs.Children)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record file: %v %v", fi, err)
	}
	if err := WriteRecords(dir, Records{Owner: Self()}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a record with no children is still there: %v", err)
	}
	if err := WriteRecords(dir, Records{Owner: Self()}); err != nil {
		t.Fatal("removing a record that is not there:", err)
	}
}

func TestSweepStopsWhatADeadHermesLeft(t *testing.T) {
	self := Self()
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead := Owner{PID: exited.Process.Pid, Start: 4242, Boot: self.Boot, PIDNS: self.PIDNS}
	if dead.Alive() {
		t.Skip("the pid was reused at once")
	}
	recorded := orphan(t)                                                                     // its child, still running
	marked := orphan(t, testMarker+"="+dead.Prefix()+"1")                                     // a double-forked grandchild of it
	elsewhere := orphan(t, testMarker+"=other:"+strings.SplitN(dead.Prefix(), ":", 2)[1]+"1") // a dead Hermes in another pid namespace
	ours := orphan(t, testMarker+"="+self.Prefix()+"1")                                       // a marker of ours
	reused := orphan(t)                                                                       // its pid now belongs to another process
	renamed := orphan(t)

	dir := t.TempDir()
	rReused := recordOf(t, reused)
	rReused.Start++
	rRenamed := recordOf(t, renamed)
	rRenamed.Cmdline = []string{"/usr/bin/something-else"}
	write := func(rs Records) string {
		if err := WriteRecords(dir, rs); err != nil {
			t.Fatal(err)
		}
		return RecordPath(dir, rs.Owner)
	}
	stale := write(Records{Owner: dead, Children: []Record{recordOf(t, recorded), rReused, rRenamed}})
	earlier := dead
	earlier.Start, earlier.Boot = 4243, "an-earlier-boot"
	earlierPath := write(Records{Owner: earlier, Children: []Record{recordOf(t, reused)}})
	mine := write(Records{Owner: self, Children: []Record{recordOf(t, renamed)}})
	unreadable := filepath.Join(dir, "1-2.json")
	if err := os.WriteFile(unreadable, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	oldTemp := filepath.Join(dir, ".1-2.json.123")
	if err := os.WriteFile(oldTemp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(oldTemp, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	newTemp := filepath.Join(dir, ".1-2.json.456")
	if err := os.WriteFile(newTemp, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	Sweep(dir, testMarker, self, nil)

	for name, pid := range map[string]int{"its recorded child": recorded, "a process with its marker": marked} {
		if !goneSoon(pid) {
			t.Errorf("%s still runs", name)
		}
	}
	for name, pid := range map[string]int{"a reused pid": reused, "another command line": renamed,
		"a marker of another pid namespace": elsewhere, "our own marker": ours} {
		if gone(pid) {
			t.Errorf("%s was stopped", name)
		}
	}
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, filepath.Join(dir, e.Name()))
	}
	want := []string{mine, newTemp}
	slices.Sort(left)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("files left %v; want %v (stale %s, earlier boot %s, unreadable and an old temporary file removed)", left, want, stale, earlierPath)
	}
}
