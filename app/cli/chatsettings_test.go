package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSessionSettings(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "--json", "chat", "hello")
	var turn struct{ Session struct{ ID string } }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &turn) != nil {
		t.Fatalf("chat: %+v", r)
	}
	id := turn.Session.ID
	type shown struct {
		System, Model string
		Temperature   *float64
		NumCtx        int
		Defaults      struct{ Model string }
	}
	show := func() shown {
		t.Helper()
		r := runCLI(t, env, "", "session", "settings", id, "--json")
		var s shown
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &s) != nil {
			t.Fatalf("show: %+v", r)
		}
		return s
	}
	if s := show(); s.System != "" || s.Defaults.Model != "llama3.2" {
		t.Fatalf("defaults: %+v", s)
	}
	r = runCLI(t, env, "", "session", "settings", id, "--system", "You are terse.", "--temperature", "0.5", "--context", "4096", "--model", "llama3.2")
	if r.code != 0 || !strings.Contains(r.stdout, "You are terse.") || !strings.Contains(r.stdout, "temperature: 0.5") {
		t.Fatalf("set: %+v", r)
	}
	if s := show(); s.System != "You are terse." || s.NumCtx != 4096 || s.Temperature == nil || *s.Temperature != 0.5 || s.Model != "llama3.2" {
		t.Fatalf("after set: %+v", s)
	}
	// Only the flags given change; "default" returns one to the global setting.
	r = runCLI(t, env, "", "session", "settings", id, "--preset", "Concise", "--temperature", "default")
	if s := show(); r.code != 0 || !strings.HasPrefix(s.System, "You are Hermes") || s.Temperature != nil || s.NumCtx != 4096 {
		t.Fatalf("preset: %+v %+v", r, s)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"temperature out of range", []string{"--temperature", "3"}, "between 0 and 2"},
		{"temperature not a number", []string{"--temperature", "warm"}, "not a number"},
		{"context too small", []string{"--context", "10"}, "between 512"},
		{"context not a number", []string{"--context", "big"}, "whole number"},
		{"model not installed", []string{"--model", "mistral"}, "not installed"},
		{"unknown preset", []string{"--preset", "Nope"}, "no such preset"},
		{"system and preset", []string{"--system", "x", "--preset", "Concise"}, "not both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, env, "", append([]string{"session", "settings", id}, c.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("%v: %+v", c.args, r)
			}
		})
	}
	if r = runCLI(t, env, "", "session", "settings", "nope"); r.code != 2 || !strings.Contains(r.stderr, "no session") {
		t.Fatalf("unknown session: %+v", r)
	}
	if s := show(); s.NumCtx != 4096 {
		t.Fatalf("a refused change was kept: %+v", s)
	}
}
