package workflow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// resetYAML is the password-reset example.
const resetYAML = `version: 1
workflows:
  - name: reset_password
    description: Reset a password after checking the phone number.
    inputs: {type: object, properties: {phone: {type: string}}, required: [phone]}
    deadline: 2m
    phases:
      - name: pre_check
        steps:
          - {id: check, tool: check_phone, args: {phone: "{{inputs.phone}}"}}
      - name: action
        mode: first
        steps:
          - {id: sms, tool: send_sms, args: {phone: "{{inputs.phone}}"}, timeout: 5s}
          - {id: captcha, tool: make_captcha, args: {}}
      - name: post_update
        steps:
          - {id: verify, tool: verify_code, args: {code: "{{steps.sms.result.code}}"}, retries: 1, backoff: 10ms}
`

func knownTools(names ...string) Options {
	return Options{KnownTool: func(n string) bool {
		for _, x := range names {
			if x == n {
				return true
			}
		}
		return false
	}}
}

var resetTools = knownTools("check_phone", "send_sms", "make_captcha", "verify_code", "echo")

func TestWorkflowParseExample(t *testing.T) {
	list, errs := Parse("workflows.yaml", []byte(resetYAML), resetTools)
	if len(errs) > 0 || len(list) != 1 {
		t.Fatalf("errs = %v, list = %d", errs, len(list))
	}
	w := list[0]
	if w.Name != "reset_password" || len(w.Phases) != 3 || w.Phases[1].Mode != ModeFirst || w.Phases[0].Mode != ModeSequence ||
		time.Duration(w.Deadline) != 2*time.Minute || w.Line != 3 {
		t.Fatalf("workflow = %+v", w)
	}
	sms := w.Phases[1].Steps[0]
	if sms.ID != "sms" || time.Duration(sms.Timeout) != 5*time.Second || string(sms.Args) != `{"phone":"{{inputs.phone}}"}` {
		t.Fatalf("sms = %+v", sms)
	}
	if v := w.Phases[2].Steps[0]; v.Retries != 1 || time.Duration(v.Backoff) != 10*time.Millisecond {
		t.Fatalf("verify = %+v", v)
	}
	// the definition survives a round trip through JSON (a run stores it)
	b, _ := json.Marshal(w)
	var back Workflow
	if err := json.Unmarshal(b, &back); err != nil || back.Phases[1].Steps[0].Timeout != sms.Timeout {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

func TestWorkflowValidationErrors(t *testing.T) {
	wrap := func(body string) string {
		return "version: 1\nworkflows:\n  - name: w\n    description: d\n" + body
	}
	cases := []struct {
		name, yaml string
		want       []string // substrings of the one error
	}{
		{"unknown tool", wrap("    phases:\n      - steps:\n          - {id: a, tool: nope}\n"),
			[]string{"workflows.yaml:7:", "workflow w: phase #1: step a: tool:", `there is no tool "nope"`}},
		{"unknown step in template", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{steps.zz.result}}\"}}\n"),
			[]string{":7:", "step a: args:", `there is no step "zz"`}},
		{"later step", wrap("    phases:\n      - name: one\n        steps:\n          - {id: a, tool: echo, args: {x: \"{{steps.b.result.v}}\"}}\n      - name: two\n        steps:\n          - {id: b, tool: echo}\n"),
			[]string{":8:", "phase one: step a: args:", "step b runs later (in phase two)"}},
		{"later in a sequence", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{steps.b.result}}\"}}\n          - {id: b, tool: echo}\n"),
			[]string{":7:", "step a: args:", "step b runs later (in phase #1)"}},
		{"unknown agent", wrap("    phases:\n      - steps:\n          - {id: a, agent: nobody, task: go}\n"),
			[]string{":7:", "step a: agent:", `no sub-agent "nobody"`}},
		{"agent and tool", wrap("    phases:\n      - steps:\n          - {id: a, agent: researcher, tool: echo, task: go}\n"),
			[]string{":7:", "step a: tool:", "not tool"}},
		{"agent without task", wrap("    phases:\n      - steps:\n          - {id: a, agent: researcher}\n"),
			[]string{":7:", "step a: task:"}},
		{"a workflow as a step", wrap("    phases:\n      - steps:\n          - {id: a, tool: workflow__w}\n"),
			[]string{":7:", "step a: tool:", "is a workflow"}},
		{"same parallel phase", wrap("    phases:\n      - mode: all\n        steps:\n          - {id: a, tool: echo}\n          - {id: b, tool: echo, args: {x: \"{{steps.a.result}}\"}}\n"),
			[]string{":9:", "step b: args:", "runs at the same time"}},
		{"cycle", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{steps.b.result}}\"}}\n          - {id: b, tool: echo, args: {x: \"{{steps.a.result}}\"}}\n"),
			[]string{"step a: args:", "cycle: a -> b -> a"}},
		{"self", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{steps.a.result}}\"}}\n"),
			[]string{"step a: args:", "its own result (a cycle)"}},
		{"empty phase", wrap("    phases:\n      - name: p\n        steps: []\n"),
			[]string{":7:", "phase p: steps:", "no steps"}},
		{"no phases", wrap(""), []string{":3:", "workflow w: phases: is missing"}},
		{"bad mode", wrap("    phases:\n      - mode: race\n        steps:\n          - {id: a, tool: echo}\n"),
			[]string{":6:", "mode:", `"race" is not one of sequence`}},
		{"bad timeout", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, timeout: soon}\n"),
			[]string{":7:", "step a: timeout:", `"soon" is not a duration`}},
		{"bad retries", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, retries: 99}\n"),
			[]string{"step a: retries:", "0 to 10"}},
		{"bad inputs schema", wrap("    inputs: {type: object, properties: {n: {type: numbr}}}\n    phases:\n      - steps:\n          - {id: a, tool: echo}\n"),
			[]string{":5:", "inputs:", "not a valid JSON Schema"}},
		{"inputs not object", wrap("    inputs: {type: string}\n    phases:\n      - steps:\n          - {id: a, tool: echo}\n"),
			[]string{":5:", "inputs.type:", "object"}},
		{"unknown input", wrap("    inputs: {type: object, properties: {phone: {type: string}}}\n    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{inputs.phon}}\"}}\n"),
			[]string{"step a: args:", `no property "phon" (declared: phone)`}},
		{"malformed placeholder", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, args: {x: \"{{step.a}}\"}}\n"),
			[]string{":7:", "step a: args:", "{{step.a}} is unknown"}},
		{"duplicate id", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo}\n          - {id: a, tool: echo}\n"),
			[]string{":8:", "step a: id:", "already a step at line 7"}},
		{"unknown field", wrap("    phases:\n      - steps:\n          - {id: a, tool: echo, idempotnet: true}\n"),
			[]string{"step a: idempotnet:", `did you mean "idempotent"`}},
		{"bad deadline", wrap("    deadline: 48h\n    phases:\n      - steps:\n          - {id: a, tool: echo}\n"),
			[]string{":5:", "deadline:", "at most 24h"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			list, errs := Parse("workflows.yaml", []byte(c.yaml), resetTools)
			if len(list) != 0 || len(errs) == 0 {
				t.Fatalf("list = %d, errs = %v", len(list), errs)
			}
			msg := errs[0].Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q (all: %v)", msg, w, errs)
				}
			}
			if _, ok := errs[0].(*Error); !ok {
				t.Errorf("error is %T, want *Error", errs[0])
			}
		})
	}
}

// TestWorkflowAgentStep: a step may delegate to a sub-agent with a task that
// uses the inputs and earlier results.
func TestWorkflowAgentStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	os.WriteFile(path, []byte("version: 1\nworkflows:\n  - name: w\n    description: d\n    inputs: {type: object, properties: {topic: {type: string}}}\n"+
		"    phases:\n      - steps:\n          - {id: a, tool: echo}\n          - {id: r, agent: researcher, task: \"find {{inputs.topic}}\", context: \"{{steps.a.result}}\"}\n"), 0o600)
	list, errs := Load(path, knownTools("echo", "agent__researcher"))
	if len(errs) > 0 || len(list) != 1 {
		t.Fatalf("load: %v", errs)
	}
	s := list[0].Phases[0].Steps[1]
	var args map[string]string
	if s.Tool != "agent__researcher" || json.Unmarshal(s.Args, &args) != nil || args["task"] != "find {{inputs.topic}}" || args["context"] != "{{steps.a.result}}" {
		t.Fatalf("step = %+v", s)
	}
}

// A broken workflow is left out; the others load.
func TestWorkflowBrokenOneLeftOut(t *testing.T) {
	src := `version: 1
workflows:
  - name: good
    description: works
    phases:
      - steps:
          - {id: a, tool: echo}
  - name: bad
    description: broken
    phases:
      - steps:
          - {id: a, tool: missing_tool}
  - name: good
    description: duplicate name
    phases:
      - steps:
          - {id: a, tool: echo}
`
	list, errs := Parse("workflows.yaml", []byte(src), resetTools)
	if len(list) != 1 || list[0].Name != "good" || len(errs) != 2 {
		t.Fatalf("list = %v, errs = %v", list, errs)
	}
	if !strings.Contains(errs[0].Error(), "workflows.yaml:12: workflow bad: phase #1: step a: tool:") ||
		!strings.Contains(errs[1].Error(), `:13: workflow #3: name: "good" is already declared at line 3`) {
		t.Fatalf("errs = %v", errs)
	}
}

func TestWorkflowSyntaxError(t *testing.T) {
	_, errs := Parse("workflows.yaml", []byte("version: 1\nworkflows:\n  - name: [x\n"), Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "not valid YAML") {
		t.Fatalf("errs = %v", errs)
	}
}

func TestWorkflowCatalogReloads(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := NewCatalog(path, resetTools)
	if list, errs := c.List(); len(list) != 0 || len(errs) != 0 {
		t.Fatalf("missing file: %v %v", list, errs)
	}
	if err := os.WriteFile(path, []byte(resetYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("reset_password"); !ok {
		t.Fatal("new file not read")
	}
	if err := os.WriteFile(path, []byte("version: 1\nworkflows: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
	if _, ok := c.Get("reset_password"); ok {
		t.Fatal("changed file not read again")
	}
}
