package session

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// badLine is one part of a refused import: a bad line named by its number, or
// the count of those past the first 20.
var badLine = regexp.MustCompile(`^(line \d+: [^\n]+|and \d+ more bad lines)$`)

// FuzzCheckImport hands the session import's check whatever the fuzzer makes
// of real import files: it never panics, answers within a second, a refusal
// is ErrInvalid with one line per bad line, and a file it admits reads again
// line for line (ImportFrom's second reading) with every line complete.
func FuzzCheckImport(f *testing.F) {
	real, err := os.ReadFile("../prompt/testdata/eval_sessions.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real[:bytes.IndexByte(real[4096:], '\n')+4097]) // the first lines of the evaluation's conversations
	f.Add([]byte(`{"session":"s1","id":"m1","role":"user","content":"I bought earphones yesterday","created_at":"2026-11-01T09:00:00Z"}` + "\n\n" +
		`{"session":"s2","id":"m1","role":"user","content":"第二个会话","created_at":"2026-11-02T09:00:00.5+08:00"}` + "\n"))
	f.Add([]byte(`{"session":"s1","id":"m2","role":"robot","content":"x"}` + "\nnot json\n" + `{"session":"s1","id":"m6","role":"user","content":"x","colour":"blue"}`))
	f.Add([]byte(`{"session":"s","id":"m","role":"user","content":"cut\u0000here"}{"a":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		checked, err := CheckImport(bytes.NewReader(data))
		if err != nil {
			refusedByLine(t, err, "import: nothing was imported: invalid input: ")
		} else {
			readAgain(t, checked)
		}
		if took := time.Since(start); took > time.Second {
			t.Fatalf("took %v for %d bytes", took, len(data))
		}
	})
}

// refusedByLine fails unless err is ErrInvalid, starts with prefix and names
// each bad line on one line of its own.
func refusedByLine(t *testing.T, err error, prefix string) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("not a refusal: %v", err)
	}
	parts := strings.Split(strings.TrimPrefix(msg, prefix), "\n")
	if len(parts) > 21 {
		t.Fatalf("%d parts", len(parts))
	}
	for _, p := range parts {
		if !badLine.MatchString(p) {
			t.Fatalf("part %q of %q is not one line naming a line", p, msg)
		}
	}
}

// readAgain reads an admitted file the second time, as ImportFrom does.
func readAgain(t *testing.T, checked *CheckedImport) {
	t.Helper()
	n := 0
	for {
		l, ok, err := checked.Next()
		if err != nil {
			t.Fatalf("admitted, then refused on its second reading: %v", err)
		}
		if !ok {
			break
		}
		n++
		if l.Session == "" || l.ID == "" || !validRoles[l.Role] || strings.ContainsRune(l.Content, 0) {
			t.Fatalf("admitted line %d: %+v", n, l)
		}
	}
	if n != checked.Len() {
		t.Fatalf("read %d lines again of %d", n, checked.Len())
	}
}
