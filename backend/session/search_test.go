package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestSearchEnglishAndChinese(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	a, _ := st.Create(ctx, "")
	b, _ := st.Create(ctx, "")
	st.Append(ctx, Message{SessionID: a.ID, Role: "user", Content: "I bought wireless earphones yesterday for 199 yuan."})
	st.Append(ctx, Message{SessionID: a.ID, Role: "assistant", Content: "Nice, earphones are handy."})
	st.Append(ctx, Message{SessionID: b.ID, Role: "user", Content: "我昨天买了一副无线耳机，花了199元。"})
	st.Append(ctx, Message{SessionID: b.ID, Role: "user", Content: "天气不错"})

	cases := []struct {
		query   string
		want    int
		session string
		snippet string
	}{
		{"earphones", 2, "", "[earphones]"},
		{"earph", 2, "", "[earph]"},
		{"wireless earphones", 1, a.ID, "[wireless] [earphones]"},
		{"耳机", 1, b.ID, "[耳机]"},
		{"昨天", 1, b.ID, "[昨天]"},
		{"耳", 1, b.ID, "[耳]"},
		{"买耳机", 0, "", ""}, // not a substring of 买了一副无线耳机
		{"无线耳机", 1, b.ID, "[无线耳机]"},
		{"昨天买了一副", 1, b.ID, "[昨天买了一副]"},
		{"199", 2, "", "[199]"},
		{"giraffe", 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			hits, err := st.Search(ctx, tc.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != tc.want {
				t.Fatalf("%d hits; want %d: %+v", len(hits), tc.want, hits)
			}
			if tc.want == 0 {
				return
			}
			if tc.session != "" && hits[0].SessionID != tc.session {
				t.Errorf("top hit in %s; want %s", hits[0].SessionID, tc.session)
			}
			if txt := SnippetText(hits[0].Snippet); !strings.Contains(txt, tc.snippet) {
				t.Errorf("snippet %q lacks %q", txt, tc.snippet)
			}
		})
	}
	if _, err := st.Search(ctx, " ,, ", 10); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty query: %v", err)
	}
}

func TestImportExport(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	good := `{"session":"s1","id":"m1","role":"user","content":"I bought earphones yesterday","created_at":"2026-11-01T09:00:00Z"}
{"session":"s1","id":"m2","role":"assistant","content":"Noted.","created_at":"2026-11-01T09:00:05Z"}

{"session":"s2","id":"m1","role":"user","content":"第二个会话","created_at":"2026-11-02T09:00:00Z"}
`
	lines, err := ParseImport(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.Import(ctx, lines, nil)
	if err != nil || res != (ImportResult{Sessions: 2, Messages: 3}) {
		t.Fatalf("import = %+v, %v", res, err)
	}
	// Importing again skips what is there.
	res, _ = st.Import(ctx, lines, nil)
	if res != (ImportResult{Skipped: 3}) {
		t.Fatalf("re-import = %+v", res)
	}
	s1, err := st.Get(ctx, "s1") // refs work wherever ids do
	if err != nil || s1.MessageCount != 2 || s1.Title != "I bought earphones yesterday" || s1.CreatedAt.Format("2006-01-02") != "2026-11-01" {
		t.Fatalf("s1 = %+v, %v", s1, err)
	}
	msgs, _ := st.Messages(ctx, s1.ID)
	if msgs[0].Ref != "m1" || msgs[1].Ref != "m2" {
		t.Fatalf("refs = %q %q", msgs[0].Ref, msgs[1].Ref)
	}
	md, err := st.ExportMarkdown(ctx, "s1")
	if err != nil || !strings.Contains(md, "## You · 2026-11-01T09:00:00Z\n\nI bought earphones yesterday") || !strings.Contains(md, "## Hermes") {
		t.Fatalf("markdown:\n%s", md)
	}
	e, err := st.ExportJSON(ctx, "s1")
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(e)
	if err != nil || len(e.Messages) != 2 || !strings.Contains(buf.String(), `"ref":"m2"`) {
		t.Fatalf("json: %s", buf.String())
	}
}

func TestImportRejectsBadLinesWithLineNumbers(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	bad := `{"session":"s1","id":"m1","role":"user","content":"fine"}
{"session":"s1","id":"m2","role":"robot","content":"x"}
not json
{"session":"s1","role":"user","content":"no id"}
{"session":"s1","id":"m5","role":"user","content":"x","created_at":"yesterday"}
{"session":"s1","id":"m6","role":"user","content":"x","colour":"blue"}
`
	_, err := ParseImport(strings.NewReader(bad))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"line 2: \"role\" is \"robot\"", "line 3: not a JSON object", "line 4: \"id\"", "line 5: \"created_at\" \"yesterday\"", "line 6:", "nothing was imported"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if list, _ := st.List(ctx); len(list) != 0 {
		t.Fatal("something was imported")
	}
}

func TestUserMessageSearchRowIsWrittenWithTheReplyOrBeforeASearch(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	count := func(table string) int {
		t.Helper()
		var n int
		if err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	backlog := func() int { return count("search_backlog") }
	indexed := func() int { return count("messages_fts") }
	s, _ := st.Create(ctx, "")
	if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "the blue umbrella is in the hall"}); err != nil {
		t.Fatal(err)
	}
	if backlog() != 1 || indexed() != 0 {
		t.Fatalf("after the user's message: backlog %d, indexed %d; want 1, 0", backlog(), indexed())
	}
	if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "Noted."}); err != nil {
		t.Fatal(err)
	}
	if backlog() != 0 || indexed() != 2 {
		t.Fatalf("after the reply: backlog %d, indexed %d; want 0, 2", backlog(), indexed())
	}

	// A message whose reply never came (the app stopped) is found by the next search.
	if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "where is the violin"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second search finds the backlog empty
		hits, err := st.Search(ctx, "violin", 10)
		if err != nil || len(hits) != 1 || !strings.Contains(SnippetText(hits[0].Snippet), "violin") || hits[0].Role != "user" {
			t.Fatalf("search %d: %+v, %v", i, hits, err)
		}
	}
	if backlog() != 0 || indexed() != 3 {
		t.Fatalf("after a search: backlog %d, indexed %d; want 0, 3", backlog(), indexed())
	}

	// Deleting a session whose message waits in the backlog takes it out of the backlog.
	gone, _ := st.Create(ctx, "")
	if _, err := st.Append(ctx, Message{SessionID: gone.ID, Role: "user", Content: "forget this violin"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Delete(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	if backlog() != 0 {
		t.Fatalf("backlog after delete = %d", backlog())
	}
	if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "It is in the case."}); err != nil {
		t.Fatal(err)
	}
	hits, err := st.Search(ctx, "violin", 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("after delete: %+v, %v", hits, err)
	}
}
