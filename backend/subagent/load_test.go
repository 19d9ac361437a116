package subagent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeAgents writes content as agents.yaml in a temp dir and returns its path.
func writeAgents(t *testing.T, content string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// byName indexes a list of definitions.
func byName(list []*Definition) map[string]*Definition {
	out := map[string]*Definition{}
	for _, d := range list {
		out[d.Name] = d
	}
	return out
}

// names lists the names in order.
func names(list []*Definition) string {
	var s []string
	for _, d := range list {
		s = append(s, d.Name)
	}
	return strings.Join(s, ",")
}

const validYAML = `version: 1
agents:
  - name: travel
    description: Plans trips.
    system: |
      You are a travel planner.
      Be brief.
    model: qwen2.5:7b
    tools: [current_time, "weather__*"]
    memory: read
    max_rounds: 3
  - name: coder
    description: Writes code.
    system: You write code.
`

func TestLoadValidFile(t *testing.T) {
	list, errs := Load(writeAgents(t, validYAML))
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := names(list); got != "coder,editor,researcher,travel" {
		t.Fatalf("names %s", got)
	}
	m := byName(list)
	tr := m["travel"]
	if tr.Line != 3 || tr.Builtin || tr.Model != "qwen2.5:7b" || tr.Memory != MemoryRead || tr.MaxRounds != 3 ||
		tr.System != "You are a travel planner.\nBe brief." || strings.Join(tr.Tools, " ") != "current_time weather__*" {
		t.Fatalf("travel = %+v", tr)
	}
	if !tr.MayUse("weather__forecast") || tr.MayUse("shell") {
		t.Fatal("travel's tools globs do not apply")
	}
	if c := m["coder"]; c.Memory != MemoryNone || c.Rounds() != DefaultMaxRounds || c.Line != 12 {
		t.Fatalf("coder = %+v", c)
	}
	if r := m["researcher"]; !r.Builtin || r.Line != 0 || r.Disabled {
		t.Fatalf("researcher = %+v", r)
	}
}

func TestLoadMissingFileIsTheBuiltins(t *testing.T) {
	list, errs := Load(filepath.Join(t.TempDir(), FileName))
	if len(errs) != 0 || names(list) != "editor,researcher" {
		t.Fatalf("%s %v", names(list), errs)
	}
}

// TestLoadReportsEachMistake: each broken entry gives one error with its line
// and field, and the good entry after them still loads.
func TestLoadReportsEachMistake(t *testing.T) {
	content := `version: 1
agents:
  - name: a1
    description: x
    system: y
    colour: red
  - name: Bad-Name
    description: x
    system: y
  - name: a3
    system: y
  - name: a4
    description: x
    system: y
    memory: write
  - name: a5
    description: x
    system: y
    max_rounds: 99
  - name: a6
    description: x
    system: y
    tools: ["[abc"]
  - name: a1
    description: x
    system: y
  - name: good
    description: x
    system: y
  - name: a9
    description: x
    system: y
    tools: [agent__good]
  - name: lonely
    disabled: true
`
	file := writeAgents(t, content)
	list, errs := Load(file)
	want := []struct {
		line         int
		agent, field string
		msg          string
	}{
		{6, "a1", "colour", `unknown field "colour"`},
		{7, "#2", "name", `"Bad-Name" is not a valid agent name`},
		{10, "a3", "description", "is missing"},
		{15, "a4", "memory", `"write" is not one of none`},
		{19, "a5", "max_rounds", "from 1 to 20"},
		{23, "a6", "tools", `"[abc" is not a valid tool name or glob`},
		{24, "#7", "name", `"a1" is already declared at line 3`},
		{33, "a9", "tools", "cannot call another sub-agent"},
		{34, "lonely", "description", "is missing"},
		{34, "lonely", "system", "is missing"},
	}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, w := range want {
		var e *Error
		if !errors.As(errs[i], &e) || e.File != file || e.Line != w.line || e.Agent != w.agent || e.Field != w.field || !strings.Contains(e.Msg, w.msg) {
			t.Errorf("error %d = %#v, want %+v", i, errs[i], w)
		}
	}
	if got := names(list); got != "editor,good,researcher" {
		t.Fatalf("loaded %s", got)
	}
	if s := errs[3].Error(); !strings.HasPrefix(s, file+":15: agent a4: memory: ") || !strings.Contains(s, "read") {
		t.Fatalf("message %q", s)
	}
}

func TestLoadFileLevelMistakes(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"version: 2\nagents: []\n", ":1: version: only version 1 is known"},
		{"version: 1\nagents: {a: 1}\n", ":2: agents: must be a list"},
		{"version: 1\nagents:\n  - name: [\n", "not valid YAML"},
		{"- a\n", ":1: the file must be a mapping"},
	} {
		list, errs := Load(writeAgents(t, tc.content))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%q: errors %v, want %q", tc.content, errs, tc.want)
		}
		if names(list) != "editor,researcher" {
			t.Errorf("%q: the built-ins are lost: %s", tc.content, names(list))
		}
	}
}

func TestLoadSwitchesOffAndReplacesBuiltins(t *testing.T) {
	list, errs := Load(writeAgents(t, `version: 1
agents:
  - name: researcher
    disabled: true
  - name: editor
    description: My editor.
    system: Edit like me.
`))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	m := byName(list)
	if r := m["researcher"]; r == nil || !r.Disabled || !r.Builtin || r.Line != 3 || r.System == "" {
		t.Fatalf("researcher = %+v", r)
	}
	if e := m["editor"]; e == nil || e.Description != "My editor." || e.MaxRounds != 0 || !e.Builtin || e.Line != 5 {
		t.Fatalf("editor = %+v", e)
	}
}

func TestLoadBrokenReplacementKeepsBuiltin(t *testing.T) {
	list, errs := Load(writeAgents(t, "version: 1\nagents:\n  - name: editor\n    disabled: maybe\n"))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ":4: agent editor: disabled: must be true or false") {
		t.Fatalf("errors %v", errs)
	}
	if e := byName(list)["editor"]; e == nil || e.Disabled || e.Line != 0 {
		t.Fatalf("editor = %+v", e)
	}
}

func TestCatalogRefreshPicksUpAChange(t *testing.T) {
	file := writeAgents(t, validYAML)
	c := NewCatalog(file)
	if c.Path() != file {
		t.Fatal(c.Path())
	}
	if _, ok := c.Get("travel"); !ok {
		t.Fatal("travel not loaded")
	}
	if c.Refresh() {
		t.Fatal("refreshed an unchanged file")
	}
	changed := strings.Replace(validYAML, "name: travel", "name: trips", 1) + "  - name: researcher\n    disabled: true\n"
	if err := os.WriteFile(file, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(file, later, later)
	if !c.Refresh() {
		t.Fatal("the change was not read")
	}
	if _, ok := c.Get("travel"); ok {
		t.Fatal("travel still there")
	}
	if r, ok := c.Get("researcher"); !ok || !r.Disabled {
		t.Fatalf("researcher = %+v", r)
	}
	if got := names(c.Enabled()); got != "coder,editor,trips" {
		t.Fatalf("enabled %s", got)
	}
	if list, errs := c.List(); len(list) != 4 || len(errs) != 0 {
		t.Fatalf("list %s %v", names(list), errs)
	}
}
