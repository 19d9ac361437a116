package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile is stored text that would drive a terminal: a window title, a screen
// clear, an OSC 8 link, a carriage return over the line, a C1 CSI, a bidi override.
const hostile = "safe start \x1b]0;pwned\x07\x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\rover \u009b31m\u202eesrever end"

func TestTerminalOutputDropsControlCharacters(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HERMES_DATA_DIR": dir}
	line, _ := json.Marshal(map[string]string{"session": "s1", "id": "m1", "role": "user", "content": hostile, "created_at": "2026-01-02T03:04:05Z"})
	file := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(file, append(line, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, env, "", "session", "import", "--jsonl", file); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r := runCLI(t, env, "", "--json", "session", "list")
	var list []struct{ ID string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 1 {
		t.Fatalf("list: %+v", r)
	}
	for _, args := range [][]string{{"session", "show", list[0].ID}, {"session", "list"}, {"session", "export", list[0].ID}} {
		r := runCLI(t, env, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		for _, c := range r.stdout {
			if unsafeRune(c) {
				t.Errorf("%v printed %U: %q", args, c, r.stdout)
				break
			}
		}
		if !strings.Contains(r.stdout, "safe start") {
			t.Errorf("%v lost the text: %q", args, r.stdout)
		}
	}
	// Scripts get the text as stored.
	for _, args := range [][]string{{"--json", "session", "show", list[0].ID}, {"session", "export", "--format", "json", list[0].ID}} {
		r := runCLI(t, env, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, `\u001b]0;pwned`) || !strings.Contains(r.stdout, "\u202e") {
			t.Errorf("%v changed the stored text: %+v", args, r)
		}
	}
}

func TestTermSafeKeepsCharactersSplitAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := newTermSafe(&b)
	in := []byte("日本\u009b語\x1b[0m ok\n")
	for i := range in { // one byte a write, as a stream may cut it
		if n, err := w.Write(in[i : i+1]); n != 1 || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
	}
	if got := b.String(); got != "日本語[0m ok\n" {
		t.Errorf("got %q", got)
	}
}

func TestExtraArgumentsAreRefused(t *testing.T) {
	env := map[string]string{"HERMES_DATA_DIR": t.TempDir()}
	for _, args := range [][]string{
		{"session", "list", "x"}, {"tools", "list", "x"}, {"tools", "log", "x"}, {"mcp", "list", "x"},
		{"doctor", "x"}, {"version", "x"}, {"agent", "list", "x"}, {"workflow", "list", "x"}, {"model", "list", "x"},
	} {
		r := runCLI(t, env, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "takes no arguments") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stderr)
		}
	}
}

// TestNoDisplayIsSaidInWords: `hermes` with no display says what to use
// instead, with no panic trace.
func TestNoDisplayIsSaidInWords(t *testing.T) {
	env := map[string]string{"HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "")
	if r.code != 1 || !strings.Contains(r.stderr, "no display") || !strings.Contains(r.stderr, "hermes serve") || strings.Contains(r.stderr, "goroutine") {
		t.Fatalf("no display: %+v", r)
	}
}
