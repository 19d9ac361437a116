package toolfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/tools"
)

// fakeEnv is an environment for tests.
func fakeEnv(vars map[string]string) Options {
	return Options{
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		LookPath: func(p string) (string, error) {
			switch p {
			case "/bin/echo", "echo":
				return "/bin/echo", nil
			case "sh", "bash", "dash", "zsh", "fish", "ksh", "cmd", "cmd.exe", "powershell", "pwsh", "env", "nice", "busybox", "python3":
				return "/usr/bin/" + p, nil
			case "/bin/sh", "/usr/bin/env", `C:\Windows\System32\cmd.exe`:
				return p, nil
			}
			return "", errors.New("executable file not found in $PATH")
		},
	}
}

const validFile = `version: 1
tools:
  - name: weather
    description: Current weather from the home station.
    parameters:
      type: object
      properties:
        city: {type: string, description: the city}
      required: [city]
    result_schema: {type: object}
    timeout: 5s
    http:
      method: GET
      url: http://192.168.1.10:8080/weather/{{city}}?units=metric
      headers:
        Authorization: Bearer ${WEATHER_TOKEN}
  - name: say
    description: Print text.
    parameters:
      type: object
      properties:
        text: {type: string}
    command:
      argv: [echo, "{{text}}"]
  - name: post_note
    description: Post a note to the NAS.
    parameters: {type: object, properties: {note: {type: string}}}
    annotations: {destructive: false}
    http: {method: post, url: "http://nas.local/notes"}
`

func TestParseValidFile(t *testing.T) {
	ts, errs := Parse("tools.yaml", []byte(validFile), fakeEnv(map[string]string{"WEATHER_TOKEN": "s3cret", "HOME": "/home/u"}))
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(ts) != 3 {
		t.Fatalf("tools = %d", len(ts))
	}
	tests := []struct {
		tool  *Tool
		name  string
		line  int
		annot tools.Annotations
	}{
		{ts[0], "weather", 3, tools.Annotations{ReadOnly: true, OpenWorld: true}}, // on the LAN: asks
		{ts[1], "say", 17, tools.Annotations{Command: true}},
		{ts[2], "post_note", 25, tools.Annotations{OpenWorld: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tool.Name() != tt.name || tt.tool.Line() != tt.line || tt.tool.Annotations() != tt.annot {
				t.Fatalf("tool = %s line %d %+v", tt.tool.Name(), tt.tool.Line(), tt.tool.Annotations())
			}
		})
	}
	t.Run("registers with its timeout", func(t *testing.T) {
		reg := tools.NewRegistry()
		if errs := Register(reg, ts); len(errs) != 0 {
			t.Fatal(errs)
		}
		in, _ := reg.Info("weather")
		if in.Timeout.String() != "5s" || !in.NeedsApproval {
			t.Fatalf("info = %+v", in)
		}
		if in, _ := reg.Info("say"); !in.NeedsApproval {
			t.Fatal("a command always asks")
		}
		if errs := Register(reg, ts[:1]); len(errs) != 1 || !strings.Contains(errs[0].Error(), "tools.yaml:3") {
			t.Fatalf("duplicate registration: %v", errs)
		}
	})
}

func TestParseMistakes(t *testing.T) {
	head := "tools:\n  - name: t\n    description: d\n    parameters: {type: object, properties: {q: {type: string}}}\n"
	env := fakeEnv(map[string]string{"SET": "x"})
	tests := []struct {
		name  string
		file  string
		line  int
		field string
		msg   string
	}{
		{"YAML syntax", "tools:\n  - name: [unclosed\n", 2, "", "not valid YAML"},
		{"tab in indentation", "tools:\n  - name: t\n\t description: d\n", 3, "", "tab character"},
		{"unclosed quote", "tools:\n  - name: t\n    description: \"open\n    parameters: {}\n", 3, "", "not valid YAML"},
		{"top level is a list", "- name: t\n", 1, "", "must be a mapping"},
		{"tools is not a list", "tools: {name: t}\n", 1, "tools", "must be a list"},
		{"unknown top-level field", "tool:\n  - name: t\n", 1, "tool", `did you mean "tools"`},
		{"bad version", "version: 2\ntools: []\n", 1, "version", "only version 1"},
		{"tool is not a mapping", "tools:\n  - just text\n", 2, "", "each tool is a mapping"},
		{"missing name", "tools:\n  - description: d\n    parameters: {type: object}\n    command: {argv: [echo]}\n", 2, "name", "is missing"},
		{"bad name", "tools:\n  - name: read file\n", 2, "name", "not a valid tool name"},
		{"empty name", "tools:\n  - name:\n    description: d\n", 2, "name", "is missing"},
		{"name is a list", "tools:\n  - name: [a]\n", 2, "name", "must be text"},
		{"empty description", "tools:\n  - name: t\n    description: ''\n    parameters: {type: object}\n    command: {argv: [echo]}\n", 3, "description", "is missing"},
		{"type key in another case", "tools:\n  - name: t\n    description: d\n    parameters: {tYpe: object}\n    command: {argv: [echo]}\n", 4, "parameters.type", `must be "object"`},
		{"duplicate name", head + "    command: {argv: [echo]}\n  - name: t\n    description: d\n    parameters: {type: object}\n    command: {argv: [echo]}\n",
			6, "name", "already declared at line 2"},
		{"misspelled field", head + "    comand: {argv: [echo]}\n", 5, "comand", `did you mean "command"`},
		{"field twice", head + "    description: again\n    command: {argv: [echo]}\n", 5, "description", "appears twice"},
		{"missing description", "tools:\n  - name: t\n    parameters: {type: object}\n    command: {argv: [echo]}\n", 2, "description", "is missing"},
		{"missing parameters", "tools:\n  - name: t\n    description: d\n    command: {argv: [echo]}\n", 2, "parameters", "is missing"},
		{"parameters not a mapping", "tools:\n  - name: t\n    description: d\n    parameters: [a]\n    command: {argv: [echo]}\n", 4, "parameters", "must be a JSON Schema"},
		{"parameters invalid schema", "tools:\n  - name: t\n    description: d\n    parameters: {type: objekt}\n    command: {argv: [echo]}\n", 4, "parameters", "not a valid JSON Schema"},
		{"parameters not an object", "tools:\n  - name: t\n    description: d\n    parameters: {type: string}\n    command: {argv: [echo]}\n", 4, "parameters.type", `must be "object"`},
		{"bad result schema", head + "    result_schema: {type: 7}\n    command: {argv: [echo]}\n", 5, "result_schema", "not a valid JSON Schema"},
		{"bad timeout", head + "    timeout: soon\n    command: {argv: [echo]}\n", 5, "timeout", "not a duration"},
		{"timeout too long", head + "    timeout: 2h\n    command: {argv: [echo]}\n", 5, "timeout", "at most 10m0s"},
		{"no executor", head, 2, "http", "an executor is missing"},
		{"both executors", head + "    http: {url: 'http://localhost/'}\n    command: {argv: [echo]}\n", 6, "command", "not both"},
		{"bad method", head + "    http: {method: FETCH, url: 'http://localhost/'}\n", 5, "http.method", "not one of"},
		{"missing url", head + "    http: {method: GET}\n", 5, "http.url", "is missing"},
		{"url without a value", head + "    http: {url}\n", 5, "http.url", "is missing"},
		{"empty argv item", head + "    command: {argv: [echo, '']}\n", 5, "command.argv[1]", "is missing"},
		{"not http", head + "    http: {url: 'ftp://localhost/x'}\n", 5, "http.url", "http:// or https://"},
		{"internet host", head + "    http: {url: 'https://api.example.com/x'}\n", 5, "http.url", "allow_internet: true"},
		{"public IP", head + "    http: {url: 'http://8.8.8.8/x'}\n", 5, "http.url", "not on this machine or the local network"},
		{"placeholder in host", head + "    http: {url: 'http://{{q}}.local/x'}\n", 5, "http.url", "not be in the host"},
		{"unknown placeholder", head + "    http: {url: 'http://localhost/{{city}}'}\n", 5, "http.url", "{{city}} is not a parameter (declared: q)"},
		{"unclosed placeholder", head + "    http: {url: 'http://localhost/{{q'}\n", 5, "http.url", "without a closing"},
		{"password in URL", head + "    http: {url: 'http://me:pw@localhost/'}\n", 5, "http.url", "user name or password"},
		{"unset env var", head + "    http:\n      url: http://localhost/\n      headers:\n        X-Token: ${UNSET}\n", 8, "http.headers.X-Token", "UNSET is not set"},
		{"placeholder in header", head + "    http:\n      url: http://localhost/\n      headers:\n        X-Q: '{{q}}'\n", 8, "http.headers.X-Q", "not allowed in headers"},
		{"bad allow_internet", head + "    http: {url: 'http://localhost/', allow_internet: maybe}\n", 5, "http.allow_internet", "true or false"},
		{"empty argv", head + "    command: {argv: []}\n", 5, "command.argv", "non-empty list"},
		{"program is a placeholder", head + "    command: {argv: ['{{q}}']}\n", 5, "command.argv[0]", "may not be a placeholder"},
		{"program not found", head + "    command: {argv: [no-such-program]}\n", 5, "command.argv[0]", "not found"},
		{"unknown placeholder in argv", head + "    command:\n      argv:\n        - echo\n        - '{{x}}'\n", 8, "command.argv[1]", "{{x}} is not a parameter"},
		{"bad env name", head + "    command: {argv: [echo], env: {'A-B': x}}\n", 5, "command.env.A-B", "not a valid environment variable name"},
		{"relative dir", head + "    command: {argv: [echo], dir: tmp}\n", 5, "command.dir", "absolute path"},
		{"bad annotation", head + "    annotations: {readonly: true}\n    command: {argv: [echo]}\n", 5, "annotations.readonly", `did you mean "read_only"`},

		// a shell given the model's text as a script
		{"sh -c with a placeholder", head + "    command: {argv: [sh, -c, 'echo {{q}}']}\n", 5, "command.argv[0]", `"sh -c" runs its text as a shell script, and this command puts the model's {{q}} into it`},
		{"says how to allow it", head + "    command: {argv: [/bin/sh, -c, 'echo {{q}}']}\n", 5, "command.argv[0]", "add allow_shell: true under command:"},
		{"the placeholder as a positional parameter", head + "    command: {argv: [bash, -c, 'echo \"$1\"', _, '{{q}}']}\n", 5, "command.argv[0]", "shell injection"},
		{"through /usr/bin/env", head + "    command:\n      argv:\n        - /usr/bin/env\n        - bash\n        - -c\n        - 'grep {{q}} notes'\n", 8, "command.argv[1]", `"bash -c"`},
		{"env with options", head + "    command: {argv: [env, -i, LANG=C, dash, -c, '{{q}}']}\n", 5, "command.argv[3]", `"dash -c"`},
		{"env -S splits one item", head + "    command: {argv: [env, -S, 'sh -c \"echo {{q}}\"']}\n", 5, "command.argv[2]", `"sh -c"`},
		{"behind a wrapper", head + "    command: {argv: [nice, -n, '5', zsh, -c, 'echo {{q}}']}\n", 5, "command.argv[3]", `"zsh -c"`},
		{"busybox", head + "    command: {argv: [busybox, sh, -c, '{{q}}']}\n", 5, "command.argv[0]", "shell injection"},
		{"a cluster with c", head + "    command: {argv: [bash, -lc, 'ls {{q}}']}\n", 5, "command.argv[0]", `"bash -lc"`},
		{"fish", head + "    command: {argv: [fish, --command, 'ls {{q}}']}\n", 5, "command.argv[0]", `"fish --command"`},
		{"ksh", head + "    command: {argv: [ksh, -c, 'ls {{q}}']}\n", 5, "command.argv[0]", `"ksh -c"`},
		{"cmd /c", head + "    command: {argv: [cmd, /c, 'dir {{q}}']}\n", 5, "command.argv[0]", `"cmd /c"`},
		{"cmd.exe /C by path", head + "    command: {argv: ['C:\\Windows\\System32\\cmd.exe', /C, 'dir {{q}}']}\n", 5, "command.argv[0]", `"cmd /C"`},
		{"powershell -Command", head + "    command: {argv: [powershell, -NoProfile, -Command, 'Get-Item {{q}}']}\n", 5, "command.argv[0]", `"powershell -Command"`},
		{"powershell without a flag", head + "    command: {argv: [powershell, 'Get-Item {{q}}']}\n", 5, "command.argv[0]", "shell injection"},
		{"pwsh -c", head + "    command: {argv: [pwsh, -c, 'Get-Item {{q}}']}\n", 5, "command.argv[0]", `"pwsh -c"`},
		{"pwsh -EncodedCommand", head + "    command: {argv: [pwsh, -EncodedCommand, '{{q}}']}\n", 5, "command.argv[0]", "shell injection"},
		{"allow_shell is not a boolean", head + "    command: {argv: [sh, -c, 'echo {{q}}'], allow_shell: yes please}\n", 5, "command.allow_shell", "true or false"},
		{"allow_shell on the tool", head + "    allow_shell: true\n    command: {argv: [sh, -c, 'echo {{q}}']}\n", 5, "allow_shell", "goes under command:"},
		{"auto_approve on a command", head + "    auto_approve: true\n    command: {argv: [echo, '{{q}}']}\n", 5, "auto_approve", "a command always asks"},
		{"auto_approve is not a boolean", head + "    auto_approve: often\n    http: {url: 'http://nas.local/'}\n", 5, "auto_approve", "true or false"},
		{"link-local host", head + "    http: {url: 'http://169.254.169.254/latest/meta-data/', allow_internet: true}\n", 5, "http.url", "never reached"},
		{"IPv6 metadata host", head + "    http: {url: 'http://[fd00:ec2::254]/', allow_internet: true}\n", 5, "http.url", "never reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, errs := Parse("tools.yaml", []byte(tt.file), env)
			if tt.name == "duplicate name" && len(ts) == 1 { // the first one stays
				ts = nil
			}
			if len(ts) != 0 {
				t.Errorf("a broken tool was loaded: %v", ts[0].Name())
			}
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			var e *Error
			if !errors.As(errs[0], &e) {
				t.Fatalf("error %T %v", errs[0], errs[0])
			}
			if e.Line != tt.line || e.Field != tt.field || !strings.Contains(e.Msg, tt.msg) {
				t.Fatalf("error = line %d field %q: %s\nwant line %d field %q: ...%s...", e.Line, e.Field, e.Msg, tt.line, tt.field, tt.msg)
			}
			if want := fmt.Sprintf("tools.yaml:%d: ", tt.line); tt.line > 0 && !strings.HasPrefix(e.Error(), want) {
				t.Fatalf("message %q should start with %q", e.Error(), want)
			}
		})
	}
}

func TestABadEntryDisablesOnlyItself(t *testing.T) {
	file := `tools:
  - name: good_one
    description: fine
    parameters: {type: object}
    command: {argv: [echo, hi]}
  - name: broken
    description: fine
    parameters: {type: object}
    http: {url: 'https://example.com/'}
  - name: good_two
    description: fine
    parameters: {type: object}
    http: {url: 'http://127.0.0.1:9/'}
`
	ts, errs := Parse("tools.yaml", []byte(file), fakeEnv(nil))
	if len(ts) != 2 || ts[0].Name() != "good_one" || ts[1].Name() != "good_two" {
		t.Fatalf("tools = %v", ts)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `tools.yaml:9: tool "broken": http.url:`) {
		t.Fatalf("errors = %v", errs)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Run("a missing file declares nothing", func(t *testing.T) {
		ts, errs := Load(filepath.Join(dir, FileName), Options{})
		if ts != nil || errs != nil {
			t.Fatalf("%v %v", ts, errs)
		}
	})
	t.Run("an empty file declares nothing", func(t *testing.T) {
		path := filepath.Join(dir, "empty.yaml")
		os.WriteFile(path, nil, 0o600)
		if ts, errs := Load(path, Options{}); ts != nil || errs != nil {
			t.Fatalf("%v %v", ts, errs)
		}
	})
	t.Run("a file is read", func(t *testing.T) {
		path := filepath.Join(dir, FileName)
		os.WriteFile(path, []byte("tools:\n  - name: e\n    description: d\n    parameters: {type: object}\n    command: {argv: [/bin/echo]}\n"), 0o600)
		ts, errs := Load(path, Options{})
		if len(ts) != 1 || errs != nil {
			t.Fatalf("%v %v", ts, errs)
		}
	})
}

// runDeclared registers declared tools and calls one through the executor.
func runDeclared(t *testing.T, ts []*Tool, name, args string) tools.Outcome {
	t.Helper()
	reg := tools.NewRegistry()
	if errs := Register(reg, ts); len(errs) != 0 {
		t.Fatal(errs)
	}
	exec := tools.NewExecutor(reg, tools.Config{})
	exec.Approver = tools.AllowAll{}
	o, _ := exec.NewTurn(tools.TurnInfo{}).Run(context.Background(), llm.ToolCall{Name: name, Arguments: json.RawMessage(args)})
	return o
}

func TestExampleFile(t *testing.T) {
	ts, errs := Load(filepath.Join("testdata", "example.tools.yaml"), Options{
		LookupEnv: func(k string) (string, bool) { return "token", k == "SENSOR_HUB_TOKEN" },
		LookPath:  func(p string) (string, error) { return "/usr/bin/" + p, nil },
	})
	if len(errs) != 0 || len(ts) != 3 {
		t.Fatalf("tools %d, errors %v", len(ts), errs)
	}
	want := map[string]tools.Annotations{
		"home_temperature": {ReadOnly: true, OpenWorld: true}, // on the LAN: asks first
		"public_holidays":  {ReadOnly: true, OpenWorld: true},
		"disk_usage":       {Command: true},
	}
	for _, tool := range ts {
		if tool.Annotations() != want[tool.Name()] {
			t.Errorf("%s annotations = %+v; want %+v", tool.Name(), tool.Annotations(), want[tool.Name()])
		}
	}
	t.Run("without the secret only that tool is disabled", func(t *testing.T) {
		ts, errs := Load(filepath.Join("testdata", "example.tools.yaml"), Options{LookPath: func(p string) (string, error) { return "/usr/bin/" + p, nil },
			LookupEnv: func(string) (string, bool) { return "", false }})
		if len(ts) != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "example.tools.yaml:30: tool \"home_temperature\": http.headers.Authorization: environment variable SENSOR_HUB_TOKEN is not set") {
			t.Fatalf("tools %d, errors %v", len(ts), errs)
		}
	})
}
