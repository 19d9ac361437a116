package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// TestToolsShareACompiledSchema: tools that declare the same parameter bytes
// (every agent__ tool) share one compiled schema, each keeps its own
// definition hash and validates as its own; a bad schema is refused every
// time; the cache stays within maxSchemas.
func TestToolsShareACompiledSchema(t *testing.T) {
	r := NewRegistry()
	params := json.RawMessage(`{"type":"object","properties":{"task":{"type":"string"}},"required":["task"]}`)
	for _, name := range []string{"agent__a", "agent__b"} {
		if err := r.Register(&Func{ToolName: name, ToolDescription: "Does " + name, Params: params}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := r.lookup("agent__a"), r.lookup("agent__b")
	if a.params != b.params || a.hash() == b.hash() || a.hash() != DefinitionHash(a.tool) {
		t.Fatalf("shared %v, hashes %s %s", a.params == b.params, a.hash(), b.hash())
	}
	if got := b.params.validate(map[string]any{}); len(got) != 1 || got[0] != "at /: missing property 'task'" {
		t.Errorf("validation through the shared schema: %q", got)
	}
	bad := json.RawMessage(`{"type":"object","properties":{"x":{"type":"strin"}}}`)
	for range 2 {
		if err := r.Register(&Func{ToolName: "bad", ToolDescription: "Bad.", Params: bad}); !errors.Is(err, ErrInvalidTool) {
			t.Fatalf("bad schema: %v", err)
		}
	}
	for i := range maxSchemas + 10 {
		p := json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"string"}}}`, i))
		if err := r.Register(&Func{ToolName: fmt.Sprintf("t%d", i), ToolDescription: "T.", Params: p}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(r.schemas); n > maxSchemas || n == 0 {
		t.Errorf("%d schemas cached", n)
	}
}
