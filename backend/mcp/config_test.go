package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		servers  []string // valid entries
		problems []string // substrings of Problem.Error(), in order
		fileErr  string   // substring of the whole-file error
	}{
		{name: "empty file", file: ""},
		{name: "no servers", file: `{"globalShortcut": "x"}`},
		{name: "full entry", file: `{"mcpServers": {
  "fs": {
    "command": "npx",
    "args": ["-y", "server"],
    "env": {"TOKEN": "${TOKEN}"},
    "cwd": "/tmp",
    "timeout": "30s",
    "tools": {"include": ["read_*"], "exclude": ["read_secret"]},
    "autoApprove": ["read_file"]
  }
}}`, servers: []string{"fs"}},
		{name: "missing command names its line", file: `{"mcpServers": {
  "ok": {"command": "a"},
  "bad": {"args": []}
}}`, servers: []string{"ok"}, problems: []string{`mcp.json:3:3: server "bad": field "command": is missing`}},
		{name: "wrong type names the field and line", file: `{"mcpServers": {
  "bad": {
    "command": "a",
    "args": "not-an-array"
  }
}}`, problems: []string{`mcp.json:4:13: server "bad": field "args": must be an array of strings`}},
		{name: "wrong element type points at the element", file: `{"mcpServers": {
  "bad": {"command": "a",
    "args": ["ok",
      42]}
}}`, problems: []string{`mcp.json:4:8: server "bad": field "args": must be an array of strings`}},
		{name: "bad timeout", file: `{"mcpServers": {"bad": {"command": "a", "timeout": "thirty"}}}`,
			problems: []string{`field "timeout": "thirty" is not a duration`}},
		{name: "numeric timeout", file: `{"mcpServers": {"bad": {"command": "a", "timeout": 30}}}`,
			problems: []string{`field "timeout": must be a duration string such as "30s"`}},
		{name: "remote server", file: `{"mcpServers": {"web": {"url": "http://192.168.1.20:8080/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "timeout": "5s"}}}`,
			servers: []string{"web"}},
		{name: "remote sse server on a LAN name", file: `{"mcpServers": {"kb": {"type": "sse", "url": "https://kb.lan/sse", "ca_file": "/etc/lan-ca.pem"}}}`,
			servers: []string{"kb"}},
		{name: "url that is not one", file: `{"mcpServers": {"web": {"url": "x"}}}`,
			problems: []string{`field "url": "x" is not a URL`}},
		{name: "url with another scheme", file: `{"mcpServers": {"web": {"url": "ftp://10.0.0.1/mcp"}}}`,
			problems: []string{`must start with http:// or https://`}},
		{name: "url with a password", file: `{"mcpServers": {"web": {"url": "http://me:pw@10.0.0.1/mcp"}}}`,
			problems: []string{`must not hold a user name or password`}},
		{name: "internet host needs allow_internet", file: `{"mcpServers": {"web": {"url": "https://mcp.example.com/mcp"}}}`,
			problems: []string{`field "url": host mcp.example.com is not a local name`}},
		{name: "internet host with allow_internet", file: `{"mcpServers": {"web": {"url": "https://mcp.example.com/mcp", "allow_internet": true}}}`,
			servers: []string{"web"}},
		{name: "plain http to the internet is a warning", file: `{"mcpServers": {"web": {"url": "http://8.8.8.8/mcp", "allow_internet": true}}}`,
			servers: []string{"web"}, problems: []string{`warning: plain http to an internet host`}},
		{name: "metadata address is always refused", file: `{"mcpServers": {"web": {"url": "http://169.254.169.254/latest", "allow_internet": true}}}`,
			problems: []string{`link-local and cloud-metadata addresses are never reached`}},
		{name: "IPv6 metadata address is always refused", file: `{"mcpServers": {"web": {"url": "http://[fd00:ec2::254]/", "allow_internet": true}}}`,
			problems: []string{`link-local and cloud-metadata addresses are never reached`}},
		{name: "command and url", file: `{"mcpServers": {"web": {"command": "a", "url": "http://127.0.0.1/mcp"}}}`,
			problems: []string{`either command (a local server) or url (a remote one), not both`}},
		{name: "args on a remote entry", file: `{"mcpServers": {"web": {"url": "http://127.0.0.1/mcp", "args": ["x"]}}}`,
			problems: []string{`field "args": applies to command servers only`}},
		{name: "headers on a command entry", file: `{"mcpServers": {"s": {"command": "a", "headers": {"X": "y"}}}}`,
			problems: []string{`field "headers": applies to remote servers (url) only`}},
		{name: "bad header name", file: `{"mcpServers": {"web": {"url": "http://127.0.0.1/mcp", "headers": {"Bad Name": "y"}}}}`,
			problems: []string{`"Bad Name" is not a valid header name`}},
		{name: "header value with a line break", file: `{"mcpServers": {"web": {"url": "http://127.0.0.1/mcp", "headers": {"X": "a\r\nHost: evil"}}}}`,
			problems: []string{`the value of "X" holds a line break`}},
		{name: "unknown transport", file: `{"mcpServers": {"web": {"url": "http://127.0.0.1/mcp", "type": "websocket"}}}`,
			problems: []string{`"websocket" is not a transport Hermes knows`}},
		{name: "sse type without url", file: `{"mcpServers": {"web": {"command": "a", "type": "sse"}}}`,
			problems: []string{`field "url": is missing; a "sse" server needs "url"`}},
		{name: "stdio type is fine", file: `{"mcpServers": {"s": {"command": "a", "type": "stdio"}}}`, servers: []string{"s"}},
		{name: "unknown field is a warning", file: `{"mcpServers": {"s": {"command": "a", "colour": "blue"}}}`,
			servers: []string{"s"}, problems: []string{`field "colour": warning: unknown field`}},
		{name: "relative cwd", file: `{"mcpServers": {"s": {"command": "a", "cwd": "rel/dir"}}}`,
			problems: []string{`field "cwd": "rel/dir" is not an absolute path`}},
		{name: "bad glob", file: `{"mcpServers": {"s": {"command": "a", "tools": {"include": ["[x"]}}}}`,
			problems: []string{`field "tools.include": "[x" is not a valid glob pattern`}},
		{name: "entry not an object", file: `{"mcpServers": {"s": "npx"}}`,
			problems: []string{`server "s": must be an object`}},
		{name: "env with a bad name", file: `{"mcpServers": {"s": {"command": "a", "env": {"A=B": "x"}}}}`,
			problems: []string{`field "env": "A=B" is not a valid variable name`}},
		{name: "duplicate entry: the later wins", file: `{"mcpServers": {
  "s": {"args": []},
  "s": {"command": "b"}
}}`, servers: []string{"s"}, problems: []string{`mcp.json:3:3: server "s": warning: defined again (first at line 2)`}},
		{name: "syntax error names line and column", file: "{\"mcpServers\": {\n  \"s\": {\"command\": \"a\",}\n}}",
			fileErr: "mcp.json:2:"},
		{name: "truncated file", file: `{"mcpServers": {"s": {"command": "a"}`, fileErr: "ends too early"},
		{name: "top level not an object", file: `[1]`, fileErr: "must hold a JSON object"},
		{name: "servers not an object", file: `{"mcpServers": []}`, fileErr: `field "mcpServers": must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig("/data/mcp.json", []byte(tt.file))
			if tt.fileErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.fileErr) {
					t.Fatalf("error = %v; want it to contain %q", err, tt.fileErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var valid []string
			for _, n := range cfg.Names {
				if _, ok := cfg.Servers[n]; ok {
					valid = append(valid, n)
				}
			}
			if strings.Join(valid, ",") != strings.Join(tt.servers, ",") {
				t.Errorf("valid servers = %v; want %v (problems: %v)", valid, tt.servers, cfg.Problems)
			}
			var got []string
			for _, p := range cfg.Problems {
				got = append(got, p.Error())
			}
			if len(got) != len(tt.problems) {
				t.Fatalf("problems = %q; want %q", got, tt.problems)
			}
			all := strings.Join(got, "\n")
			for _, want := range tt.problems {
				if !strings.Contains(all, want) {
					t.Errorf("problems = %q; want one containing %q", got, want)
				}
			}
		})
	}
}

func TestParseConfigValues(t *testing.T) {
	cfg, err := ParseConfig("mcp.json", []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "s"], "env": {"A": "1"},
		"disabled": true, "timeout": "2m", "tools": {"include": ["read_*"], "exclude": ["read_secret"]}, "autoApprove": ["x"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	sc := cfg.Servers["fs"]
	if sc.Command != "npx" || len(sc.Args) != 2 || sc.Env["A"] != "1" || !sc.Disabled || time.Duration(sc.Timeout) != 2*time.Minute || !sc.autoApproves("x") {
		t.Fatalf("entry = %+v", sc)
	}
	for tool, want := range map[string]bool{"read_file": true, "read_secret": false, "write_file": false} {
		if got := sc.Tools.Allows(tool); got != want {
			t.Errorf("Allows(%s) = %v; want %v", tool, got, want)
		}
	}
}

func TestEditConfigKeepsTheRest(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mcp.json")
	orig := `{"theme": "dark", "mcpServers": {"b": {"command": "b", "x-note": "kept"}, "a": {"command": "a"}}, "other": [1, 2]}`
	if err := os.WriteFile(file, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	err := editConfig(file, func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		raw, err := setEntryField(entries["b"], "disabled", true)
		if err != nil {
			return nil, err
		}
		entries["b"] = raw
		entries["c"] = json.RawMessage(`{"command":"c"}`)
		return append(names, "c"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.Names, ","); got != "b,a,c" {
		t.Errorf("order = %s; want b,a,c", got)
	}
	if !cfg.Servers["b"].Disabled {
		t.Error("b is not disabled")
	}
	data, _ := os.ReadFile(file)
	for _, want := range []string{`"theme": "dark"`, `"x-note": "kept"`, `"other": [`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lost %s:\n%s", want, data)
		}
	}
	fi, _ := os.Stat(file)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode())
	}

	// Removing the field again.
	err = editConfig(file, func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		raw, err := setEntryField(entries["b"], "disabled", nil)
		entries["b"] = raw
		return names, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := LoadConfig(file); cfg.Servers["b"].Disabled {
		t.Error("b is still disabled")
	}
}

func TestEditConfigRefusesABrokenFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mcp.json")
	broken := `{"mcpServers": {`
	os.WriteFile(file, []byte(broken), 0o600)
	err := editConfig(file, func(names []string, _ map[string]json.RawMessage) ([]string, error) { return names, nil })
	if err == nil || !strings.Contains(err.Error(), "fix them first") {
		t.Fatalf("error = %v", err)
	}
	if data, _ := os.ReadFile(file); string(data) != broken {
		t.Errorf("the broken file was rewritten: %s", data)
	}
}

func TestImportClaudeConfig(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude_desktop_config.json")
	into := filepath.Join(dir, "mcp.json")
	os.WriteFile(claude, []byte(`{"mcpServers": {
  "same": {"command": "a"},
  "differs": {"command": "new"},
  "fresh": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v"}},
  "broken": {"args": ["no command"]}
}, "globalShortcut": "Ctrl+Space"}`), 0o600)
	os.WriteFile(into, []byte(`{"mcpServers": {"same": {"command": "a"}, "differs": {"command": "old"}}}`), 0o600)

	res, err := ImportClaudeConfig(claude, into)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Added, ",") != "fresh" || strings.Join(res.Unchanged, ",") != "same" || strings.Join(res.Conflicts, ",") != "differs" {
		t.Errorf("result = %+v", res)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Server != "broken" || res.Skipped[0].Line != 5 {
		t.Errorf("skipped = %+v", res.Skipped)
	}
	cfg, err := LoadConfig(into)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Servers["differs"].Command != "old" || cfg.Servers["fresh"].Env["K"] != "v" {
		t.Errorf("merged = %+v", cfg.Servers)
	}
	if data, _ := os.ReadFile(into); strings.Contains(string(data), "globalShortcut") {
		t.Error("Claude's own settings were copied")
	}

	if _, err := ImportClaudeConfig(filepath.Join(dir, "missing.json"), into); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing file: error = %v", err)
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join(t.TempDir(), "mcp.json"))
	if err != nil || len(cfg.Names) != 0 {
		t.Fatalf("cfg = %+v, err = %v", cfg, err)
	}
}
