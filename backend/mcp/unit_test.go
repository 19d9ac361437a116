package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"hermes/backend/tools"
)

func TestStripInvisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"keeps newlines and tabs", "a\n\tb\r\n", "a\n\tb\r\n"},
		{"zero width", "a\u200bb\u200cc\u200dd\u200ee\u200ff", "abcdef"},
		{"word joiner and invisible operators", "a\u2060b\u2064c", "abc"},
		{"BOM", "\ufeffstart", "start"},
		{"bidi controls", "x\u202ay\u202ez\u2066w\u2069", "xyzw"},
		{"tag characters", "see\U000E0049\U000E0047\U000E004E\U000E007F!", "see!"},
		{"C0 controls", "bell\x07 esc\x1b[31m", "bell esc[31m"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"CJK and emoji are kept", "你好 👋", "你好 👋"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripInvisible(tt.in); got != tt.want {
				t.Errorf("StripInvisible(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCapText(t *testing.T) {
	s := strings.Repeat("é", 100) // 200 bytes
	got := capText(s, 51)
	if !strings.HasPrefix(got, strings.Repeat("é", 25)+"\n[truncated by Hermes: 50 of 200 bytes shown]") {
		t.Errorf("capText = %q", got)
	}
	if capText("short", 10) != "short" {
		t.Error("a short text changed")
	}
}

func TestSanitizeJSON(t *testing.T) {
	got := string(sanitizeJSON(json.RawMessage(`{"a\u200b":"x\u200by","n":[1,"\u202ez"]}`)))
	if got != `{"a":"xy","n":[1,"z"]}` {
		t.Errorf("sanitizeJSON = %s", got)
	}
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	tests := []struct {
		name, server, tool, want string
	}{
		{"plain", "everything", "echo", "everything__echo"},
		{"dashes kept", "file-system", "read-file", "file-system__read-file"},
		{"invalid characters", "my server", "get.thing/v2", "my_server__get_thing_v2"},
		{"unicode", "服务器", "读", "____"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ToolName(tt.server, tt.tool); got != tt.want {
				t.Errorf("ToolName = %q; want %q", got, tt.want)
			}
		})
	}
	t.Run("too long is cut and hashed, stable and valid", func(t *testing.T) {
		a, b := ToolName("srv", long), ToolName("srv", long+"y")
		if len(a) != 64 || !tools.ValidName(a) || a == b || a != ToolName("srv", long) {
			t.Errorf("names %q %q", a, b)
		}
	})
	t.Run("collisions get distinct names", func(t *testing.T) {
		alloc := newNameAllocator("s", func(n string) bool { return n == "s__taken" })
		seen := map[string]bool{}
		for _, tool := range []string{"a.b", "a_b", "a b", "taken"} {
			n := alloc.name(tool)
			if seen[n] || !tools.ValidName(n) || n == "s__taken" {
				t.Errorf("name %q for %q is not unique or valid", n, tool)
			}
			seen[n] = true
		}
	})
}

func TestCommandLine(t *testing.T) {
	got := CommandLine(ServerConfig{Command: "npx", Args: []string{"-y", "@scope/pkg@1.0", "it's here", ""},
		Env: map[string]string{"TOKEN": "${GITHUB_TOKEN}", "A": "1"}, Cwd: "/home/me/my dir"})
	want := `cd '/home/me/my dir' && env A=1 'TOKEN=${GITHUB_TOKEN}' npx -y @scope/pkg@1.0 'it'\''s here' ''`
	if got != want {
		t.Errorf("CommandLine =\n%s\nwant\n%s", got, want)
	}
	a := ServerConfig{Command: "npx", Args: []string{"a"}}
	b := a.clone()
	b.Timeout = Duration(5)
	if CommandHash(a) != CommandHash(b) {
		t.Error("a timeout changed the command hash")
	}
	b.Args = []string{"b"}
	if CommandHash(a) == CommandHash(b) {
		t.Error("changed args kept the command hash")
	}
}

func TestChildEnv(t *testing.T) {
	parent := []string{"PATH=/usr/bin", "HOME=/home/me", "LANG=en_US.UTF-8", "SECRET=hunter2", "GITHUB_TOKEN=ghp_x", "TMPDIR=/tmp/x", "LD_PRELOAD=/evil.so"}
	env, missing := childEnv(parent, map[string]string{"TOKEN": "${GITHUB_TOKEN}", "MIX": "a-${HOME}-${NOPE}-$HOME", "PLAIN": "p$$w"})
	want := []string{"HOME=/home/me", "LANG=en_US.UTF-8", "MIX=a-/home/me--$HOME", "PATH=/usr/bin", "PLAIN=p$$w", "TMPDIR=/tmp/x", "TOKEN=ghp_x"}
	if strings.Join(env, "\n") != strings.Join(want, "\n") {
		t.Errorf("env = %q\nwant %q", env, want)
	}
	if strings.Join(missing, ",") != "NOPE" {
		t.Errorf("missing = %v", missing)
	}
}

func TestHermesAnnotations(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name          string
		hints         mcp.ToolAnnotation
		readOnly      bool
		needsApproval bool
	}{
		{"no hints: open world, asks", mcp.ToolAnnotation{}, false, true},
		{"read-only", mcp.ToolAnnotation{ReadOnlyHint: &yes, DestructiveHint: &no, OpenWorldHint: &no}, true, false},
		{"read-only without other hints", mcp.ToolAnnotation{ReadOnlyHint: &yes}, true, false},
		{"read-only but destructive is a lie: asks", mcp.ToolAnnotation{ReadOnlyHint: &yes, DestructiveHint: &yes}, false, true},
		{"read-only reaching the internet asks", mcp.ToolAnnotation{ReadOnlyHint: &yes, OpenWorldHint: &yes}, true, true},
		{"not read-only, not destructive: still asks", mcp.ToolAnnotation{ReadOnlyHint: &no, DestructiveHint: &no}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := hermesAnnotations(tt.hints)
			if a.ReadOnly != tt.readOnly || a.NeedsApproval() != tt.needsApproval {
				t.Errorf("annotations = %+v; read-only %v, asks %v; want %v, %v", a, a.ReadOnly, a.NeedsApproval(), tt.readOnly, tt.needsApproval)
			}
		})
	}
}

func TestToolParameters(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"missing", ``, `{"type":"object","properties":{}}`},
		{"no type", `{"properties":{"a":{"type":"string","description":"x\u200b"}}}`, `{"properties":{"a":{"description":"x","type":"string"}},"type":"object"}`},
		{"kept as sent", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"d":{}}}`, `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"d":{}},"type":"object"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toolParameters(json.RawMessage(tt.in))
			if err != nil || string(got) != tt.want {
				t.Errorf("toolParameters = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
	if _, err := toolParameters(json.RawMessage(`[1]`)); err == nil {
		t.Error("an array schema was accepted")
	}
}

func TestRing(t *testing.T) {
	r := newRing(8)
	r.Write([]byte("abc"))
	r.Write([]byte("defgh"))
	r.Write([]byte("ij"))
	if got := string(r.Bytes()); got != "cdefghij" {
		t.Errorf("ring = %q", got)
	}
	r.Write([]byte("0123456789"))
	if got := string(r.Bytes()); got != "23456789" || r.Total() != 20 {
		t.Errorf("ring = %q total %d", got, r.Total())
	}
}

func TestFramer(t *testing.T) {
	big := strings.Repeat("a", 300)
	tests := []struct {
		name      string
		in        string
		want      string
		oversized int
		noise     int
	}{
		{"messages pass", "{\"id\":1}\n{\"id\":2}\n", "{\"id\":1}\n{\"id\":2}\n", 0, 0},
		{"not JSON is dropped", "hello\n{\"id\":1}\n\n  \n", "{\"id\":1}\n", 0, 1},
		{"oversized with the id first", `{"jsonrpc":"2.0","id":7,"result":"` + big + "\"}\n{\"id\":8}\n",
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32099,"message":"the server sent a message of 337 bytes, over the 100 bytes limit; Hermes dropped it"}}` + "\n{\"id\":8}\n", 1, 0},
		{"oversized with the id last", `{"result":"` + big + `","jsonrpc":"2.0","id":"r-1"}` + "\n",
			`{"jsonrpc":"2.0","id":"r-1","error":{"code":-32099,"message":"the server sent a message of 341 bytes, over the 100 bytes limit; Hermes dropped it"}}` + "\n", 1, 0},
		{"oversized without an id is dropped", `{"method":"x","params":"` + big + "\"}\n", "", 1, 0},
		{"a nested id is not the id", `{"result":{"id":3,"x":"` + big + "\"}}\n", "", 1, 0},
		{"partial last line is dropped", "{\"id\":1}\n{\"id\":", "{\"id\":1}\n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFramer(strings.NewReader(tt.in), 100)
			got, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("out =\n%s\nwant\n%s", got, tt.want)
			}
			over, _, noise, _ := f.stats()
			if over != tt.oversized || noise != tt.noise {
				t.Errorf("oversized %d noise %d; want %d %d", over, noise, tt.oversized, tt.noise)
			}
		})
	}
}

// TestFramerLongLineAcrossReads checks a message longer than the read buffer
// but under the cap passes whole.
func TestFramerLongLineAcrossReads(t *testing.T) {
	msg := `{"id":1,"r":"` + strings.Repeat("b", 3*minFrameBuffer) + "\"}\n"
	f := newFramer(strings.NewReader(msg+msg), 4*minFrameBuffer)
	got, _ := io.ReadAll(f)
	if !bytes.Equal(got, []byte(msg+msg)) {
		t.Errorf("got %d bytes; want %d", len(got), 2*len(msg))
	}
}

func TestResultText(t *testing.T) {
	raw := json.RawMessage(`{"content":[{"type":"text","text":"hi\u200b"},{"type":"image","data":"aGVsbG8=","mimeType":"image/png"},
		{"type":"resource","resource":{"uri":"x://a","text":"embedded"}},{"type":"resource_link","uri":"x://b","name":"b"}],
		"structuredContent":{"ignored":true}}`)
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		t.Fatal(err)
	}
	want := "hi\n[image: image/png, 6 bytes, not shown to the model]\nembedded\n[resource link: x://b (b)]"
	if got := resultText(res, 1000); got != want {
		t.Errorf("resultText =\n%s\nwant\n%s", got, want)
	}
	raw = json.RawMessage(`{"content":[],"structuredContent":{"t":21.5}}`)
	res, _ = mcp.ParseCallToolResult(&raw)
	if got := resultText(res, 1000); got != `{"t":21.5}` {
		t.Errorf("structured only: %s", got)
	}
}
