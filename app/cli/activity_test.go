package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestActivityNetwork: `hermes activity network` lists what another process
// (an earlier command) connected to, as a table or as JSON, and after
// offline_only is set from the command line a chat to an Ollama on the LAN is
// refused at once and listed as refused.
func TestActivityNetwork(t *testing.T) {
	ollama := fakeOllama(t)
	port := ollama[strings.LastIndex(ollama, ":")+1:]
	env := map[string]string{"OLLAMA_HOST": ollama, "HERMES_DATA_DIR": t.TempDir()}
	if r := runCLI(t, env, "", "activity", "network"); r.code != 0 || !strings.Contains(r.stdout, "No connection recorded yet.") || !strings.Contains(r.stdout, "offline_only is off") {
		t.Fatalf("empty list: %+v", r)
	}
	if r := runCLI(t, env, "", "chat", "hello"); r.code != 0 {
		t.Fatalf("chat: %+v", r)
	}
	r := runCLI(t, env, "", "activity", "network")
	if r.code != 0 || !strings.Contains(r.stdout, "PART") || !strings.Contains(r.stdout, "ollama") || !strings.Contains(r.stdout, port) || !strings.Contains(r.stdout, "made") {
		t.Fatalf("table: %+v", r)
	}

	for _, kv := range [][2]string{{"offline_only", "true"}, {"manage_ollama", "never"}, {"ollama_host", "http://10.255.255.1:11434"}} {
		if r := runCLI(t, env, "", "settings", "set", kv[0], kv[1]); r.code != 0 {
			t.Fatalf("settings set %s: %+v", kv[0], r)
		}
	}
	start := time.Now()
	r = runCLI(t, env, "", "chat", "hello")
	if r.code != 1 || !strings.Contains(r.stderr, "offline_only is on") || !strings.Contains(r.stderr, "hermes settings set offline_only false") || time.Since(start) > 5*time.Second {
		t.Fatalf("chat to the LAN with offline_only on: %+v after %s", r, time.Since(start))
	}

	r = runCLI(t, env, "", "activity", "network", "--json")
	var list []struct {
		Part, Host, Port, Address, Outcome, Reason, First, Last string
		Count                                                   int
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 2 {
		t.Fatalf("--json: %+v", r)
	}
	if e := list[0]; e.Part != "ollama" || e.Host != "10.255.255.1" || e.Port != "11434" || e.Outcome != "refused" || e.Reason != "offline_only" || e.Count < 1 {
		t.Errorf("newest entry = %+v", e)
	}
	if e := list[1]; e.Part != "ollama" || e.Host != "127.0.0.1" || e.Port != port || e.Outcome != "made" || e.Count < 1 || e.First == "" || e.Last < e.First {
		t.Errorf("older entry = %+v", e)
	}
	if r := runCLI(t, env, "", "activity", "network"); !strings.Contains(r.stdout, "refused (offline_only)") || !strings.Contains(r.stdout, "offline_only is on") {
		t.Errorf("table with offline_only on: %+v", r)
	}

	for _, args := range [][]string{{"activity"}, {"activity", "sockets"}, {"activity", "network", "extra"}, {"activity", "network", "--bogus"}} {
		if r := runCLI(t, env, "", args...); r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "activity") {
			t.Errorf("%q: %+v; want exit 2 with one line", args, r)
		}
	}
	if r := runCLI(t, env, "", "help", "activity"); r.code != 0 || !strings.Contains(r.stdout, "hermes activity network") {
		t.Errorf("help activity: %+v", r)
	}
}
