package toolfile

import (
	"strings"
	"testing"
)

func TestInlineProgram(t *testing.T) {
	tests := []struct {
		argv      []string
		at        int
		name, how string
	}{
		{[]string{"python3", "-c", "print('{{q}}')"}, 2, "python3", "-c"},
		{[]string{"/usr/bin/python3.12", "-I", "-c", "print({{q}})"}, 3, "python", "-c"},
		{[]string{"python3", "-Ic", "print({{q}})"}, 2, "python3", "-c"},
		{[]string{"python", "-cprint({{q}})"}, 1, "python", "-c"},
		{[]string{"node", "-e", "console.log('{{q}}')"}, 2, "node", "-e"},
		{[]string{"node", "--eval", "x={{q}}"}, 2, "node", "--eval"},
		{[]string{"node", "--print={{q}}"}, 1, "node", "--print"},
		{[]string{"perl", "-ne", "print if /{{q}}/", "f.txt"}, 2, "perl", "-e"},
		{[]string{"perl", "-Mfeature=say", "-E", "say {{q}}"}, 3, "perl", "-E"},
		{[]string{"ruby", "-e", "puts {{q}}"}, 2, "ruby", "-e"},
		{[]string{"php", "-r", "echo {{q}};"}, 2, "php", "-r"},
		{[]string{"awk", "{print \"{{q}}\"}", "f"}, 1, "awk", "program"},
		{[]string{"gawk", "-F:", "-v", "x=1", "$1 == \"{{q}}\"", "f"}, 4, "gawk", "program"},
		{[]string{"sed", "-n", "s/a/{{q}}/p", "f"}, 2, "sed", "program"},
		{[]string{"sed", "-e", "s/a/{{q}}/", "f"}, 2, "sed", "-e"},
		{[]string{"osascript", "-e", "display dialog \"{{q}}\""}, 2, "osascript", "-e"},
		{[]string{"lua5.4", "-e", "print({{q}})"}, 2, "lua", "-e"},
		{[]string{"/usr/bin/env", "python3", "-c", "print({{q}})"}, 3, "python3", "-c"},
		{[]string{"env", "-S", "python3 -c 'print({{q}})'"}, 2, "python3", "-c"},
		{[]string{"timeout", "5", "node", "-p", "{{q}}"}, 4, "node", "-p"},
		// The safe forms: the value is an argument of its own, or the program is a file.
		{[]string{"python3", "-c", "import sys; print(sys.argv[1])", "{{q}}"}, -1, "", ""},
		{[]string{"python3", "script.py", "{{q}}"}, -1, "", ""},
		{[]string{"python3", "-Wignore::DeprecationWarning", "script.py", "{{q}}"}, -1, "", ""},
		{[]string{"node", "-e", "console.log(process.argv[1])", "{{q}}"}, -1, "", ""},
		{[]string{"awk", "-f", "prog.awk", "{{q}}"}, -1, "", ""},
		{[]string{"awk", "-v", "pat={{q}}", "$0 ~ pat", "f"}, -1, "", ""},
		{[]string{"sed", "-f", "script.sed", "{{q}}"}, -1, "", ""},
		{[]string{"perl", "-e", "print $ARGV[0]", "{{q}}"}, -1, "", ""},
		{[]string{"/bin/echo", "python3", "-c", "{{q}}x"}, 3, "python3", "-c"}, // echo is no wrapper, but any position counts, as for shells
		{[]string{"{{prog}}", "-c", "{{q}}"}, -1, "", ""},
		{[]string{"grep", "-e", "{{q}}"}, -1, "", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			at, name, how := inlineProgram(tt.argv)
			if at != tt.at || name != tt.name || how != tt.how {
				t.Fatalf("inlineProgram = %d %q %q; want %d %q %q", at, name, how, tt.at, tt.name, tt.how)
			}
		})
	}
}

// A tools.yaml entry that puts the model's value into an interpreter's program
// text is refused at load with its line and the safe form; the safe form
// loads, and allow_shell loads it marked as the shell is.
func TestInterpreterRefusedAtLoad(t *testing.T) {
	file := `tools:
  - name: say
    description: Say it.
    parameters: {type: object, properties: {q: {type: string}}}
    command: {argv: [python3, -c, "print('{{q}}')"]}
  - name: say_safe
    description: Say it safely.
    parameters: {type: object, properties: {q: {type: string}}}
    command: {argv: [python3, -c, "import sys; print(sys.argv[1])", "{{q}}"]}
  - name: say_risky
    description: Say it, knowingly.
    parameters: {type: object, properties: {q: {type: string}}}
    command: {argv: [python3, -c, "print('{{q}}')"], allow_shell: true}
`
	ts, errs := Parse("tools.yaml", []byte(file), fakeEnv(nil))
	if len(errs) != 1 {
		t.Fatalf("errors %v, want one", errs)
	}
	msg := errs[0].Error()
	for _, want := range []string{"tools.yaml:5", "say", "command.argv[2]", "python3 runs this text as a program (-c)", "code injection", "sys.argv[1]", "allow_shell: true"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	byName := map[string]*Tool{}
	for _, tool := range ts {
		byName[tool.Name()] = tool
	}
	if _, ok := byName["say"]; ok || len(ts) != 2 {
		t.Fatalf("loaded %d tools, the refused one among them: %v", len(ts), byName)
	}
	if byName["say_safe"].Shell() || !byName["say_risky"].Shell() || !strings.HasPrefix(byName["say_risky"].Description(), ShellNote) {
		t.Fatalf("safe shell=%v, risky shell=%v", byName["say_safe"].Shell(), byName["say_risky"].Shell())
	}
}
