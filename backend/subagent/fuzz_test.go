package subagent

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzParseAgents hands agents.yaml's parser whatever the fuzzer makes of real
// files: it never panics, answers within a second, every mistake is one
// *Error of one line naming the file, and an agent it admits has a valid
// name (built-ins included, each name once), rounds within the limit and a
// known memory access.
func FuzzParseAgents(f *testing.F) {
	for _, seed := range []string{
		validYAML,
		// the README's example
		`version: 1
agents:
  - name: travel                       # the model sees it as the tool agent__travel
    description: Plans trips: routes, timetables, what to pack.   # what the main model reads
    system: You plan trips for the user. Answer with a short plan.
    model: qwen2.5:7b                  # optional: another installed model
    tools: [current_time, "maps__*"]   # names or globs it may use; default none
    memory: read                       # none (default) | read; sub-agents never write memory
    max_rounds: 3                      # rounds of tool calls (default 4, at most 20)
  - {name: editor, disabled: true}     # switch a built-in off
`,
		"version: 2\nagents:\n  - &a {name: x, description: d, system: s, max_rounds: 99, tools: ['[x', agent__y]}\n  - *a\n  - name: Bad Name\n  - [1]\n",
		"agents: {name: x}\nextra: 1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		declared, errs := parse("agents.yaml", data)
		list := merge(declared)
		if took := time.Since(start); took > time.Second {
			t.Fatalf("took %v for %d bytes", took, len(data))
		}
		for _, err := range errs {
			var e *Error
			if msg := err.Error(); !errors.As(err, &e) || !strings.HasPrefix(msg, "agents.yaml") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("not one line naming the file: %T %q", err, msg)
			}
		}
		seen := map[string]bool{}
		for _, d := range list {
			if !agentName.MatchString(d.Name) || seen[d.Name] || d.MaxRounds < 0 || d.MaxRounds > MaxRoundsLimit ||
				(d.Memory != MemoryNone && d.Memory != MemoryRead) {
				t.Fatalf("admitted %+v", d)
			}
			seen[d.Name] = true
		}
	})
}
