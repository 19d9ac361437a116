package procid

import (
	"os/exec"
	"testing"
)

func TestAliveAndGone(t *testing.T) {
	self := Self()
	if !self.Alive() || self.Start == 0 {
		t.Fatalf("self %+v not alive", self)
	}
	back, ok := Parse(self.String())
	if !ok || back != self {
		t.Fatalf("round trip %q -> %+v", self.String(), back)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child := Of(cmd.Process.Pid)
	if !child.Alive() {
		t.Fatal("a running child is not alive")
	}
	reused := child
	reused.Start++ // the same pid, started at another time: another process
	if reused.Alive() {
		t.Error("a process with another start time counts as the same")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if child.Alive() {
		t.Error("a killed child is alive")
	}
	if _, ok := Parse("12:x:boot"); ok {
		t.Error("parsed a bad id")
	}
}
