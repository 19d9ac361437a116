package yamlfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseNamesTheLineOfASyntaxError(t *testing.T) {
	data := []byte("version: 1\ntools:\n  - name: a\n    description: [unclosed\n  - name: b\n")
	_, line, msg, err := Parse(data)
	if err == nil || line != 4 || !strings.HasPrefix(msg, "the file is not valid YAML: ") || strings.Contains(msg, "line ") {
		t.Fatalf("line %d, %q, %v", line, msg, err)
	}
}

func TestReadMissingAndLarge(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := Read(filepath.Join(dir, "none.yaml")); ok || err != nil {
		t.Fatalf("missing file: %v %v", ok, err)
	}
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, make([]byte, MaxSize+1), 0o600)
	if _, _, err := Read(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("large file: %v", err)
	}
}

func TestCheckerFields(t *testing.T) {
	var doc yaml.Node
	yaml.Unmarshal([]byte("name: a\ndescriptoin: b\nname: c\n"), &doc)
	var got []string
	c := Checker{Fail: func(n *yaml.Node, field, msg string) { got = append(got, field+": "+msg) }}
	fields := c.Fields(doc.Content[0], "", []string{"name", "description"})
	if fields["name"].Value != "a" || len(got) != 2 || !strings.Contains(got[0], `did you mean "description"?`) || !strings.Contains(got[1], "appears twice (first at line 1)") {
		t.Fatalf("fields %v, problems %q", fields, got)
	}
}

func TestSplitTemplate(t *testing.T) {
	got, err := SplitTemplate("call {{ a.b }} then {{c}}!")
	want := []Piece{{Text: "call "}, {Text: "a.b", IsPlaceholder: true}, {Text: " then "}, {Text: "c", IsPlaceholder: true}, {Text: "!"}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("got %+v, %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("piece %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := SplitTemplate("x {{open"); err == nil || !strings.Contains(err.Error(), "without a closing") {
		t.Fatalf("unclosed: %v", err)
	}
}

// TestMistakesAreOneLine: yaml's list of unmarshal errors, and any message
// with line breaks, reads on one line.
func TestMistakesAreOneLine(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("inputs: {s,s}"), &n); err != nil {
		t.Fatal(err)
	}
	var v any
	err := n.Content[0].Content[1].Decode(&v)
	if got := OneLine(err); err == nil || got != `line 1: mapping key "s" already defined at line 1` {
		t.Errorf("OneLine(%q) = %q", err, got)
	}
	if got := Where("w.yaml", 3, []string{"step a\nb"}, "args", "first\n   second\r\nthird"); got != "w.yaml:3: step a; b: args: first; second; third" {
		t.Errorf("Where = %q", got)
	}
}
