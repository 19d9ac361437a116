package toolfile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/tools"
)

func TestShellScript(t *testing.T) {
	tests := []struct {
		argv        []string
		at          int
		shell, flag string
	}{
		{[]string{"sh", "-c", "x"}, 0, "sh", "-c"},
		{[]string{"/bin/bash", "-ec", "x"}, 0, "bash", "-ec"},
		{[]string{"/usr/bin/env", "sh", "-c", "x"}, 1, "sh", "-c"},
		{[]string{"env", "-S", "bash -c 'x'"}, 2, "bash", "-c"},
		{[]string{"CMD.EXE", "/C", "x"}, 0, "cmd", "/C"},
		{[]string{"pwsh.exe", "-NoProfile", "-co", "x"}, 0, "pwsh", "-co"},
		{[]string{"powershell", "x"}, 0, "powershell", "x"},
		{[]string{"bash", "-C", "script.sh"}, -1, "", ""}, // -C is noclobber, not a script
		{[]string{"bash", "script.sh", "x"}, -1, "", ""},  // a script file, not a script text
		{[]string{"pwsh", "-File", "s.ps1"}, -1, "", ""},
		{[]string{"python3", "-c", "x"}, -1, "", ""},
		{[]string{"/bin/echo", "{{sh}}", "-c"}, -1, "", ""}, // a placeholder is never a shell name
		{[]string{"ssh", "-c", "aes"}, -1, "", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			at, shell, flag := shellScript(tt.argv)
			if at != tt.at || shell != tt.shell || flag != tt.flag {
				t.Fatalf("shellScript = %d %q %q; want %d %q %q", at, shell, flag, tt.at, tt.shell, tt.flag)
			}
		})
	}
}

func TestShellAllowed(t *testing.T) {
	file := `tools:
  - name: grep_notes
    description: Search my notes.
    parameters: {type: object, properties: {q: {type: string}}}
    command:
      argv: [sh, -c, 'grep -r -- "$1" ~/notes', _, '{{q}}']
      allow_shell: true
  - name: fixed_script
    description: A fixed pipeline, nothing from the model.
    parameters: {type: object}
    command: {argv: [sh, -c, 'ls | wc -l']}
  - name: script_file
    description: A script file with an argument.
    parameters: {type: object, properties: {q: {type: string}}}
    command: {argv: [bash, /home/u/bin/find.sh, '{{q}}']}
`
	ts, errs := Parse("tools.yaml", []byte(file), fakeEnv(map[string]string{"HOME": "/home/u"}))
	if len(errs) != 0 || len(ts) != 3 {
		t.Fatalf("tools %d, errors %v", len(ts), errs)
	}
	byName := map[string]*Tool{}
	for _, tool := range ts {
		byName[tool.Name()] = tool
	}
	t.Run("allowed: marked, and the approval says so", func(t *testing.T) {
		tool := byName["grep_notes"]
		if !tool.Shell() || !tool.Annotations().Shell || !strings.HasPrefix(tool.Description(), ShellNote+" Search my notes.") {
			t.Fatalf("shell %v, description %q", tool.Shell(), tool.Description())
		}
		reg := tools.NewRegistry()
		if errs := Register(reg, ts); len(errs) != 0 {
			t.Fatal(errs)
		}
		exec := tools.NewExecutor(reg, tools.Config{})
		var shown tools.ApprovalRequest
		exec.Approver = tools.ApproverFunc(func(_ context.Context, req tools.ApprovalRequest) (tools.Decision, error) {
			shown = req
			return tools.Decision{Allow: false}, nil
		})
		o, _ := exec.NewTurn(tools.TurnInfo{}).Run(context.Background(), llm.ToolCall{Name: "grep_notes", Arguments: json.RawMessage(`{"q":"x"}`)})
		if o.Status != tools.StatusDenied || !strings.HasPrefix(shown.Description, ShellNote) || !shown.Annotations.Command {
			t.Fatalf("outcome %s; approval %+v", o.Status, shown)
		}
	})
	for _, name := range []string{"fixed_script", "script_file"} {
		t.Run(name+": nothing of the model's in a shell script, not marked", func(t *testing.T) {
			if tool := byName[name]; tool.Shell() || strings.HasPrefix(tool.Description(), ShellNote) {
				t.Fatalf("shell %v, description %q", tool.Shell(), tool.Description())
			}
		})
	}
}

func TestHTTPApproval(t *testing.T) {
	tests := []struct {
		name, http, extra string
		asks              bool
	}{
		{"GET on loopback runs", "{url: 'http://127.0.0.1:8080/x'}", "", false},
		{"GET on localhost runs", "{url: 'http://localhost:8080/x'}", "", false},
		{"GET on IPv6 loopback runs", "{url: 'http://[::1]:8080/x'}", "", false},
		{"GET on a LAN address asks", "{url: 'http://192.168.1.10/x'}", "", true},
		{"GET on a LAN name asks", "{url: 'http://nas.local/x'}", "", true},
		{"GET on a single-label name asks", "{url: 'http://printer/x'}", "", true},
		{"GET on the internet asks", "{url: 'https://api.example.com/x', allow_internet: true}", "", true},
		{"POST on loopback asks", "{method: POST, url: 'http://127.0.0.1/x'}", "", true},
		{"a LAN tool the user auto-approved runs", "{url: 'http://nas.local/x'}", "    auto_approve: true\n", false},
		{"auto_approve: false still asks", "{url: 'http://nas.local/x'}", "    auto_approve: false\n", true},
		{"read_only cannot declare the network away", "{url: 'http://nas.local/x'}", "    annotations: {read_only: true, open_world: false}\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "tools:\n  - name: t\n    description: d\n    parameters: {type: object}\n" + tt.extra + "    http: " + tt.http + "\n"
			ts, errs := Parse("tools.yaml", []byte(file), fakeEnv(nil))
			if len(errs) != 0 || len(ts) != 1 {
				t.Fatalf("tools %d, errors %v", len(ts), errs)
			}
			reg := tools.NewRegistry()
			if errs := Register(reg, ts); len(errs) != 0 {
				t.Fatal(errs)
			}
			if in, _ := reg.Info("t"); in.NeedsApproval != tt.asks {
				t.Fatalf("needs approval = %v; want %v (annotations %+v)", in.NeedsApproval, tt.asks, in.Annotations)
			}
		})
	}
}

func TestRedirectDropsSecretHeaders(t *testing.T) {
	type seen struct{ token, auth, plain string }
	got := make(chan seen, 4)
	record := func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Header.Get("X-Token"), r.Header.Get("Authorization"), r.Header.Get("X-Plain")}
		w.WriteHeader(http.StatusNoContent)
	}
	var origin *httptest.Server
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/back" {
			http.Redirect(w, r, origin.URL+"/landing", http.StatusFound)
			return
		}
		record(w, r)
	}))
	defer other.Close()
	origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/landing", http.StatusFound) // another port: another origin
		case "/same":
			http.Redirect(w, r, "/landing", http.StatusFound)
		case "/bounce":
			http.Redirect(w, r, other.URL+"/back", http.StatusFound)
		default:
			record(w, r)
		}
	}))
	defer origin.Close()
	var file strings.Builder
	file.WriteString("tools:\n")
	for _, path := range []string{"away", "same", "bounce"} {
		fmt.Fprintf(&file, `  - name: %[1]s
    description: Redirects.
    parameters: {type: object}
    http:
      url: %[2]s/%[1]s
      headers: {X-Token: "${TOKEN}", Authorization: "Bearer ${TOKEN}", X-Plain: visible}
`, path, origin.URL)
	}
	ts, errs := Parse("tools.yaml", []byte(file.String()), fakeEnv(map[string]string{"TOKEN": "s3cret"}))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	tests := []struct {
		tool string
		want seen
	}{
		{"away", seen{"", "", "visible"}},
		{"same", seen{"s3cret", "Bearer s3cret", "visible"}},
		{"bounce", seen{"", "", "visible"}}, // back at the origin after another host: still dropped
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			if o := runDeclared(t, ts, tt.tool, `{}`); !o.OK() {
				t.Fatalf("outcome %s %s", o.Status, o.Content)
			}
			if s := <-got; s != tt.want {
				t.Fatalf("the last hop saw %+v; want %+v", s, tt.want)
			}
		})
	}
}
