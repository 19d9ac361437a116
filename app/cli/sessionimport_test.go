package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportFromChatGPT: --dry-run counts and writes nothing; the import
// writes the conversations with their titles, versions and progress on
// stderr; a second import adds nothing.
func TestImportFromChatGPT(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	file := "../../backend/chatimport/testdata/chatgpt.json"
	r := runCLI(t, env, "", "session", "import", "--from", "chatgpt", file, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "2 conversations, 7 messages (2 of them other versions") ||
		!strings.Contains(r.stdout, "from 2024-01-01 to 2024-06-01") || !strings.Contains(r.stdout, "nothing was written") {
		t.Fatalf("dry run: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "session", "list"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("a dry run wrote: %s", r.stdout)
	}
	r = runCLI(t, env, "", "--json", "session", "import", "--from", "chatgpt", file)
	var res struct {
		Sessions, Messages int
		Preview            struct{ Branches, Images int }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Sessions != 2 || res.Messages != 7 || res.Preview.Branches != 2 {
		t.Fatalf("import: %+v %+v", r, res)
	}
	if !strings.Contains(r.stderr, "importing messages: 7/7") || !strings.Contains(r.stderr, "checking") {
		t.Fatalf("no progress on stderr: %q", r.stderr)
	}
	r = runCLI(t, env, "", "session", "show", "chatgpt:c0ffee00-0000-4000-8000-000000000001")
	if r.code != 0 || !strings.Contains(r.stdout, "# Sorting in Go") || !strings.Contains(r.stdout, "slices.Sort(names)") || strings.Contains(r.stdout, "sort.Strings") {
		t.Fatalf("show: %+v", r)
	}
	r = runCLI(t, env, "", "session", "import", "--from", "chatgpt", file)
	if r.code != 0 || !strings.Contains(r.stdout, "imported 0 messages in 0 new sessions (7 already there)") {
		t.Fatalf("import again: %+v", r)
	}
}

// TestImportFromRefusals: a bad file or source exits 2 with a one-line reason
// and writes nothing.
func TestImportFromRefusals(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"uuid":"a","name":"ok","chat_messages":[{"uuid":"m","sender":"human","text":"hi"}]}, {"uuid":"b","chat_messages":{}}]`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "claude", bad}, "conversation 2: chat_messages is a JSON object"},
		{[]string{"--from", "gemini", bad}, "use chatgpt, claude or openwebui"},
		{[]string{"--from", "claude"}, "give the export file"},
		{[]string{"--from", "claude", filepath.Join(dir, "missing.json")}, "no such file"},
		{[]string{"--from", "claude", bad, "--jsonl", bad}, "not both"},
	} {
		r := runCLI(t, env, "", append([]string{"session", "import"}, tc.args...)...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if last := lines[len(lines)-1]; r.code != 2 || !strings.HasPrefix(last, "hermes: session import: ") || !strings.Contains(last, tc.want) {
			t.Errorf("%v: %+v, want exit 2 saying %q on one line", tc.args, r, tc.want)
		}
	}
	if r := runCLI(t, env, "", "--json", "session", "list"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("a refused import wrote: %s", r.stdout)
	}
}

// TestExportHTML: an imported conversation exports as one HTML page, to
// stdout or a file, and a format the command does not write exits 2.
func TestExportHTML(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	if r := runCLI(t, env, "", "session", "import", "--from", "openwebui", "../../backend/chatimport/testdata/openwebui.json"); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r := runCLI(t, env, "", "session", "export", "openwebui:owu-1", "--format", "html")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "<!DOCTYPE html>") || !strings.Contains(r.stdout, "<title>Shell tricks</title>") ||
		!strings.Contains(r.stdout, `<code class="language-sh">wc -l &lt; file.txt`) || !strings.Contains(r.stdout, "对，这个命令是正确的。") {
		t.Fatalf("export html: %+v", r)
	}
	out := filepath.Join(dir, "chat.html")
	if r = runCLI(t, env, "", "session", "export", "openwebui:owu-1", "--format", "html", "--out", out); r.code != 0 {
		t.Fatalf("export --out: %+v", r)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "Shell tricks") {
		t.Fatalf("the file: %v", err)
	}
	if r = runCLI(t, env, "", "session", "export", "openwebui:owu-1", "--format", "docx"); r.code != 2 {
		t.Fatalf("unknown format: %+v", r)
	}
}

// TestExportPDF: a conversation with Chinese text exports as a PDF file.
func TestExportPDF(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	if r := runCLI(t, env, "", "session", "import", "--from", "chatgpt", "../../backend/chatimport/testdata/chatgpt.json"); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	out := filepath.Join(dir, "chat.pdf")
	r := runCLI(t, env, "", "session", "export", "chatgpt:c0ffee00-0000-4000-8000-000000000002", "--format", "pdf", "--out", out)
	if b, err := os.ReadFile(out); r.code != 0 || err != nil || !strings.HasPrefix(string(b), "%PDF-") {
		t.Fatalf("export pdf: %+v %v", r, err)
	}
	if r = runCLI(t, env, "", "session", "export", "chatgpt:c0ffee00-0000-4000-8000-000000000002", "--format", "pdf"); r.code != 0 || !strings.HasPrefix(r.stdout, "%PDF-") {
		t.Fatalf("export pdf to a pipe: code %d, %.20q", r.code, r.stdout)
	}
	if r = runCLI(t, env, "", "session", "export", "nope", "--format", "pdf", "--out", out); r.code != 2 || !strings.Contains(r.stderr, `no session "nope"`) {
		t.Fatalf("unknown session: %+v", r)
	}
}

// TestImportIntoProject: --project puts the new conversations in a project;
// an unknown project exits 2 and writes nothing.
func TestImportIntoProject(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	file := "../../backend/chatimport/testdata/claude.json"
	r := runCLI(t, env, "", "session", "import", "--from", "claude", file, "--project", "Old chats")
	if r.code != 2 || !strings.Contains(r.stderr, `no project "Old chats"; see `+"`hermes project list`") {
		t.Fatalf("unknown project: %+v", r)
	}
	if r = runCLI(t, env, "", "--json", "session", "list"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("wrote: %s", r.stdout)
	}
	if r = runCLI(t, env, "", "project", "create", "Old chats"); r.code != 0 {
		t.Fatalf("project create: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "import", "--from", "claude", file, "--project", "Old chats"); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "list")
	var list []struct{ ProjectID string }
	if json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 2 || list[0].ProjectID == "" || list[1].ProjectID != list[0].ProjectID {
		t.Fatalf("sessions %s", r.stdout)
	}
}

// TestExportHTMLTerminalSafe: a page written to stdout carries no escape
// sequence a message held (as Markdown export does); --out keeps it as stored.
func TestExportHTMLTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	file := filepath.Join(dir, "in.jsonl")
	os.WriteFile(file, []byte(`{"session":"s","id":"1","role":"user","content":"hi \u001b]0;owned\u0007 there"}`+"\n"), 0o600)
	if r := runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r := runCLI(t, env, "", "session", "export", "s", "--format", "html")
	if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07") || !strings.Contains(r.stdout, "there") {
		t.Fatalf("export: %q", r.stdout)
	}
}
