package chatimport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hermes/backend/session"
	"hermes/backend/store"
)

func newSessions(t testing.TB) *session.Store {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return session.NewStore(db)
}

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// shown is a conversation as the window shows it: role and the start of each
// message's text.
func shown(t *testing.T, st *session.Store, ref string) (session.Session, []string) {
	t.Helper()
	ctx := context.Background()
	s, err := st.Get(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	all, err := st.Messages(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range session.Visible(all) {
		out = append(out, m.Role+": "+m.Content)
	}
	return s, out
}

// TestFixtures: each format's fixture is previewed with its counts and date
// range, imported with its titles, times and versions (the branch on show as
// the file chose it), and importing it again adds nothing.
func TestFixtures(t *testing.T) {
	for _, tc := range []struct {
		file        string
		f           Format
		want        Preview
		ref, title  string
		shown       []string
		versionsOf  string // a message ref with two versions
		firstCreate string
	}{
		{file: "chatgpt.json", f: ChatGPT,
			want: Preview{Conversations: 2, Messages: 7, Branches: 2, Skipped: 7, Images: 1,
				First: time.Unix(1704103210, 0).UTC(), Last: time.Unix(1717200020, 0).UTC()},
			ref: "chatgpt:c0ffee00-0000-4000-8000-000000000001", title: "Sorting in Go",
			shown: []string{"user: How do I sort a slice of strings in Go 1.21?",
				"assistant: Use the slices package:\n\n```go\nslices.Sort(names)\n```\n\nIt sorts in place."},
			versionsOf: "n-a2b", firstCreate: "2024-01-01T10:00:10Z"},
		{file: "claude.json", f: Claude,
			want: Preview{Conversations: 2, Messages: 7, Branches: 1, Skipped: 1, Images: 1,
				First: time.Date(2024, 3, 2, 8, 0, 1, 0, time.UTC), Last: time.Date(2024, 4, 1, 12, 2, 0, 0, time.UTC)},
			ref: "claude:cla00000-0000-4000-8000-000000000002", title: "Poem",
			shown:      []string{"user: A haiku about rain", "assistant: Grey sky, quiet street"},
			versionsOf: "cp-3", firstCreate: "2024-04-01T12:00:00Z"},
		{file: "openwebui.json", f: OpenWebUI,
			want: Preview{Conversations: 2, Messages: 7, Branches: 1, Images: 1,
				First: time.Unix(1690000000, 0).UTC(), Last: time.Unix(1720000210, 0).UTC()},
			ref: "openwebui:owu-1", title: "Shell tricks",
			shown: []string{"user: How do I count lines in a file?", "assistant: Run:\n\n```sh\nwc -l < file.txt\n```",
				"user: 这个截图里的命令对吗？\n\n[image: attached]", "assistant: 对，这个命令是正确的。"},
			versionsOf: "ow-a1b", firstCreate: "2024-07-03T09:46:40Z"},
	} {
		t.Run(string(tc.f), func(t *testing.T) {
			ctx := context.Background()
			src, p, err := Scan(open(t, tc.file), tc.f, nil)
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Format = tc.f
			if p != tc.want {
				t.Fatalf("preview\n got %+v\nwant %+v", p, tc.want)
			}
			st := newSessions(t)
			res, err := st.ImportFrom(ctx, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Sessions != 2 || res.Messages != 7 {
				t.Fatalf("imported %+v, want 2 sessions and 7 messages", res)
			}
			s, got := shown(t, st, tc.ref)
			if strings.Join(got, "|") != strings.Join(tc.shown, "|") {
				t.Fatalf("shown\n got %q\nwant %q", got, tc.shown)
			}
			if s.Title != tc.title || s.CreatedAt.Format(time.RFC3339) != tc.firstCreate {
				t.Fatalf("session %q created %s, want %q created %s", s.Title, s.CreatedAt.Format(time.RFC3339), tc.title, tc.firstCreate)
			}
			all, _ := st.Messages(ctx, s.ID)
			var id string
			for _, m := range all {
				if m.Ref == tc.versionsOf {
					id = m.ID
				}
			}
			if v, at := session.NewBranches(all).Versions(id); len(v) != 2 || at != 1 {
				t.Fatalf("versions of %s: %v (shown %d), want two with the second shown", tc.versionsOf, v, at)
			}
			src, _, err = Scan(open(t, tc.file), tc.f, nil)
			if err != nil {
				t.Fatal(err)
			}
			again, err := st.ImportFrom(ctx, src, nil)
			if err != nil || again.Messages != 0 || again.Sessions != 0 || again.Skipped != 7 {
				t.Fatalf("import again: %+v, %v; want nothing added", again, err)
			}
		})
	}
}

// TestContent: what the window will show of images, attachments, code and
// tool traffic in each format.
func TestContent(t *testing.T) {
	ctx := context.Background()
	st := newSessions(t)
	for _, f := range []Format{ChatGPT, Claude} {
		src, _, err := Scan(open(t, string(f)+".json"), f, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.ImportFrom(ctx, src, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, got := shown(t, st, "chatgpt:c0ffee00-0000-4000-8000-000000000002")
	want := []string{"user: [image: file-Abc123]\n\n这张照片里是什么？", "assistant: 照片里是一只在窗台上晒太阳的橘猫。"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("ChatGPT image and tool calls: got %q, want %q (the python call and its output skipped)", got, want)
	}
	_, got = shown(t, st, "claude:cla00000-0000-4000-8000-000000000001")
	if len(got) != 4 || got[2] != "user: 谢谢！能解释一下吗？\n\n[attachment: notes.txt]\n\n[image: screenshot.png]" || !strings.Contains(got[1], "```\n\\d{4}") {
		t.Fatalf("Claude messages: %q", got)
	}
}

// TestHostile: files that are not what they claim are refused with a reason
// that names what is wrong and what to do, and nothing is written.
func TestHostile(t *testing.T) {
	node := func(id, parent, role, text string) string {
		return `"` + id + `":{"id":"` + id + `","parent":"` + parent + `","message":{"author":{"role":"` + role + `"},"content":{"content_type":"text","parts":["` + text + `"]}}}`
	}
	big := strings.Repeat("x", MaxConversationBytes+1<<20)
	for _, tc := range []struct {
		name, body string
		f          Format
		want       string
	}{
		{"empty", "", ChatGPT, "empty"},
		{"not JSON", "hello", ChatGPT, "not a JSON export"},
		{"cut short", `[{"conversation_id":"a","mapping":{`, ChatGPT, "cut short"},
		{"broken", `[{"conversation_id":"a","mapping":{}},,]`, ChatGPT, "not valid JSON"},
		{"a string for a conversation", `["hello"]`, ChatGPT, "conversation 1"},
		{"mapping is a list", `[{"conversation_id":"a","mapping":[1,2]}]`, ChatGPT, "mapping"},
		{"no mapping", `[{"conversation_id":"a","title":"x"}]`, ChatGPT, `no "mapping"`},
		{"no id", `[{"mapping":{}}]`, ChatGPT, `no "conversation_id"`},
		{"claude export read as chatgpt", `[{"uuid":"u","name":"n","chat_messages":[]}]`, ChatGPT, "ChatGPT export"},
		{"loop", `[{"conversation_id":"a","mapping":{` + node("x", "y", "user", "hi") + `,` + node("y", "x", "assistant", "ho") + `}}]`, ChatGPT, "loop"},
		{"self loop", `[{"conversation_id":"a","mapping":{` + node("x", "x", "user", "hi") + `}}]`, ChatGPT, "loop"},
		{"huge field", `[{"conversation_id":"a","title":"` + big + `","mapping":{}}]`, ChatGPT, "over 64 MiB"},
		{"trailing data", `[] []`, ChatGPT, "more after the end"},
		{"bad time", `[{"uuid":"u","created_at":"yesterday","chat_messages":[]}]`, Claude, "not a time"},
		{"claude sender list", `[{"uuid":"u","chat_messages":[{"uuid":"m","sender":["human"]}]}]`, Claude, "sender"},
		{"openwebui without chat", `[{"id":"x","title":"t"}]`, OpenWebUI, `no "chat"`},
		{"duplicate ids", `[{"id":"x","chat":{"messages":[{"id":"1","role":"user","content":"a"},{"id":"1","role":"user","content":"b"}]}}]`, OpenWebUI, "two messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, _, err := Scan(bytes.NewReader([]byte(tc.body)), tc.f, nil)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v, want ErrInvalid saying %q", err, tc.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Scan hung")
			}
		})
	}
}

// TestFileChanged: a file that changes between its preview and its import is
// refused, and nothing of it stays.
func TestFileChanged(t *testing.T) {
	ctx := context.Background()
	data, _ := os.ReadFile(filepath.Join("testdata", "openwebui.json"))
	path := filepath.Join(t.TempDir(), "chats.json")
	os.WriteFile(path, data, 0o600)
	f, _ := os.Open(path)
	defer f.Close()
	src, _, err := Scan(f, OpenWebUI, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, bytes.Replace(data, []byte("hello"), []byte("HELLO"), 1), 0o600)
	st := newSessions(t)
	if _, err := st.ImportFrom(ctx, src, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("err %v, want the file changed", err)
	}
	if list, _ := st.List(ctx); len(list) != 0 {
		t.Fatalf("%d sessions stayed after a refused import", len(list))
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"chatgpt": ChatGPT, "Claude": Claude, "open-webui": OpenWebUI, "openwebui": OpenWebUI} {
		if f, err := ParseFormat(in); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, f, err)
		}
	}
	if _, err := ParseFormat("gemini"); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown format: %v", err)
	}
}

// longChain is a ChatGPT export of one conversation of n messages each
// following the one before, and one branch off its middle.
func longChain(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `[{"conversation_id":"long","current_node":"n%d","mapping":{`, n-1)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"n%d"`, i-1)
		}
		role := []string{"user", "assistant"}[i%2]
		fmt.Fprintf(&b, `"n%d":{"id":"n%d","parent":%s,"message":{"author":{"role":"%s"},"create_time":%d,"content":{"content_type":"text","parts":["m%d"]}}}`, i, i, parent, role, 1700000000+i, i)
	}
	fmt.Fprintf(&b, `,"alt":{"id":"alt","parent":"n%d","message":{"author":{"role":"user"},"create_time":1700060000,"content":{"content_type":"text","parts":["other"]}}}`, n/2)
	b.WriteString(`}}]`)
	return []byte(b.String())
}

// readChain scans and reads a long chain, checks its counts and returns how
// long that took.
func readChain(t *testing.T, n int) time.Duration {
	t.Helper()
	data := longChain(n)
	start := time.Now()
	src, p, err := Scan(bytes.NewReader(data), ChatGPT, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Messages != n+1 || p.Branches != 1 || src.Len() != n+1 {
		t.Fatalf("preview %+v", p)
	}
	lines := 0
	for {
		_, ok, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		lines++
	}
	if lines != n+1 {
		t.Fatalf("%d lines", lines)
	}
	return time.Since(start)
}

// TestLongChain: a conversation of 100,000 messages each following the one
// before (and one deep branch) is read without recursion, in linear time:
// ten times the messages take well under the hundred times a quadratic
// reading would (a ratio, not a wall-clock bound, so a loaded machine does
// not fail it; CI under -race once took 22 s where a quiet run takes 10).
func TestLongChain(t *testing.T) {
	small := readChain(t, 10_000)
	large := readChain(t, 100_000)
	if ratio := float64(large) / float64(max(small, time.Millisecond)); ratio > 40 {
		t.Fatalf("10,000 messages took %v, 100,000 took %v: %.0f times, not linear", small, large, ratio)
	}
}

// TestShortened: a message over what a session keeps is cut there with a note,
// and the preview counts it.
func TestShortened(t *testing.T) {
	big := strings.Repeat("长文本", 50_000) // 450,000 bytes
	body := `[{"id":"c","chat":{"messages":[{"id":"1","role":"user","content":"` + big + `"}]}}]`
	src, p, err := Scan(bytes.NewReader([]byte(body)), OpenWebUI, nil)
	if err != nil || p.Shortened != 1 || p.Messages != 1 {
		t.Fatalf("preview %+v, %v", p, err)
	}
	l, ok, err := src.Next()
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(l.Content) > session.MaxMessageBytes || !strings.HasSuffix(l.Content, "Hermes keeps 256 KiB]") || !strings.HasPrefix(l.Content, "长文本长文本") {
		t.Fatalf("shortened to %d bytes, ending %q", len(l.Content), l.Content[len(l.Content)-40:])
	}
	if !utf8.ValidString(l.Content) {
		t.Fatal("cut inside a character")
	}
}

// TestErrorsArePrintable: what a refusal quotes from the file holds no control
// characters and stays short, however long the field.
func TestErrorsArePrintable(t *testing.T) {
	for _, body := range []string{
		`[{"conversation_id":"a","title":"\u001b]0;owned\u0007` + strings.Repeat("t", 5000) + `","mapping":{"x":{"id":"x","parent":"x","message":null}}}]`,
		`[{"uuid":"u","created_at":"\u001b[2J` + strings.Repeat("9", 100_000) + `x","chat_messages":[]}]`,
	} {
		_, _, err := Scan(bytes.NewReader([]byte(body)), map[bool]Format{true: ChatGPT, false: Claude}[strings.Contains(body, "mapping")], nil)
		if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || len(err.Error()) > 600 {
			t.Fatalf("err %.300q (%d bytes)", err, len(fmt.Sprint(err)))
		}
	}
}
