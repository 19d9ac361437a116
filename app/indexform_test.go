package app

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/session"
	"hermes/backend/text"
)

// TestOlderIndexFormIsWrittenAgain: a database whose full-text indexes were
// written in an older form (text.SegmentForm) has its three indexes written
// again when Hermes opens it: what only the old rows held is gone from every
// index, the new form is recorded, and chats, memories and passages are found.
func TestOlderIndexFormIsWrittenAgain(t *testing.T) {
	ctx := context.Background()
	dir, docs := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "manual.md"), []byte("# 手册\n\n耳机坏了就换一副。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	core := openAt(t, dir, "http://127.0.0.1:9")
	sess, err := core.sessions.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.sessions.Append(ctx, session.Message{SessionID: sess.ID, Role: "user", Content: "我的耳机坏了"}); err != nil {
		t.Fatal(err)
	}
	if _, err := core.AddMemory(ctx, "我的耳机是蓝色的"); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Knowledge().Add(ctx, docs, "docs"); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Knowledge().Index(ctx, "docs", nil); err != nil {
		t.Fatal(err)
	}
	core.Close()

	// The old form: a row holding lone characters no row of the new form has.
	db, err := sql.Open("sqlite3", filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO messages_fts(rowid, body) VALUES (900001, '旧 式')`,
		`INSERT INTO memories_fts(rowid, body, scope) VALUES (900001, '旧 式', 'x')`,
		`INSERT INTO kb_fts(rowid, body, scope) VALUES (900001, '旧 式', 'x')`,
		`UPDATE index_form SET form = 1`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()

	told := 0
	env := map[string]string{"OLLAMA_HOST": "http://127.0.0.1:9"}
	reopen := func() *Core {
		c, err := Open(ctx, Options{DataDir: dir, Getenv: func(k string) string { return env[k] },
			IntentModel: os.DirFS("../models/intent"), OnIndexRewrite: func() { told++ }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	core = reopen()
	if told != 1 {
		t.Errorf("the rewrite was announced %d times; want once", told)
	}
	if form, err := core.db.IndexForm(ctx); err != nil || form != text.SegmentForm {
		t.Fatalf("form after open: %d, %v; want %d", form, err, text.SegmentForm)
	}
	for _, table := range []string{"messages_fts", "memories_fts", "kb_fts"} {
		var n int
		if err := core.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+`_vocab WHERE term IN ('旧', '式')`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s still holds the old rows' terms: %d, %v", table, n, err)
		}
	}
	if hits, err := core.SearchSessions(ctx, "耳机", 10); err != nil || len(hits) != 1 {
		t.Errorf("chat search after the rewrite: %v, %v", hits, err)
	}
	if hits, err := core.SearchMemories(ctx, "耳机", 5); err != nil || len(hits) == 0 {
		t.Errorf("memory search after the rewrite: %v, %v", hits, err)
	}
	if hits, err := core.Knowledge().Search(ctx, "耳", nil, 5); err != nil || len(hits) != 1 {
		t.Errorf("knowledge search of one character after the rewrite: %v, %v", hits, err)
	}
	core.Close()
	reopen().Close() // the form is current: nothing to write, nothing said
	if told != 1 {
		t.Errorf("an open in the current form announced a rewrite (%d in all)", told)
	}
}
