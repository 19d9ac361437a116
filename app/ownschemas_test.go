package app

import (
	"testing"

	"hermes/backend/llm/llmtest"
)

// Hermes' own tools (built-in, knowledge, memory, plan, the sub-agents'
// agent__ tools) compile their schemas when first called, so a command that
// calls none does not start the JSON Schema compiler (README, "Start-up"):
// every one registered at open must compile.
func TestOwnToolSchemasCompile(t *testing.T) {
	_, core, _, _ := newTestApp(t, llmtest.Echo(1, 0))
	n := len(core.tools.reg.List())
	if n < 8 {
		t.Fatalf("%d tools registered at open", n)
	}
	if err := core.tools.reg.CheckSchemas(); err != nil {
		t.Fatal(err)
	}
}
