package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// A tool from outside with a schema that does not compile is refused when
// registered; one of Hermes' own (WithOwnSchemas) is compiled when first
// called, where a broken schema is the call's one problem, and CheckSchemas
// (its tests) finds it.
func TestOwnSchemasCompileOnFirstUse(t *testing.T) {
	bad := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`)
	mk := func(name string) *Func {
		return &Func{ToolName: name, ToolDescription: "d", Params: bad, Annots: Annotations{ReadOnly: true},
			Fn: func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{}`), nil }}
	}
	reg := NewRegistry()
	if err := reg.Register(mk("outside")); !errors.Is(err, ErrInvalidTool) {
		t.Fatalf("outside tool with a broken schema: %v", err)
	}
	if err := reg.Register(mk("own"), WithOwnSchemas()); err != nil {
		t.Fatalf("own tool: %v", err)
	}
	if err := reg.CheckSchemas(); err == nil || !strings.Contains(err.Error(), "own/parameters") {
		t.Fatalf("CheckSchemas = %v", err)
	}
	reg.mu.RLock()
	e := reg.entries["own"]
	reg.mu.RUnlock()
	if got := e.params.validate(map[string]any{"n": 1}); len(got) != 1 || !strings.Contains(got[0], "does not compile") {
		t.Fatalf("validate = %v", got)
	}
	// The same bytes from outside are still checked, though the own tool's
	// schema is cached.
	if err := reg.Register(mk("outside2")); !errors.Is(err, ErrInvalidTool) {
		t.Fatalf("outside tool after the own one: %v", err)
	}
}

// An own tool's parameters are converted for the model and its definition
// hashed when first needed: a schema that is not an object registers, and
// CheckSchemas names it; the same bytes from outside are refused at once.
func TestOwnToolsPrepareOnFirstUse(t *testing.T) {
	notObject := json.RawMessage(`{"type":"string"}`)
	mk := func(name string) *Func {
		return &Func{ToolName: name, ToolDescription: "d", Params: notObject, Annots: Annotations{ReadOnly: true}}
	}
	reg := NewRegistry()
	if err := reg.Register(mk("own"), WithOwnSchemas()); err != nil {
		t.Fatalf("own tool: %v", err)
	}
	if err := reg.CheckSchemas(); err == nil || !strings.Contains(err.Error(), `tool "own"`) {
		t.Fatalf("CheckSchemas = %v", err)
	}
	if err := reg.Register(mk("outside")); !errors.Is(err, ErrInvalidTool) {
		t.Fatalf("outside tool, not an object: %v", err)
	}
	if e := reg.lookup("own"); e.hash() != DefinitionHash(e.tool) || e.hash() == "" {
		t.Fatalf("own tool's hash %q, want %q", e.hash(), DefinitionHash(e.tool))
	}
}
