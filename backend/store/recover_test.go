package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecoverGoesPastADamagedPage: a damaged page amid a table costs only its
// own rows (the copy goes on after it), and rows the new file refuses (here:
// messages of a chat that is not there) are left out without ending the copy.
func TestRecoverGoesPastADamagedPage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "hermes.db")
	db, err := Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite3", src) // foreign keys off: orphans the new file refuses
	if err != nil {
		t.Fatal(err)
	}
	raw.Exec(`INSERT INTO sessions(id, title, created_at, updated_at) VALUES ('s', 's', '2026-01-01', '2026-01-01')`)
	for i := range 600 {
		session := "s"
		if i < 100 {
			session = "gone"
		}
		if _, err := raw.Exec(`INSERT INTO messages(id, session_id, seq, role, content, created_at) VALUES (?, ?, ?, 'user', ?, '2026-01-01')`,
			fmt.Sprint("m", i), session, i, fmt.Sprintf("row %d %s", i, strings.Repeat("pear ", 80))); err != nil {
			t.Fatal(err)
		}
	}
	raw.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	raw.Close()
	file, _ := os.ReadFile(src)
	var texts []int // pages of message text
	for p := 0; (p+1)*4096 <= len(file); p++ {
		if bytes.Contains(file[p*4096:(p+1)*4096], []byte("pear pear pear")) {
			texts = append(texts, p)
		}
	}
	if len(texts) < 60 {
		t.Fatalf("%d pages of text", len(texts))
	}
	copy(file[texts[len(texts)/2]*4096:], bytes.Repeat([]byte{0x5A}, 4096))
	os.WriteFile(src, file, 0o600)

	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rep, err := Recover(ctx, src, filepath.Join(dir, "out.db"))
	if err != nil || ctx.Err() != nil {
		t.Fatalf("recover: %v (context: %v)", err, ctx.Err())
	}
	for _, tr := range rep.Tables {
		if tr.Table == "messages" && (tr.Rows < 480 || tr.Rows >= 500 || tr.Failed == "") {
			t.Fatalf("messages: %+v; want the 500 of the chat there less one page's, and the damage said", tr)
		}
	}
}
