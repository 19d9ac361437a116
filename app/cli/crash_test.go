package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

// The crash campaign: real hermes processes are killed with SIGKILL at random
// points of chats, imports, forgets and deletes; after each kill the database
// must pass SQLite's integrity check, every write the process acknowledged must
// be there, nothing may be half-done (an import all or nothing, a forget or a
// delete whole), and no process Hermes started may survive it.
//
// CI runs crashKillsCI kills; `go tool task soak` sets HERMES_SOAK_KILLS (200).
const crashKillsCI = 24

var (
	hermesBinOnce sync.Once
	hermesBin     string
	hermesBinErr  error
)

// builtHermes builds the hermes binary once per test run (the CLI's own main),
// as `go tool task build` builds it.
func builtHermes(t testing.TB) string {
	t.Helper()
	hermesBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hermes-bin-")
		if err != nil {
			hermesBinErr = err
			return
		}
		hermesBin = filepath.Join(dir, "hermes")
		cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-buildmode=pie", "-ldflags=-s -w", "-o", hermesBin, "hermes")
		cmd.Stderr = os.Stderr
		hermesBinErr = cmd.Run()
	})
	if hermesBinErr != nil {
		t.Fatalf("build hermes: %v", hermesBinErr)
	}
	return hermesBin
}

type campaign struct {
	t      *testing.T
	bin    string
	dir    string
	ollama string
	rng    *rand.Rand

	acked     map[string]bool // texts of user messages a killed chat had acknowledged
	sessions  int             // sessions known to exist (delete checks)
	kills     int
	completed int
}

// run starts hermes with args and kills it after killAfter (0: let it finish);
// it returns what the process wrote and whether it was killed.
func (c *campaign) run(killAfter time.Duration, stdin string, args ...string) (stdout, stderr string, killed bool) {
	c.t.Helper()
	cmd := exec.Command(c.bin, append([]string{"--data-dir", c.dir}, args...)...)
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+c.ollama, "HERMES_DATA_DIR="+c.dir)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: false}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if killAfter > 0 {
		select {
		case <-done:
			c.completed++
			return out.String(), errb.String(), false
		case <-time.After(killAfter):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			c.kills++
			return out.String(), errb.String(), true
		}
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		c.t.Fatalf("hermes %v did not finish", args)
	}
	return out.String(), errb.String(), false
}

// syncBuffer is a bytes.Buffer safe for the process's writer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// check opens the database as the next Hermes would and verifies it.
func (c *campaign) check(after string) {
	c.t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(c.dir, "hermes.db"))
	if err != nil {
		c.t.Fatalf("after %s: open: %v", after, err)
	}
	defer db.Close()
	if res, err := db.Integrity(ctx); err != nil || res != "ok" {
		c.t.Fatalf("after %s: integrity: %s %v", after, res, err)
	}
	for text := range c.acked {
		var n int
		db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE content = ? AND role = 'user'`, text).Scan(&n)
		if n == 0 {
			c.t.Fatalf("after %s: the acknowledged message %q is lost", after, text)
		}
	}
	// An import is all or nothing: every visible imported session is whole.
	rows, err := db.QueryContext(ctx, `SELECT s.ref, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.import_id IS NULL)
		FROM sessions s WHERE s.ref LIKE 'crash-imp-%' AND s.import_id IS NULL`)
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var ref string
		var n int
		rows.Scan(&ref, &n)
		if n != importPerSession {
			c.t.Fatalf("after %s: imported session %s is half there (%d of %d messages)", after, ref, n, importPerSession)
		}
	}
	rows.Close()
	// A forgotten memory leaves no index row; an index row has its memory.
	var orphans int
	db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_embeddings e LEFT JOIN memories m ON m.rid = e.memory_rid WHERE m.rid IS NULL`).Scan(&orphans)
	if orphans != 0 {
		c.t.Fatalf("after %s: %d vectors of erased memories remain", after, orphans)
	}
	// A deleted session is gone whole: no message without its session.
	db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages m LEFT JOIN sessions s ON s.id = m.session_id WHERE s.id IS NULL`).Scan(&orphans)
	if orphans != 0 {
		c.t.Fatalf("after %s: %d messages of deleted sessions remain", after, orphans)
	}
	c.noOrphanProcesses(after)
}

// wholeImport checks that every session of import n is there, whole.
func (c *campaign) wholeImport(n int) {
	c.t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(c.dir, "hermes.db"))
	if err != nil {
		c.t.Fatal(err)
	}
	defer db.Close()
	var sessions, messages int
	db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM((SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.import_id IS NULL)), 0)
		FROM sessions s WHERE s.ref LIKE ? AND s.import_id IS NULL`, fmt.Sprintf("crash-imp-%d-%%", n)).Scan(&sessions, &messages)
	if sessions != 4 || messages != 4*importPerSession {
		c.t.Fatalf("import %d again after a crash: %d sessions, %d messages", n, sessions, messages)
	}
}

// forgetAcked drops the acknowledged messages of a session about to be deleted.
func (c *campaign) forgetAcked(sessionID string) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(c.dir, "hermes.db"))
	if err != nil {
		c.t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT content FROM messages WHERE session_id = ?`, sessionID)
	if err != nil {
		c.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var text string
		rows.Scan(&text)
		delete(c.acked, text)
	}
}

// noOrphanProcesses: no process started for this data dir outlives its hermes.
func (c *campaign) noOrphanProcesses(after string) {
	c.t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := processesMentioning(c.dir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("after %s: processes left behind: %v", after, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesMentioning lists live processes whose command line holds s.
func processesMentioning(s string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(s)) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			continue // a zombie waiting for its parent: not running
		}
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(b), "\x00", " ")))
	}
	return out
}

const importPerSession = 50

func TestCrashCampaign(t *testing.T) {
	kills := crashKillsCI
	if v := os.Getenv("HERMES_SOAK_KILLS"); v != "" {
		kills, _ = strconv.Atoi(v)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d kills", seed, kills)
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: strings.Fields("this is a reply streamed slowly word by word so that a kill lands in the middle of it"), Delay: 8 * time.Millisecond}
	}
	srv := fake.Start()
	defer func() { fake.Close(); srv.Close() }()
	c := &campaign{t: t, bin: builtHermes(t), dir: t.TempDir(), ollama: srv.URL, rng: rand.New(rand.NewPCG(seed, 1)), acked: map[string]bool{}}
	c.run(0, "", "settings", "set", "first_token_timeout", "5s")

	// Material for forgets and deletes.
	var mem bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&mem, `{"id":"crash-mem-%d","text":"My crash test item %d is stored in box %d"}`+"\n", i, i, i*7)
	}
	memFile := filepath.Join(c.dir, "mem.jsonl")
	os.WriteFile(memFile, mem.Bytes(), 0o600)
	if _, errs, _ := c.run(0, "", "memory", "import", "--jsonl", memFile); strings.Contains(errs, "hermes:") {
		t.Fatalf("memory import: %s", errs)
	}

	scenario := []string{"chat", "import", "forget", "delete"}
	imports, nextMem := 0, 0
	for c.kills < kills {
		what := scenario[c.rng.IntN(len(scenario))]
		at := time.Duration(20+c.rng.IntN(400)) * time.Millisecond
		switch what {
		case "chat":
			text := fmt.Sprintf("crash chat message %d", c.kills+c.completed)
			out, _, killed := c.run(at, "", "chat", text)
			if !killed || out != "" {
				// Any streamed text means the user's message was committed first.
				c.acked[text] = true
			}
		case "import":
			var b bytes.Buffer
			for s := range 4 {
				for m := range importPerSession {
					fmt.Fprintf(&b, `{"session":"crash-imp-%d-%d","id":"m%d","role":"user","content":"imported crash text %d %d"}`+"\n", imports, s, m, s, m)
				}
			}
			file := filepath.Join(c.dir, fmt.Sprintf("imp%d.jsonl", imports))
			os.WriteFile(file, b.Bytes(), 0o600)
			if _, _, killed := c.run(at/4, "", "session", "import", "--jsonl", file); killed && c.rng.IntN(2) == 0 {
				// Importing the file again after the crash brings all of it.
				if _, errs, _ := c.run(0, "", "session", "import", "--jsonl", file); strings.Contains(errs, "hermes:") {
					t.Fatalf("import again after a crash: %s", errs)
				}
				c.wholeImport(imports)
			}
			imports++
		case "forget":
			var ids []string
			for range 40 {
				ids = append(ids, fmt.Sprintf("crash-mem-%d", nextMem%300))
				nextMem++
			}
			c.run(at/4, "", append([]string{"--yes", "memory", "forget"}, ids...)...)
		case "delete":
			out, _, _ := c.run(0, "", "--json", "session", "list")
			var list []struct{ ID string }
			json.Unmarshal([]byte(out), &list)
			if len(list) == 0 {
				continue
			}
			id := list[c.rng.IntN(len(list))].ID
			c.forgetAcked(id) // deleting them is what was asked
			c.run(at/8, "", "--yes", "session", "delete", id)
		}
		c.check(what)
	}
	t.Logf("%d kills survived (%d runs finished before their kill); %d acknowledged messages all kept", c.kills, c.completed, len(c.acked))
}
