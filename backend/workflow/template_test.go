package workflow

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWorkflowTemplateRender(t *testing.T) {
	sc := scope{
		inputs: decodeResult(json.RawMessage(`{"phone":"+1 555","n":3,"opt":{"a":[1,2]}}`)),
		results: map[string]any{
			"sms":  decodeResult(json.RawMessage(`{"code":"1234","ttl":60,"list":[{"x":"y"}]}`)),
			"text": decodeResult(json.RawMessage(`"plain words"`)),
			"json": decodeResult(json.RawMessage(`"{\"inner\": true}"`)), // a command's JSON printed as text
		},
	}
	cases := []struct{ args, want string }{
		{`{"p":"{{inputs.phone}}"}`, `{"p":"+1 555"}`},
		{`{"n":"{{inputs.n}}"}`, `{"n":3}`}, // a whole placeholder keeps the type
		{`{"s":"n={{inputs.n}}, code={{ steps.sms.result.code }}"}`, `{"s":"n=3, code=1234"}`},
		{`{"all":"{{steps.sms.result}}"}`, `{"all":{"code":"1234","list":[{"x":"y"}],"ttl":60}}`},
		{`{"i":"{{steps.sms.result.list.0.x}}"}`, `{"i":"y"}`},
		{`{"t":"{{steps.text.result}}"}`, `{"t":"plain words"}`},
		{`{"j":"{{steps.json.result.inner}}"}`, `{"j":true}`},
		{`{"missing":"{{inputs.nothing}}","keep":1}`, `{"keep":1}`}, // an optional input not given leaves its key out
		{`{"in":"[{{inputs.nothing}}]"}`, `{"in":"[]"}`},
		{`{"obj":"x{{inputs.opt}}"}`, `{"obj":"x{\"a\":[1,2]}"}`},
		{`{"nested":{"l":["{{inputs.phone}}",2]}}`, `{"nested":{"l":["+1 555",2]}}`},
	}
	for _, c := range cases {
		a, _, err := parseArgs(json.RawMessage(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		got, err := a.render(sc)
		if err != nil || string(got) != c.want {
			t.Errorf("%s -> %s, %v; want %s", c.args, got, err, c.want)
		}
	}
	for _, c := range []struct{ args, want string }{
		{`{"c":"{{steps.sms.result.nope}}"}`, "the result of step sms has no nope"},
		{`{"c":"{{steps.other.result}}"}`, "step other has no result"},
	} {
		a, _, _ := parseArgs(json.RawMessage(c.args))
		if _, err := a.render(sc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.args, err, c.want)
		}
	}
}

func TestWorkflowTemplateParse(t *testing.T) {
	for _, bad := range []string{"{{}}", "{{x}}", "{{steps.a}}", "{{steps.a.output}}", "{{inputs..a}}", "{{inputs.a", "{{steps.1a.result}}"} {
		if _, err := parseTmpl(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	tm, err := parseTmpl("a {{inputs.x}} b {{steps.s-1.result.k}}")
	if err != nil || len(tm.refs()) != 2 || tm.refs()[1].step != "s-1" || tm.whole() != nil {
		t.Fatalf("tm = %+v, %v", tm, err)
	}
}
