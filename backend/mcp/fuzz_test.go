package mcp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzParseConfig hands mcp.json's parser (Claude Desktop's mcpServers and VS
// Code's servers) whatever the fuzzer makes of real config files: it never
// panics, answers within a second, a file refused and every problem is one
// line, and a server it admits is listed and is either a command or a URL.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		// the README's example
		`{"mcpServers": {
  "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]},
  "kb":    {"url": "http://192.168.1.20:8080/mcp", "headers": {"Authorization": "Bearer ${KB_TOKEN}"}},
  "old":   {"type": "sse", "url": "https://orders.lan/sse", "ca_file": "/etc/ssl/lan-ca.pem"}
}}`,
		`{"globalShortcut": "Ctrl+Space", "mcpServers": {"fs": {"command": "npx", "args": ["-y", "server"], "env": {"TOKEN": "${TOKEN}"},
  "cwd": "/tmp", "timeout": "30s", "tools": {"include": ["read_*"], "exclude": ["read_secret"]}, "autoApprove": ["read_file"], "disabled": false}}}`,
		`{"servers": {"web": {"type": "http", "url": "http://127.0.0.1:3000/mcp", "headers": {"X": "a\r\nHost: evil"}, "allow_internet": true}}}`,
		"{\"mcpServers\": {\n  \"s\": {\"args\": []},\n  \"s\": {\"command\": \"b\", \"timeout\": 30, \"colour\": \"blue\"}\n}}",
		`{"mcpServers": {"s": "npx", "t": {"command": "a", "url": "ftp://me:pw@10.0.0.1/mcp", "tools": {"include": ["[x"]}}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, key := range []string{"mcpServers", "servers"} {
			start := time.Now()
			cfg, err := parseConfig("/data/mcp.json", data, key)
			if took := time.Since(start); took > time.Second {
				t.Fatalf("took %v for %d bytes", took, len(data))
			}
			if err != nil {
				oneLine(t, err)
				continue
			}
			for _, p := range cfg.Problems {
				oneLine(t, p)
			}
			for name, sc := range cfg.Servers {
				if !slices.Contains(cfg.Names, name) || (sc.Command == "") == (sc.URL == "") {
					t.Fatalf("admitted %q: %+v (names %q)", name, sc, cfg.Names)
				}
			}
		}
	})
}

// oneLine fails unless err is one line naming mcp.json.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); !strings.HasPrefix(msg, "mcp.json:") || strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("not one line naming the file: %q", msg)
	}
}
