package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/app"
	"hermes/backend/document/documenttest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

// recorder is a fake Ollama that keeps every chat request.
type recorder struct {
	mu   sync.Mutex
	seen []api.ChatRequest
}

func (r *recorder) start(t *testing.T) string {
	t.Helper()
	return r.startWith(t, llmtest.Reply{Chunks: []string{"Noted."}})
}

// startWith serves reply to every chat, with models installed beside the fake's own.
func (r *recorder) startWith(t *testing.T, reply llmtest.Reply, models ...llmtest.Model) string {
	t.Helper()
	fake := llmtest.New()
	fake.Models = append(fake.Models, models...)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		r.mu.Lock()
		r.seen = append(r.seen, req)
		r.mu.Unlock()
		return reply
	}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	return srv.URL
}

func (r *recorder) last(t *testing.T) api.ChatRequest {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) == 0 {
		t.Fatal("the model got no request")
	}
	return r.seen[len(r.seen)-1]
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

func requestText(req api.ChatRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// documentRows counts the documents stored, and those stored with a message.
func documentRows(t *testing.T, dir string) (all, linked int, byMessage map[string][]string) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name, COALESCE(message_id, '') FROM documents`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	byMessage = map[string][]string{}
	for rows.Next() {
		var name, msg string
		rows.Scan(&name, &msg)
		all++
		if msg != "" {
			linked++
			byMessage[msg] = append(byMessage[msg], name)
		}
	}
	return all, linked, byMessage
}

// TestChatAttach: --attach sends files through the window's document path: the
// text reaches the model, the documents are stored with the message; a file
// Hermes cannot read is refused with exit 2 and nothing stored.
func TestChatAttach(t *testing.T) {
	rec := &recorder{}
	dir, files := t.TempDir(), t.TempDir()
	env := map[string]string{"OLLAMA_HOST": rec.start(t), "HERMES_DATA_DIR": dir}
	md := writeFile(t, files, "notes.md", []byte("# Notes\n\nThe wombat depot opens at 06:40 on Tuesdays.\n"))
	pdf := writeFile(t, files, "log.pdf", documenttest.MinimalPDF([]string{"Service log: the zeppelin pump was serviced."}))

	r := runCLI(t, env, "", "--json", "chat", "--attach", md, "what do these say?", "--attach", pdf)
	var turn struct {
		Session struct{ ID string }
		User    struct{ ID, Content string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil {
		t.Fatalf("chat --attach: %+v", r)
	}
	if !strings.Contains(r.stderr, "attached notes.md (markdown, ") || !strings.Contains(r.stderr, "attached log.pdf (pdf, ") {
		t.Errorf("no attach lines with token counts: %s", r.stderr)
	}
	got := requestText(rec.last(t))
	if !strings.Contains(got, "wombat depot opens at 06:40") || !strings.Contains(got, "zeppelin pump was serviced") || !strings.Contains(got, "what do these say?") {
		t.Fatalf("the documents did not reach the model:\n%s", got)
	}
	// Stored with the message, and shown as the window shows it (session show --json).
	_, _, by := documentRows(t, dir)
	if names := by[turn.User.ID]; len(names) != 2 {
		t.Fatalf("documents stored with the message %s: %v", turn.User.ID, by)
	}
	r = runCLI(t, env, "", "--json", "session", "show", turn.Session.ID)
	var d struct {
		Messages []struct{ ID, Role, Content string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || len(d.Messages) < 1 || d.Messages[0].ID != turn.User.ID ||
		!strings.Contains(d.Messages[0].Content, `name="notes.md" kind="markdown"`) || !strings.Contains(d.Messages[0].Content, `name="log.pdf" kind="pdf"`) {
		t.Fatalf("session show: %+v", r)
	}

	// session context shows them as the next turn would carry them.
	r = runCLI(t, env, "", "--json", "session", "context", "--session", turn.Session.ID, "--query", "and the pump?", "--budget", "4096")
	var sc struct {
		Items []struct{ Reason, Content string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &sc) != nil {
		t.Fatalf("session context: %+v", r)
	}
	var docItems int
	for _, it := range sc.Items {
		if it.Reason == "document" && (strings.Contains(it.Content, "wombat depot") || strings.Contains(it.Content, "zeppelin pump")) {
			docItems++
		}
	}
	if docItems != 2 {
		t.Errorf("session context carries %d of the 2 documents: %s", docItems, r.stdout)
	}

	// Refused files: exit 2, one line that says what to do, nothing stored, no request.
	big := writeFile(t, files, "big.txt", []byte(strings.Repeat("a", 10<<20+1)))
	img := writeFile(t, files, "photo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	empty := writeFile(t, files, "empty.txt", []byte(" \n"))
	bomb := writeFile(t, files, "x.pdf", documenttest.XRefBombPDF())
	before := rec.count()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown type", []string{"--attach", md, "--attach", img}, "text, Markdown, code, CSV and PDF"},
		{"too large", []string{"--attach", big}, "files up to 10.0 MB"},
		{"no text", []string{"--attach", empty}, "is empty"},
		{"memory bomb", []string{"--attach", bomb}, `"x.pdf" could not be read: it needs more than 512 MB`},
		{"missing", []string{"--attach", filepath.Join(files, "nope.txt")}, "cannot read"},
		{"directory", []string{"--attach", files}, "directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, env, "", append([]string{"chat"}, append(c.args, "read it")...)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("%v: %+v", c.args, r)
			}
		})
	}
	if all, _, _ := documentRows(t, dir); all != 2 {
		t.Errorf("a refused attach stored documents: %d rows", all)
	}
	if rec.count() != before {
		t.Errorf("a refused attach sent a request")
	}
	r = runCLI(t, env, "", "--json", "session", "list")
	if strings.Count(r.stdout, `"id"`) != 1 {
		t.Errorf("a refused attach started a session: %s", r.stdout)
	}
}

// TestREPLAttach: /attach in the REPL sends the file with the next message;
// --attach goes with the first.
func TestREPLAttach(t *testing.T) {
	rec := &recorder{}
	dir, files := t.TempDir(), t.TempDir()
	env := map[string]string{"OLLAMA_HOST": rec.start(t), "HERMES_DATA_DIR": dir}
	csv := writeFile(t, files, "stock.csv", []byte("item,count\nmarmot socks,12\n"))
	code := writeFile(t, files, "main.go", []byte("package main\n\nfunc quibble() int { return 42 }\n"))
	r := runCLI(t, env, "first\n/attach "+code+"\n/attach "+filepath.Join(files, "gone.txt")+"\nsecond\n", "chat", "--attach", csv)
	if r.code != 2 || !strings.Contains(r.stderr, "cannot read") || !strings.Contains(r.stderr, "attached main.go (code, ") {
		t.Fatalf("repl: %+v", r)
	}
	rec.mu.Lock()
	reqs := append([]api.ChatRequest(nil), rec.seen...)
	rec.mu.Unlock()
	var turns []string
	for _, q := range reqs {
		if last := q.Messages[len(q.Messages)-1]; last.Role == "user" {
			turns = append(turns, requestText(q))
		}
	}
	if len(turns) != 2 || !strings.Contains(turns[0], "marmot socks,12") || strings.Contains(turns[0], "quibble") ||
		!strings.Contains(turns[1], "func quibble() int") {
		t.Fatalf("requests:\n%s", strings.Join(turns, "\n---\n"))
	}
	_, linked, _ := documentRows(t, dir)
	if linked != 2 {
		t.Errorf("documents stored with messages: %d, want 2", linked)
	}
}

// TestChatSettingsAndPresets: presets saved on the command line are the
// window's; chat's settings flags are stored as the conversation's own
// settings (the window's SessionSettings sees them) and reach the request.
func TestChatSettingsAndPresets(t *testing.T) {
	rec := &recorder{}
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": rec.start(t), "HERMES_DATA_DIR": dir}
	if r := runCLI(t, env, "", "preset", "save", "Pirate", "--system", "You are a pirate. Say arr."); r.code != 0 || !strings.Contains(r.stderr, "saved preset") {
		t.Fatalf("preset save: %+v", r)
	}
	r := runCLI(t, env, "", "--json", "preset", "list")
	var ps []struct {
		Name, Text string
		Builtin    bool
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ps) != nil || len(ps) < 2 {
		t.Fatalf("preset list: %+v", r)
	}
	found := false
	for _, p := range ps {
		found = found || (p.Name == "Pirate" && p.Text == "You are a pirate. Say arr." && !p.Builtin)
	}
	if !found {
		t.Fatalf("saved preset not listed: %+v", ps)
	}
	if r := runCLI(t, env, "", "preset", "list"); r.code != 0 || !strings.Contains(r.stdout, "Pirate") || !strings.Contains(r.stdout, "built-in") {
		t.Fatalf("preset list (text): %+v", r)
	}

	r = runCLI(t, env, "", "--json", "chat", "--preset", "pirate", "--temperature", "0.3", "--num-ctx", "4096", "--model", "llama3.2", "ahoy")
	var turn struct{ Session struct{ ID string } }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil {
		t.Fatalf("chat --preset: %+v", r)
	}
	id := turn.Session.ID
	req := rec.last(t)
	if req.Messages[0].Role != "system" || !strings.HasPrefix(req.Messages[0].Content, "You are a pirate. Say arr.") {
		t.Errorf("system prompt sent: %q", req.Messages[0].Content)
	}
	if req.Options["temperature"] != 0.3 || req.Options["num_ctx"] != float64(4096) || req.Model != "llama3.2" {
		t.Errorf("options sent: %v, model %q", req.Options, req.Model)
	}
	// The next turn keeps them (they are the conversation's), and a flag changes one.
	if r := runCLI(t, env, "", "chat", "--session", id, "--system", "Answer in French.", "encore"); r.code != 0 {
		t.Fatalf("chat --system: %+v", r)
	}
	req = rec.last(t)
	if !strings.HasPrefix(req.Messages[0].Content, "Answer in French.") || req.Options["temperature"] != 0.3 || req.Options["num_ctx"] != float64(4096) {
		t.Errorf("second turn: system %q, options %v", req.Messages[0].Content, req.Options)
	}
	// session settings shows them, by --session or by position.
	r = runCLI(t, env, "", "--json", "session", "settings", "--session", id)
	var cs struct {
		System, Model string
		Temperature   *float64
		NumCtx        int
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &cs) != nil || cs.System != "Answer in French." || cs.Temperature == nil || *cs.Temperature != 0.3 || cs.NumCtx != 4096 || cs.Model != "llama3.2" {
		t.Fatalf("session settings: %+v", r)
	}
	// The window's API sees the same settings and presets.
	core, err := app.Open(context.Background(), app.Options{DataDir: dir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	a := app.NewApp(core, nil)
	ws, err := a.Chat.SessionSettings(id)
	if err != nil || ws.System != "Answer in French." || ws.Temperature == nil || *ws.Temperature != 0.3 || ws.NumCtx != 4096 || ws.Model != "llama3.2" {
		t.Errorf("window's SessionSettings: %+v, %v", ws, err)
	}
	wp, err := a.Chat.SystemPresets()
	if err != nil || !strings.Contains(func() string { b, _ := json.Marshal(wp); return string(b) }(), "You are a pirate. Say arr.") {
		t.Errorf("window's SystemPresets: %+v, %v", wp, err)
	}
	core.Close()

	// Bad input: exit 2, one line saying what to do, nothing stored or sent.
	before := rec.count()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown preset", []string{"chat", "--preset", "Nope", "hi"}, "see `hermes preset list`"},
		{"temperature out of range", []string{"chat", "--temperature", "3", "hi"}, "between 0 and 2"},
		{"temperature not a number", []string{"chat", "--temperature", "warm", "hi"}, "not a number"},
		{"num-ctx not a number", []string{"chat", "--num-ctx", "big", "hi"}, "whole number"},
		{"model not installed", []string{"chat", "--model", "mistral", "hi"}, "not installed"},
		{"system and preset", []string{"chat", "--system", "x", "--preset", "Pirate", "hi"}, "not both"},
		{"unknown flag", []string{"chat", "--top-p", "0.9", "hi"}, "flag provided but not defined"},
		{"delete unknown preset", []string{"preset", "delete", "Nope"}, "see `hermes preset list`"},
		{"save without text", []string{"preset", "save", "Empty"}, "--system TEXT"},
		{"preset subcommand", []string{"preset", "rename"}, "say list, save or delete"},
		{"settings without a session", []string{"session", "settings"}, "give one session id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, env, "", c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("%v: %+v", c.args, r)
			}
		})
	}
	if rec.count() != before {
		t.Errorf("refused input sent a request")
	}
	if r := runCLI(t, env, "", "--json", "session", "list"); strings.Count(r.stdout, `"id"`) != 1 {
		t.Errorf("refused input started a session: %s", r.stdout)
	}
	if r := runCLI(t, env, "", "preset", "delete", "pirate"); r.code != 0 {
		t.Fatalf("preset delete: %+v", r)
	}
	if r := runCLI(t, env, "", "preset", "list"); strings.Contains(r.stdout, "Pirate") {
		t.Errorf("deleted preset still listed:\n%s", r.stdout)
	}
}
