package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigEditsApplyWithoutRestart edits mcp.json under a running manager:
// added servers start, changed ones restart, removed ones stop.
func TestConfigEditsApplyWithoutRestart(t *testing.T) {
	leaks := checkGoroutines(t)
	h := newHarness(t, map[string]ServerConfig{"a": fake()}, func(o *Options) { o.PollInterval = 20 * time.Millisecond })
	first := h.waitState("a", StateReady, 5*time.Second)

	t.Run("added", func(t *testing.T) {
		writeConfig(t, h.dir, map[string]ServerConfig{"a": fake(), "b": fake()})
		h.waitState("b", StateAwaitingApproval, 5*time.Second)
		if err := h.m.Approve(context.Background(), "b"); err != nil {
			t.Fatal(err)
		}
		h.waitState("b", StateReady, 5*time.Second)
		if _, ok := h.reg.Get("b__echo"); !ok {
			t.Error("b's tools are not registered")
		}
		if st, _ := h.m.Server("a"); st.PID != first.PID {
			t.Error("an unchanged server restarted")
		}
	})
	a := fake()
	a.Timeout = Duration(7 * time.Second)
	t.Run("changed", func(t *testing.T) {
		writeConfig(t, h.dir, map[string]ServerConfig{"a": a, "b": fake()})
		// Ready comes a moment before the new process's tools are listed and registered
		// (a CI run read the registry in between): wait for both.
		st := h.waitFor("a", "a restart with the new timeout", 5*time.Second, func(st Status) bool {
			in, ok := h.reg.Info("a__echo")
			return st.State == StateReady && st.PID != first.PID && ok && in.Timeout == 7*time.Second
		})
		if !processGone(first.PID) {
			t.Error("the old process is still there")
		}
		if st.Restarts != 0 {
			t.Errorf("restarts %d", st.Restarts)
		}
	})
	t.Run("disabled", func(t *testing.T) {
		if err := h.m.SetServerDisabled(context.Background(), "b", true); err != nil {
			t.Fatal(err)
		}
		h.waitState("b", StateDisabled, 5*time.Second)
		if _, ok := h.reg.Get("b__echo"); ok {
			t.Error("a disabled server's tools are registered")
		}
		if err := h.m.SetServerDisabled(context.Background(), "b", false); err != nil {
			t.Fatal(err)
		}
		h.waitState("b", StateReady, 5*time.Second)
	})
	t.Run("removed", func(t *testing.T) {
		st, _ := h.m.Server("b")
		before, _ := h.m.Server("a")
		writeConfig(t, h.dir, map[string]ServerConfig{"a": a})
		h.waitFor("a", "b gone", 5*time.Second, func(Status) bool { _, err := h.m.Server("b"); return errors.Is(err, ErrUnknownServer) })
		// Stopping runs in the background (stdin close, SIGTERM, SIGKILL within 6 s).
		deadline := time.Now().Add(8 * time.Second)
		for {
			_, registered := h.reg.Get("b__echo")
			if !registered && processGone(st.PID) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("8 s after removal: tools registered %v, process gone %v", registered, processGone(st.PID))
			}
			time.Sleep(20 * time.Millisecond)
		}
		if now, _ := h.m.Server("a"); now.PID != before.PID {
			t.Error("removing b restarted a")
		}
	})
	t.Run("a broken file changes nothing", func(t *testing.T) {
		st, _ := h.m.Server("a")
		os.WriteFile(filepath.Join(h.dir, "mcp.json"), []byte(`{"mcpServers": {"a": `), 0o600)
		deadline := time.Now().Add(3 * time.Second)
		for {
			if _, err := h.m.Problems(); err != nil {
				if !strings.Contains(err.Error(), "mcp.json:1:") {
					t.Errorf("error = %v", err)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the broken file was not noticed")
			}
			time.Sleep(10 * time.Millisecond)
		}
		if now, _ := h.m.Server("a"); now.State != StateReady || now.PID != st.PID {
			t.Errorf("a = %s pid %d", now.State, now.PID)
		}
	})
	h.m.Close()
	checkNoZombies(t)
	leaks()
}

// TestBrokenEntryDisablesOnlyItself: one bad entry next to a good one.
func TestBrokenEntryDisablesOnlyItself(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(`{
  "mcpServers": {
    "good": {"command": "`+fakeBin+`"},
    "bad": {"command": "`+fakeBin+`", "timeout": "soon"}
  }
}`), 0o600)
	m, err := New(newRegistry(), testOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Approve(context.Background(), "bad"); err == nil || !strings.Contains(err.Error(), `mcp.json:4:`) || !strings.Contains(err.Error(), `server "bad": field "timeout": "soon" is not a duration`) {
		t.Errorf("approving a broken entry: %v", err)
	}
	if err := m.Approve(context.Background(), "good"); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, dir: dir, m: m}
	h.waitState("good", StateReady, 5*time.Second)
	st := h.waitState("bad", StateInvalid, time.Second)
	if !strings.Contains(st.Error, "mcp.json:4:") {
		t.Errorf("bad = %+v", st)
	}
	probs, ferr := m.Problems()
	if ferr != nil || len(probs) != 1 || probs[0].Line != 4 || probs[0].Field != "timeout" {
		t.Errorf("problems = %+v, %v", probs, ferr)
	}
}

func TestAddAndRemoveServer(t *testing.T) {
	h := newHarness(t, nil, nil)
	st, err := h.m.AddServer(context.Background(), "new one", ServerConfig{Command: fakeBin, Args: []string{"-mode", "normal"}, Env: map[string]string{"K": "${HOME}"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.State != StateAwaitingApproval || st.Command != "env 'K=${HOME}' "+shellQuote(fakeBin)+" -mode normal" {
		t.Errorf("status = %+v", st)
	}
	if _, err := h.m.AddServer(context.Background(), "new one", ServerConfig{Command: "x"}); !errors.Is(err, ErrExists) {
		t.Errorf("adding twice: %v", err)
	}
	if _, err := h.m.AddServer(context.Background(), "bad", ServerConfig{}); err == nil || !strings.Contains(err.Error(), `field "command"`) {
		t.Errorf("adding without a command: %v", err)
	}
	if err := h.m.Approve(context.Background(), "new one"); err != nil {
		t.Fatal(err)
	}
	h.waitState("new one", StateReady, 5*time.Second)
	if _, ok := h.reg.Get("new_one__echo"); !ok {
		t.Errorf("tools: %v", toolNames(h.reg))
	}
	if _, err := h.m.UpdateServer(context.Background(), "new one", ServerConfig{Command: fakeBin}); err != nil {
		t.Fatal(err)
	}
	h.waitState("new one", StateAwaitingApproval, 5*time.Second)
	if err := h.m.RemoveServer(context.Background(), "new one"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.m.Server("new one"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("after remove: %v", err)
	}
	if a, _ := (FileApprovals{Path: filepath.Join(h.dir, "mcp-approved.json")}).LoadApprovals(); len(a) != 0 {
		t.Errorf("approvals left: %v", a)
	}
	checkNoZombies(t)
}

func TestImportThroughManager(t *testing.T) {
	h := newHarness(t, nil, nil)
	claude := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	os.WriteFile(claude, []byte(`{"mcpServers": {"imported": {"command": "`+fakeBin+`"}}}`), 0o600)
	res, err := h.m.Import(context.Background(), claude)
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("import = %+v, %v", res, err)
	}
	h.waitState("imported", StateAwaitingApproval, time.Second)
}

func TestWaitReady(t *testing.T) {
	h := newHarness(t, map[string]ServerConfig{"ok": fake(), "bad": fake("-mode", "exit-start")}, nil)
	if st, err := h.m.WaitReady(context.Background(), "ok"); err != nil || st.State != StateReady {
		t.Errorf("ok: %s, %v", st.State, err)
	}
	if _, err := h.m.WaitReady(context.Background(), "bad"); err == nil || !strings.Contains(err.Error(), "fatal: cannot start") {
		t.Errorf("bad: %v", err)
	}
}

func TestOnlyStartsTheNamedServers(t *testing.T) {
	h := newHarness(t, map[string]ServerConfig{"a": fake(), "b": fake()}, func(o *Options) { o.Only = []string{"a"} })
	h.waitState("a", StateReady, 5*time.Second)
	if st := h.waitState("b", StateStopped, time.Second); st.PID != 0 || !st.Approved {
		t.Errorf("b = %+v", st)
	}
	if err := h.m.Restart(context.Background(), "b"); err != nil {
		t.Fatal(err)
	}
	h.waitState("b", StateReady, 5*time.Second)
	if st, _ := h.m.Server("b"); st.Config.Command != fakeBin {
		t.Errorf("config = %+v", st.Config)
	}
}
