package app

import (
	"strings"
	"testing"

	"hermes/backend/config"
)

// Every rule web mode keeps by method name (one-time codes, the MCP lock, the
// request's context, a larger body) names a method of App; a rule left behind
// by a renamed method stops web mode from starting, so no gate goes quietly.
func TestWebRulesNameMethods(t *testing.T) {
	a := &App{}
	w := &Web{app: a}
	names := w.webRuleNames()
	bound := a.webMethods()
	for _, want := range []string{"MCPApprove", "ResolveApproval", "SetSetting", "SendMessage", "AttachDocument", "MCPRemove"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("no web rule for %s: %v", want, names)
		}
	}
	if err := checkWebRules(names, bound); err != nil {
		t.Fatal(err)
	}
	err := checkWebRules(append(names, "ApproveMCPServer"), bound)
	if err == nil || !strings.Contains(err.Error(), "ApproveMCPServer") {
		t.Fatalf("a gate on a method that is gone: %v", err)
	}
}

// The composition root gives a rule for every domain setting, and only those.
func TestDomainSettingsAreAllGiven(t *testing.T) {
	var got []string
	for _, s := range domainSettings() {
		got = append(got, s.Key)
	}
	if want := config.DomainKeys(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("domain settings given %v; config has %v", got, want)
	}
}
