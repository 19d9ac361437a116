package main

import "testing"

// fieldOf names the App field web mode's table (and the command line) reaches
// a bound service through.
func TestFieldOf(t *testing.T) {
	for in, want := range map[string]string{"KnowledgeService": "Knowledge", "MCPService": "MCP", "AgentsService": "Agents"} {
		if got := fieldOf(in); got != want {
			t.Errorf("fieldOf(%s) = %s, want %s", in, got, want)
		}
	}
}
