package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

const fuzzSchema = `{"type":"object","properties":{
	"text":{"type":"string","minLength":1,"maxLength":200},
	"n":{"type":"integer","minimum":-1000,"maximum":1000},
	"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"maxItems":5,"uniqueItems":true},
	"opt":{"type":"object","properties":{"deep":{"type":["boolean","null"]}},"additionalProperties":false},
	"either":{"oneOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"number","multipleOf":0.5}]}
	},"required":["text"],"additionalProperties":false}`

// FuzzDecodeAndValidate feeds arbitrary bytes as a call's arguments: decoding and
// validation never panic, canonical JSON is stable, and only valid arguments
// reach the tool.
func FuzzDecodeAndValidate(f *testing.F) {
	for _, s := range []string{
		`{"text":"hi"}`, `{"text":"hi","n":3,"tags":["a","b"],"opt":{"deep":null},"either":1.5}`,
		``, `null`, `[]`, `"text"`, `{"text":""}`, `{"text":"x","n":1e400}`, `{"text":"x","n":-0}`,
		`{"text":"x","tags":["a","a"]}`, `{"text":"x","either":"ABC"}`, `{"text":"\ud800"}`, `{"text":"x"} {}`,
		`{"text":"x","text":"y"}`, `{"a":{"b":{"c":[[[[[[]]]]]]}}}`, "{\"text\":\"\x00\"}", `{"text":"x","n":12345678901234567890}`,
	} {
		f.Add([]byte(s))
	}
	reg := NewRegistry()
	var gotInvalid bool
	sch, err := CompileSchema("fuzz", json.RawMessage(fuzzSchema))
	if err != nil {
		f.Fatal(err)
	}
	tool := &Func{ToolName: "fuzz", ToolDescription: "d", Params: json.RawMessage(fuzzSchema), Annots: Annotations{ReadOnly: true},
		Fn: func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			v, err := DecodeArgs(args)
			if err != nil || len(Validate(sch, v)) > 0 {
				gotInvalid = true
			}
			return TextResult("ok"), nil
		}}
	if err := reg.Register(tool); err != nil {
		f.Fatal(err)
	}
	exec := NewExecutor(reg, Config{})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeArgs(data)
		var problems []string
		if err == nil {
			problems = Validate(sch, v)
			c1 := Canonical(v)
			v2, err := DecodeArgs(c1)
			if err != nil {
				t.Fatalf("canonical form %q does not decode: %v", c1, err)
			}
			if c2 := Canonical(v2); !bytes.Equal(c1, c2) {
				t.Fatalf("canonical form unstable: %q then %q", c1, c2)
			}
		}
		_ = RedactArgs(data)
		gotInvalid = false
		o, _ := exec.NewTurn(TurnInfo{}).Run(context.Background(), call("fuzz", string(data)))
		if gotInvalid {
			t.Fatalf("the tool received invalid arguments %q", data)
		}
		valid := err == nil && len(problems) == 0
		if valid != o.OK() {
			t.Fatalf("valid=%v but outcome %s %s for %q", valid, o.Status, o.Content, data)
		}
		if !valid && o.ErrorKind != KindInvalidArguments {
			t.Fatalf("kind = %s for %q", o.ErrorKind, data)
		}
	})
}
