package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/document/documenttest"
)

// The knowledge base from the command line: a folder is added (indexed before
// the command returns, a file it cannot read listed with the reason), searched
// one question at a time and in a batch with paths relative to the folder,
// and removed only with --yes; a name that is not a collection exits 2.
func TestKBCommands(t *testing.T) {
	dir, docs := t.TempDir(), t.TempDir()
	env := map[string]string{"OLLAMA_HOST": "http://" + closedPort(t), "HERMES_DATA_DIR": dir}
	os.MkdirAll(filepath.Join(docs, "guides"), 0o755)
	os.WriteFile(filepath.Join(docs, "guides", "pump.md"), []byte("# Pump\n\n## Faults\n\nIf the pump hums but does not turn, replace the capacitor."), 0o644)
	os.WriteFile(filepath.Join(docs, "radio.docx"), documenttest.DOCX(`<w:p><w:r><w:t>Channel 16 is kept for distress calls only.</w:t></w:r></w:p>`, ""), 0o644)
	os.WriteFile(filepath.Join(docs, "empty.txt"), []byte(" \n"), 0o644)

	r := runCLI(t, env, "", "kb", "add", docs, "--name", "field")
	if r.code != 0 || !strings.Contains(r.stdout, "field: 2 files indexed") || !strings.Contains(r.stdout, "1 files could not be read") {
		t.Fatalf("kb add: %+v", r)
	}
	if r = runCLI(t, env, "", "kb", "status", "field"); r.code != 0 || !strings.Contains(r.stdout, "failed\tempty.txt") {
		t.Fatalf("kb status: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "kb", "search", "what to do when the pump hums")
	var hits []struct{ File, Heading, Text string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &hits) != nil || len(hits) == 0 || hits[0].File != "guides/pump.md" || hits[0].Heading != "Pump › Faults" {
		t.Fatalf("kb search: %+v", r)
	}
	batch := filepath.Join(t.TempDir(), "q.jsonl")
	os.WriteFile(batch, []byte(`{"id":"q1","query":"which channel is for distress calls"}`+"\n"+`{"id":"q2","query":""}`+"\n"), 0o600)
	r = runCLI(t, env, "", "kb", "search", "--batch", batch, "--k", "1")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"id":"q1","results":[{"chunk":`) || !strings.Contains(lines[0], `"file":"radio.docx"`) || lines[1] != `{"id":"q2","results":[]}` {
		t.Fatalf("kb search --batch: %+v", r)
	}
	if r = runCLI(t, env, "", "kb", "search", "--collection", "nope", "pump"); r.code != 2 || !strings.Contains(r.stderr, "kb list") {
		t.Fatalf("unknown collection: %+v", r)
	}
	if r = runCLI(t, env, "", "kb", "add", docs); r.code != 2 || !strings.Contains(r.stderr, "already") {
		t.Fatalf("the same folder twice: %+v", r)
	}
	exported := filepath.Join(t.TempDir(), "kb.json")
	if r = runCLI(t, env, "", "kb", "export", "--out", exported); r.code != 0 {
		t.Fatalf("kb export: %+v", r)
	}
	if b, _ := os.ReadFile(exported); !strings.Contains(string(b), `"path": "guides/pump.md"`) || strings.Contains(string(b), "capacitor") {
		t.Fatalf("the export holds %s", b)
	}
	other := map[string]string{"OLLAMA_HOST": env["OLLAMA_HOST"], "HERMES_DATA_DIR": t.TempDir()}
	if r = runCLI(t, other, "", "kb", "import", exported); r.code != 0 || !strings.Contains(r.stdout, "added field") {
		t.Fatalf("kb import: %+v", r)
	}
	if r = runCLI(t, other, "", "kb", "import", batch); r.code != 2 || !strings.Contains(r.stderr, "not a knowledge-base export") {
		t.Fatalf("kb import of a bad file: %+v", r)
	}
	if r = runCLI(t, env, "", "kb", "remove", "field"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("remove without --yes: %+v", r)
	}
	if r = runCLI(t, env, "", "--yes", "kb", "remove", "field"); r.code != 0 || !strings.Contains(r.stdout, `removed "field": 3 files`) {
		t.Fatalf("remove: %+v", r)
	}
	if r = runCLI(t, env, "", "kb", "list"); r.code != 0 || !strings.Contains(r.stdout, "no collections yet") {
		t.Fatalf("list after remove: %+v", r)
	}
}

// A chat may be limited to some collections (or none); a name that is not a
// collection exits 2.
func TestChatKnowledgeSetting(t *testing.T) {
	dir, docs := t.TempDir(), t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	os.WriteFile(filepath.Join(docs, "a.md"), []byte("# A\n\nAlpha."), 0o644)
	if r := runCLI(t, env, "", "kb", "add", docs, "--name", "manuals"); r.code != 0 {
		t.Fatalf("kb add: %+v", r)
	}
	r := runCLI(t, env, "", "--json", "chat", "hello")
	var turn struct{ Session struct{ ID string } }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil || turn.Session.ID == "" {
		t.Fatalf("chat --json: %+v", r)
	}
	id := turn.Session.ID
	if r = runCLI(t, env, "", "session", "settings", id, "--knowledge", "manuals"); r.code != 0 || !strings.Contains(r.stdout, "knowledge:   manuals") {
		t.Fatalf("--knowledge manuals: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "settings", id, "--knowledge", "none"); r.code != 0 || !strings.Contains(r.stdout, "knowledge:   none") {
		t.Fatalf("--knowledge none: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "settings", id, "--knowledge", "nope"); r.code != 2 || !strings.Contains(r.stderr, "kb list") {
		t.Fatalf("--knowledge nope: %+v", r)
	}
}
