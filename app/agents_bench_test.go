package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/subagent"
)

// BenchmarkAgentList20000 is `hermes agent list` with 20,000 sub-agents in
// agents.yaml: opening the data dir (each enabled agent offered to the model
// as a tool) and listing them.
func BenchmarkAgentList20000(b *testing.B) {
	dir := b.TempDir()
	var y strings.Builder
	y.WriteString("version: 1\nagents:\n")
	for i := range 20_000 {
		fmt.Fprintf(&y, "- {name: a%d, description: d%d, system: s}\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, subagent.FileName), []byte(y.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"OLLAMA_HOST": "http://127.0.0.1:9"}
	b.ReportAllocs()
	for range b.N {
		core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../models/intent")})
		if err != nil {
			b.Fatal(err)
		}
		list, errs := core.Agents()
		core.Close()
		if len(errs) != 0 || len(list) < 20_000 {
			b.Fatalf("%d agents, %v", len(list), errs)
		}
	}
}
