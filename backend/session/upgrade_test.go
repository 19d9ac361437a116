package session

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/store"
	"hermes/backend/text"
)

// A database written by the previous release (schema 4) opens with its conversations
// intact, and the new write paths (history cache, search backlog, details) work on it.
func TestUpgradeFromSchema4KeepsConversations(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "hermes.db")
	migs, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	old, err := sql.Open("sqlite3", "file:"+file+"?_foreign_keys=on&_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", strings.SplitN(q, "\n", 2)[0], err)
		}
	}
	mustExec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`)
	for _, m := range migs[:4] {
		mustExec(m.SQL)
		mustExec(`INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, '2026-11-01T00:00:00Z')`, m.Version, m.Name)
	}
	mustExec(`INSERT INTO sessions(id, title, title_auto, profile, created_at, updated_at) VALUES ('s1', 'Trip', 0, 'personal', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')`)
	for i, m := range []struct{ role, text string }{{"user", "book the ferry to the island"}, {"assistant", "Which day?"}} {
		mustExec(`INSERT INTO messages(id, session_id, seq, role, content, created_at) VALUES (?, 's1', ?, ?, ?, '2026-11-01T00:00:00Z')`,
			"m"+string(rune('1'+i)), i+1, m.role, m.text)
		mustExec(`INSERT INTO messages_fts(rowid, body) SELECT rowid, ? FROM messages WHERE id = ?`, text.Segment(m.text), "m"+string(rune('1'+i)))
	}
	old.Close()

	db, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(migs) {
		t.Fatalf("schema = %d, %v; want %d", v, err, len(migs))
	}
	st := NewStore(db)
	s, err := st.Get(ctx, "s1")
	if err != nil || s.Title != "Trip" || s.MessageCount != 2 {
		t.Fatalf("session = %+v, %v", s, err)
	}
	h, err := st.History(ctx, s)
	if err != nil || len(h) != 2 || h[0].Content != "book the ferry to the island" || h[1].Details != "" {
		t.Fatalf("history = %+v, %v", h, err)
	}
	if _, err := st.Append(ctx, Message{SessionID: "s1", Role: "user", Content: "Friday, the morning ferry"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, Message{SessionID: "s1", Role: "assistant", Content: "Booked.", Details: `{"unverified":true}`, Context: `{"tokens":9}`}); err != nil {
		t.Fatal(err)
	}
	if r, _, err := st.TurnContext(ctx, "s1", ""); err != nil || r != `{"tokens":9}` {
		t.Fatalf("turn context = %q, %v", r, err)
	}
	s, _ = st.Get(ctx, "s1")
	if h, _ = st.History(ctx, s); len(h) != 4 || h[3].Details != `{"unverified":true}` || s.Rev != 2 {
		t.Fatalf("after two turns: rev %d, %+v", s.Rev, h)
	}
	hits, err := st.Search(ctx, "ferry", 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("search over old and new messages = %+v, %v", hits, err)
	}
	if _, err := st.Delete(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM messages) + (SELECT COUNT(*) FROM turn_contexts) + (SELECT COUNT(*) FROM search_backlog)`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("rows left after deleting the upgraded session: %d, %v", left, err)
	}
}
