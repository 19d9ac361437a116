package memory

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

// badLine is one part of a refused import: a bad line named by its number, or
// the count of those past the first 20.
var badLine = regexp.MustCompile(`^(line \d+: [^\n]+|and \d+ more bad lines)$`)

// FuzzParseImportJSONL hands `memory import --jsonl`'s parser whatever the
// fuzzer makes of import lines: it never panics, answers within a second, a
// refusal is ErrInvalid naming each bad line on one line of its own, and what
// it admits follows the rules (an id, a text within MaxTextBytes, no id twice,
// a layer fact or profile).
func FuzzParseImportJSONL(f *testing.F) {
	f.Add([]byte(importLines(0, 5)))
	f.Add([]byte(`{"id":"pref-1","text":"I prefer window seats","created_at":"2026-03-01T10:00:00Z","layer":"profile"}` + "\n\n" +
		`{"id":"f2","text":"我住在上海","created_at":"2026-03-02"}` + "\n"))
	f.Add([]byte(`{"id":"a","text":"x","layer":"working"}` + "\n" + `{"id":"a","text":"y"}` + "\n" + `{"id":"b","text":"  "}` + "\nnot json\n"))
	f.Add([]byte(`{"id":"n","text":"cut\u0000here","created_at":"yesterday"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		lines, err := ParseImportJSONL(bytes.NewReader(data))
		if took := time.Since(start); took > time.Second {
			t.Fatalf("took %v for %d bytes", took, len(data))
		}
		if err != nil {
			refusedByLine(t, err, "import memories: nothing was imported: "+ErrInvalid.Error()+": ")
			return
		}
		ids := map[string]bool{}
		for _, l := range lines {
			if strings.TrimSpace(l.ID) == "" || strings.TrimSpace(l.Text) == "" || len(l.Text) > MaxTextBytes || ids[l.ID] ||
				(l.Layer != "" && l.Layer != string(LayerFact) && l.Layer != string(LayerProfile)) {
				t.Fatalf("admitted %+v", l)
			}
			ids[l.ID] = true
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
