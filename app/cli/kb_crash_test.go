package cli

import (
	"bytes"
	"context"
	"database/sql"
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

// A real hermes killed with SIGKILL while it indexes a folder leaves a sound
// database; `kb index` then reads the files left waiting, and every file is
// indexed exactly once (no passage twice, none missing).
func TestKBIndexSurvivesKill9(t *testing.T) {
	bin := builtHermes(t)
	dir, docs := t.TempDir(), t.TempDir()
	for i := range 400 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", i)
		for j := range 40 {
			fmt.Fprintf(&b, "Paragraph %d of note %d says the pump number %d needs a new seal.\n\n", j, i, i*j)
		}
		os.WriteFile(filepath.Join(docs, fmt.Sprintf("n%03d.md", i)), []byte(b.String()), 0o644)
	}
	env := append(os.Environ(), "HERMES_DATA_DIR="+dir, "OLLAMA_HOST=http://127.0.0.1:9")
	cmd := exec.Command(bin, "kb", "add", docs, "--name", "notes")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	db := filepath.Join(dir, "hermes.db")
	deadline := time.Now().Add(90 * time.Second) // -race CI runs packages side by side on 2 cores
	for indexedFiles(t, db) < 20 {               // kill it mid-way: some files read, most waiting
		select {
		case err := <-exited:
			t.Fatalf("kb add ended before the kill (%v): %s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			t.Fatalf("indexing did not start within 90 s: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if n := indexedFiles(t, db); n >= 400 {
		t.Fatalf("the folder was indexed before the kill (%d files): make it larger", n)
	}
	out, err := exec.Command(bin, "--data-dir", dir, "kb", "index", "notes").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "notes: 400 files indexed") {
		t.Fatalf("kb index after the kill: %v\n%s", err, out)
	}
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if res, err := s.Integrity(context.Background()); err != nil || res != "ok" {
		t.Fatalf("integrity: %q %v", res, err)
	}
	var rows, counted, dup int
	s.QueryRow(`SELECT COUNT(*) FROM kb_chunks`).Scan(&rows)
	s.QueryRow(`SELECT SUM(chunks) FROM kb_files`).Scan(&counted)
	s.QueryRow(`SELECT COUNT(*) FROM (SELECT file_id, seq FROM kb_chunks GROUP BY file_id, seq HAVING COUNT(*) > 1)`).Scan(&dup)
	if rows != counted || dup != 0 || rows < 400 {
		t.Fatalf("%d passage rows, %d counted by the files, %d twice", rows, counted, dup)
	}
}

// indexedFiles is how many files the database at db says are indexed (0 before
// it exists). It only reads: opening it with the store would migrate and check
// the file beside the process under test.
func indexedFiles(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return 0
	}
	r, err := sql.Open("sqlite3", "file:"+db+"?mode=ro&_busy_timeout=2000")
	if err != nil {
		return 0
	}
	defer r.Close()
	var n int
	r.QueryRow(`SELECT COUNT(*) FROM kb_files WHERE state = 'indexed'`).Scan(&n)
	return n
}
