package workflow

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzParseWorkflows hands workflows.yaml's parser whatever the fuzzer makes
// of real files: it never panics, answers within a second, every mistake is
// one *Error of one line naming the file, and a workflow it admits has a
// name, phases with steps, and each step id once.
func FuzzParseWorkflows(f *testing.F) {
	for _, seed := range []string{
		resetYAML,
		// the README's example, with its comments
		`version: 1
workflows:
  - name: reset_password
    description: Reset a password after checking the phone number.
    inputs: {type: object, properties: {phone: {type: string}}, required: [phone]}   # JSON Schema
    deadline: 5m                             # per run (each start or resume); default 10m
    phases:
      - name: pre_check                      # mode: sequence (default) | all | first
        steps:
          - {id: check, tool: check_phone, args: {phone: "{{inputs.phone}}"}}
      - name: action
        mode: first                          # the first step to succeed wins; the others are stopped
        steps:
          - {id: sms, tool: send_sms, args: {phone: "{{inputs.phone}}"}, timeout: 5s}
          - {id: captcha, tool: make_captcha, args: {}}
      - name: post_update
        steps:
          - {id: verify, tool: verify_code, args: {code: "{{steps.sms.result.code}}"}, retries: 2, backoff: 1s}
`,
		"version: 1\nworkflows:\n  - name: loop\n    phases:\n      - steps:\n          - {id: a, tool: t, args: {x: \"{{steps.b.result}}\"}}\n          - {id: b, tool: t, args: {x: \"{{steps.a.result}}\"}, timeout: 99h, retries: -1}\n",
		"version: 1\nworkflows:\n  - name: [x\n",
		"workflows:\n  - &w {name: a, phases: [{steps: [{id: s, agent: researcher, task: \"{{inputs.q}}\"}]}]}\n  - *w\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		list, errs := Parse("workflows.yaml", data, Options{})
		if took := time.Since(start); took > time.Second {
			t.Fatalf("took %v for %d bytes", took, len(data))
		}
		for _, err := range errs {
			var e *Error
			if msg := err.Error(); !errors.As(err, &e) || !strings.HasPrefix(msg, "workflows.yaml") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("not one line naming the file: %T %q", err, msg)
			}
		}
		for _, w := range list {
			admitted(t, w)
		}
	})
}

// admitted fails unless w has a name and phases of steps, each id once.
func admitted(t *testing.T, w *Workflow) {
	t.Helper()
	ids := map[string]bool{}
	if w.Name == "" || len(w.Phases) == 0 {
		t.Fatalf("admitted %+v", w)
	}
	for _, p := range w.Phases {
		if len(p.Steps) == 0 {
			t.Fatalf("admitted an empty phase in %+v", w)
		}
		for _, s := range p.Steps {
			if s.ID == "" || ids[s.ID] {
				t.Fatalf("admitted step %+v in %s", s, w.Name)
			}
			ids[s.ID] = true
		}
	}
}
