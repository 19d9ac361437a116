package subagent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manyAgents is an agents.yaml of n agents (a name, a description and a
// system prompt each), within the 1 MiB a YAML file may have.
func manyAgents(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nagents:\n")
	for i := range n {
		fmt.Fprintf(&b, "- {name: a%d, description: d%d, system: s}\n", i, i)
	}
	p := filepath.Join(tb.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkLoad20000Agents is `agent list` over an agents.yaml of 20,000
// agents: reading, parsing and checking the file, and merging the built-ins.
func BenchmarkLoad20000Agents(b *testing.B) {
	p := manyAgents(b, 20_000)
	b.ReportAllocs()
	for range b.N {
		list, errs := Load(p)
		if len(errs) != 0 || len(list) != 20_000+len(Builtins()) {
			b.Fatalf("%d agents, %v", len(list), errs)
		}
	}
}
