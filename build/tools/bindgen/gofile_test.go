package main

import "testing"

// fieldOf names the App field web mode's table reaches a service through.
func TestFieldOf(t *testing.T) {
	for in, want := range map[string]string{"KnowledgeService": "knowledgeService", "MCPService": "mcpService", "App": "app", "AgentsService": "agentsService"} {
		if got := fieldOf(in); got != want {
			t.Errorf("%s: %s want %s", in, got, want)
		}
	}
}
