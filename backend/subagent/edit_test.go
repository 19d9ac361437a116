package subagent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFile is the file's content.
func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustLoad loads the file, failing on any mistake.
func mustLoad(t *testing.T, file string) map[string]*Definition {
	t.Helper()
	list, errs := Load(file)
	if len(errs) != 0 {
		t.Fatalf("errors: %v\n%s", errs, readFile(t, file))
	}
	return byName(list)
}

const handWritten = `version: 1
# My agents, written by hand.
agents:
  # plans my holidays
  - name: travel
    description: Plans trips.
    system: You plan trips.
    tools: [current_time, "weather__*"] # keep the weather ones
    memory: read
  - name: coder
    description: Writes code.
    system: You write code.
`

func TestSaveCreatesTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	d := Definition{Name: "poet", Description: "Writes poems.", System: "You write\nshort poems.\n", MaxRounds: 2, Memory: MemoryNone}
	if err := Save(file, d, ""); err != nil {
		t.Fatal(err)
	}
	content := readFile(t, file)
	if !strings.HasPrefix(content, "version: 1\n") || strings.Contains(content, "memory") {
		t.Fatalf("content:\n%s", content)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	p := mustLoad(t, file)["poet"]
	if p == nil || p.System != "You write\nshort poems." || p.MaxRounds != 2 || p.Line == 0 {
		t.Fatalf("poet = %+v", p)
	}
}

func TestSaveKeepsCommentsAndOtherEntries(t *testing.T) {
	file := writeAgents(t, handWritten)
	d := Definition{Name: "travel", Description: "Plans trips and trains.", System: "You plan trips.",
		Tools: []string{"current_time", "weather__*", "trains__*"}}
	if err := Save(file, d, "travel"); err != nil {
		t.Fatal(err)
	}
	content := readFile(t, file)
	for _, want := range []string{"# My agents, written by hand.", "# plans my holidays", "# keep the weather ones", "trains__*", "name: coder"} {
		if !strings.Contains(content, want) {
			t.Errorf("%q lost:\n%s", want, content)
		}
	}
	if strings.Contains(content, "memory") || strings.Count(content, "name: travel") != 1 {
		t.Errorf("memory not removed or travel doubled:\n%s", content)
	}
	m := mustLoad(t, file)
	if tr := m["travel"]; tr.Description != "Plans trips and trains." || tr.Memory != MemoryNone || len(tr.Tools) != 3 {
		t.Fatalf("travel = %+v", tr)
	}
	if c := m["coder"]; c == nil || c.System != "You write code." {
		t.Fatalf("coder = %+v", c)
	}
}

func TestSaveRenames(t *testing.T) {
	file := writeAgents(t, handWritten)
	d := Definition{Name: "trips", Description: "Plans trips.", System: "You plan trips."}
	if err := Save(file, d, "travel"); err != nil {
		t.Fatal(err)
	}
	m := mustLoad(t, file)
	if _, ok := m["travel"]; ok || m["trips"] == nil || m["trips"].Line != 5 {
		t.Fatalf("after rename: %v", m)
	}
	if !strings.Contains(readFile(t, file), "# plans my holidays") {
		t.Fatal("the entry's comment is lost")
	}
	// renaming onto another entry's name is refused, and the file is unchanged
	before := readFile(t, file)
	err := Save(file, Definition{Name: "coder", Description: "x", System: "y"}, "trips")
	var e *Error
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &e) || e.Field != "name" || !strings.Contains(err.Error(), "already declared at line 8") {
		t.Fatalf("rename onto coder: %v", err)
	}
	if readFile(t, file) != before {
		t.Fatal("a refused save changed the file")
	}
}

func TestSaveValidatesLikeLoad(t *testing.T) {
	file := writeAgents(t, handWritten)
	for _, tc := range []struct {
		d     Definition
		field string
	}{
		{Definition{Name: "Bad", Description: "x", System: "y"}, "name"},
		{Definition{Name: "ok", System: "y"}, "description"},
		{Definition{Name: "ok", Description: "x", System: "y", Memory: "write"}, "memory"},
		{Definition{Name: "ok", Description: "x", System: "y", MaxRounds: MaxRoundsLimit + 1}, "max_rounds"},
		{Definition{Name: "ok", Description: "x", System: "y", Tools: []string{"a[", "b"}}, "tools"},
		{Definition{Name: "researcher", Disabled: true}, "description"},
	} {
		err := Save(file, tc.d, "")
		var e *Error
		if !errors.Is(err, ErrInvalid) || !errors.As(err, &e) || e.Field != tc.field || !strings.HasPrefix(err.Error(), "save agent: ") {
			t.Errorf("%+v: %v, want a mistake in %s", tc.d, err, tc.field)
		}
	}
	if readFile(t, file) != handWritten {
		t.Fatal("an invalid save changed the file")
	}
	if err := Save(file, Definition{Name: "coder", Description: "x", System: "y"}, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a new agent with a taken name: %v", err)
	}
	if err := Save(file, Definition{Name: "x", Description: "x", System: "y"}, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("replacing an unknown agent: %v", err)
	}
}

func TestSaveBuiltinNameReplacesIt(t *testing.T) {
	file := writeAgents(t, "version: 1\nagents:\n  - {name: researcher, disabled: true}\n")
	d := Definition{Name: "researcher", Description: "Mine.", System: "Search.", Tools: []string{"session_search"}, Memory: MemoryRead}
	if err := Save(file, d, "researcher"); err != nil {
		t.Fatal(err)
	}
	r := mustLoad(t, file)["researcher"]
	if r.Description != "Mine." || r.Disabled || r.Line != 3 || len(r.Tools) != 1 {
		t.Fatalf("researcher = %+v\n%s", r, readFile(t, file))
	}
	if err := Save(file, Definition{Name: "editor", Description: "Mine.", System: "Edit."}, "editor"); err != nil {
		t.Fatal(err)
	}
	if e := mustLoad(t, file)["editor"]; e.System != "Edit." || e.Line == 0 {
		t.Fatalf("editor = %+v", e)
	}
}

func TestDelete(t *testing.T) {
	file := writeAgents(t, handWritten)
	if err := Delete(file, "travel"); err != nil {
		t.Fatal(err)
	}
	m := mustLoad(t, file)
	if _, ok := m["travel"]; ok || m["coder"] == nil {
		t.Fatalf("after delete: %v", m)
	}
	if !strings.Contains(readFile(t, file), "# My agents, written by hand.") {
		t.Fatal("the file's comment is lost")
	}
	if err := Delete(file, "researcher"); !errors.Is(err, ErrBuiltin) || !strings.Contains(err.Error(), "switch it off") {
		t.Fatalf("deleting a built-in: %v", err)
	}
	if err := Delete(file, "nobody"); !errors.Is(err, ErrNotFound) || !strings.HasPrefix(err.Error(), "delete agent: ") {
		t.Fatalf("deleting an unknown agent: %v", err)
	}
}

func TestSetEnabledRoundTrip(t *testing.T) {
	file := writeAgents(t, handWritten)
	if err := SetEnabled(file, "researcher", false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, file), "{name: researcher, disabled: true}") {
		t.Fatalf("no switch-off entry:\n%s", readFile(t, file))
	}
	if err := SetEnabled(file, "coder", false); err != nil {
		t.Fatal(err)
	}
	m := mustLoad(t, file)
	if !m["researcher"].Disabled || !m["coder"].Disabled || m["travel"].Disabled {
		t.Fatalf("after switching off: %+v %+v", m["researcher"], m["coder"])
	}
	for _, name := range []string{"researcher", "coder", "editor"} {
		if err := SetEnabled(file, name, true); err != nil {
			t.Fatal(err)
		}
	}
	content := readFile(t, file)
	if strings.Contains(content, "researcher") || strings.Contains(content, "disabled") || !strings.Contains(content, "# keep the weather ones") {
		t.Fatalf("after switching on:\n%s", content)
	}
	m = mustLoad(t, file)
	if m["researcher"].Disabled || m["coder"].Disabled || m["coder"].Line == 0 {
		t.Fatalf("after switching on: %+v %+v", m["researcher"], m["coder"])
	}
	if err := SetEnabled(file, "nobody", false); !errors.Is(err, ErrNotFound) || !strings.HasPrefix(err.Error(), "disable agent: ") {
		t.Fatalf("unknown agent: %v", err)
	}
}

func TestEditRefusesABrokenFile(t *testing.T) {
	broken := "version: 1\nagents:\n  - name: [\n"
	file := writeAgents(t, broken)
	if err := SetEnabled(file, "researcher", false); err == nil || !strings.Contains(err.Error(), "fix it first") {
		t.Fatalf("edit of a broken file: %v", err)
	}
	if readFile(t, file) != broken {
		t.Fatal("a broken file was rewritten")
	}
}
