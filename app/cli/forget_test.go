package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/store"
)

// writeMemories writes a JSONL import of n memories holding word (refs
// prefix0, prefix1, …) and returns its path.
func writeMemories(t *testing.T, dir, prefix, word string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"%s%d","text":"Parcel %d with the %s label sits in locker %d on floor %d"}`+"\n", prefix, i, i, word, i*13, i%9)
	}
	file := filepath.Join(dir, prefix+".jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// countRows runs a COUNT query on the data dir's database.
func countRows(t *testing.T, dir, q string, args ...any) int {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

type forgetReceipt struct {
	TombstoneID    string `json:"tombstone_id"`
	Count          int    `json:"count"`
	LexicalMatches int    `json:"lexical_matches"`
	VectorMatches  int    `json:"vector_matches"`
}

// TestForgetByQueryForgetsEveryMatch: 3,000 memories match, the count comes
// first, nothing goes without confirmation, and with --yes all 3,000 go under
// one receipt that says 3,000; --limit 10 forgets 10; bad flags exit 2.
func TestForgetByQueryForgetsEveryMatch(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	if r := runCLI(t, env, "", "memory", "import", "--jsonl", writeMemories(t, dir, "c", "zqxcanary", 3000)); r.code != 0 || !strings.Contains(r.stdout, "added 3000") {
		t.Fatalf("import: %+v", r)
	}
	if r := runCLI(t, env, "", "memory", "add", "My sister likes green tea"); r.code != 0 {
		t.Fatalf("add: %+v", r)
	}
	canaries := `SELECT COUNT(*) FROM memories WHERE text LIKE '%zqxcanary%'`

	r := runCLI(t, env, "", "memory", "forget", "--query", "zqxcanary")
	if r.code != 2 || !strings.HasPrefix(r.stderr, `3000 memories match "zqxcanary":`) || !strings.Contains(r.stderr, "and 2980 more") || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("forget without a terminal nor --yes: %+v", r)
	}
	if n := countRows(t, dir, canaries); n != 3000 {
		t.Fatalf("an unconfirmed forget erased: %d left", n)
	}

	start := time.Now()
	r = runCLI(t, env, "", "--yes", "--json", "memory", "forget", "--query", "zqxcanary")
	took := time.Since(start)
	var rec forgetReceipt
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rec) != nil || rec.Count != 3000 || rec.LexicalMatches+rec.VectorMatches != 0 {
		t.Fatalf("forget --query: %+v", r)
	}
	t.Logf("hermes memory forget --query over 3,000 matches (matching, 30 batches, checkpoint, receipt; in process): %s", took.Round(time.Millisecond))
	if n := countRows(t, dir, canaries); n != 0 {
		t.Fatalf("%d matching memories left", n)
	}
	if n := countRows(t, dir, `SELECT COUNT(*) FROM memories`); n != 1 {
		t.Fatalf("%d memories left; want the one that did not match", n)
	}
	if n := countRows(t, dir, `SELECT COUNT(*) FROM memory_tombstones WHERE id = ? AND count = 3000`, rec.TombstoneID); n != 1 {
		t.Fatal("no tombstone counting 3000 under the receipt's id")
	}

	if r = runCLI(t, env, "", "memory", "import", "--jsonl", writeMemories(t, dir, "d", "zqxcanary", 25)); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r = runCLI(t, env, "", "--yes", "--json", "memory", "forget", "--query", "zqxcanary", "--limit", "10")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rec) != nil || rec.Count != 10 || !strings.HasPrefix(r.stderr, `10 memories match "zqxcanary":`) {
		t.Fatalf("forget --limit 10: %+v", r)
	}
	if n := countRows(t, dir, canaries); n != 15 {
		t.Fatalf("%d matching memories left after --limit 10; want 15", n)
	}

	for _, args := range [][]string{
		{"--query", "zqxcanary", "--limit", "-1"},
		{"--query", "zqxcanary", "--limit", "0"},
		{"--query", "zqxcanary", "--limit", "ten"},
		{"--limit", "5", "d1"},
		{"--query", "   "},
	} {
		r := runCLI(t, env, "", append([]string{"--yes", "memory", "forget"}, args...)...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "hermes: memory forget") {
			t.Errorf("forget %v: %+v; want exit 2 with the reason", args, r)
		}
	}
	if n := countRows(t, dir, canaries); n != 15 {
		t.Fatalf("bad input erased memories: %d left", n)
	}
}

// TestKilledForgetFinishesAtNextOpen: a real hermes forgetting 3,000
// memories is killed with SIGKILL after its first batches committed; the next
// hermes, whatever its command, finishes the erasure: every match is gone and
// there is exactly one tombstone, counting 3,000, under the receipt's id.
func TestKilledForgetFinishesAtNextOpen(t *testing.T) {
	bin := builtHermes(t)
	dir := t.TempDir()
	ollama := fakeOllama(t)
	env := map[string]string{"OLLAMA_HOST": ollama, "HERMES_DATA_DIR": dir}
	if r := runCLI(t, env, "", "memory", "import", "--jsonl", writeMemories(t, dir, "c", "zqxcanary", 3000)); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	hermes := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"--data-dir", dir}, args...)...)
		cmd.Env = append(os.Environ(), "OLLAMA_HOST="+ollama, "HERMES_DATA_DIR="+dir)
		return cmd
	}
	cmd := hermes("--yes", "memory", "forget", "--query", "zqxcanary")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	done, total := waitForProgress(t, filepath.Join(dir, "hermes.db"), exited)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	job := countRows(t, dir, `SELECT COUNT(*) FROM memory_erasures WHERE done < total`)
	left := countRows(t, dir, `SELECT COUNT(*) FROM memories WHERE text LIKE '%zqxcanary%'`)
	t.Logf("killed after %d of %d ids; %d matching memories left", done, total, left)
	if job != 1 || left == 0 || left == 3000 {
		t.Fatalf("the kill did not land mid-erasure: %d unfinished jobs, %d left (stderr %q)", job, left, stderr.String())
	}

	out, err := hermes("session", "list").CombinedOutput() // a command that never uses memory
	if err != nil || !strings.Contains(string(out), "finished an erasure that was interrupted: forgot 3000 memories") {
		t.Fatalf("next open: %v\n%s", err, out)
	}
	if n := countRows(t, dir, `SELECT COUNT(*) FROM memories WHERE text LIKE '%zqxcanary%'`); n != 0 {
		t.Fatalf("%d matching memories left after the next open", n)
	}
	if n := countRows(t, dir, `SELECT COUNT(*) FROM memory_tombstones`); n != 1 {
		t.Fatalf("%d tombstones; want exactly one", n)
	}
	if n := countRows(t, dir, `SELECT COUNT(*) FROM memory_tombstones WHERE count = 3000`); n != 1 {
		t.Fatal("the tombstone does not count 3000")
	}
	if n := countRows(t, dir, `SELECT (SELECT COUNT(*) FROM memory_erasures) + (SELECT COUNT(*) FROM memory_erasure_items)`); n != 0 {
		t.Fatalf("%d job rows left", n)
	}
	if out, err := hermes("session", "list").CombinedOutput(); err != nil || strings.Contains(string(out), "finished an erasure") {
		t.Fatalf("a finished erasure was reported again: %v\n%s", err, out)
	}
}

// waitForProgress polls the job table read-only until the running hermes has
// committed at least one batch of its erasure and not the last one.
func waitForProgress(t *testing.T, path string, exited <-chan struct{}) (done, total int) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		err := db.QueryRow(`SELECT done, total FROM memory_erasures`).Scan(&done, &total)
		if err == nil && done > 0 && done < total {
			return done, total
		}
		select {
		case <-exited:
			t.Fatalf("hermes ended before its erasure was seen in progress (last %d of %d)", done, total)
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatalf("never saw the erasure in progress (last %d of %d)", done, total)
	return 0, 0
}
