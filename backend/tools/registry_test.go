package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRegister(t *testing.T) {
	tests := []struct {
		name    string
		tool    Tool
		opts    []Option
		wantErr string
	}{
		{name: "valid tool", tool: echoTool("echo", Annotations{ReadOnly: true})},
		{name: "name with dash and digits", tool: echoTool("mcp-fs__read_file2", Annotations{ReadOnly: true})},
		{name: "empty name", tool: echoTool("", Annotations{}), wantErr: "1 to 64 letters"},
		{name: "name with a space", tool: echoTool("read file", Annotations{}), wantErr: "1 to 64 letters"},
		{name: "name with a dot", tool: echoTool("fs.read", Annotations{}), wantErr: "1 to 64 letters"},
		{name: "name of 65 characters", tool: echoTool(strings.Repeat("a", 65), Annotations{}), wantErr: "1 to 64 letters"},
		{name: "no description", tool: &Func{ToolName: "x", Params: json.RawMessage(objectSchema)}, wantErr: "description is empty"},
		{name: "schema is not JSON", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(`{"type":`)}, wantErr: "not valid JSON"},
		{name: "schema is not a schema", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(`{"type":"objekt"}`)}, wantErr: "compile schema"},
		{name: "type spelled in another case", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(`{"Type":"object"}`)}, wantErr: `"type": "object"`},
		{name: "schema of a string", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(`{"type":"string"}`)}, wantErr: `"type": "object"`},
		{name: "external $ref", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`)}, wantErr: "not allowed"},
		{name: "bad result schema", tool: &Func{ToolName: "x", ToolDescription: "d", Params: json.RawMessage(objectSchema), Result: json.RawMessage(`{"type":5}`)}, wantErr: "result"},
		{name: "negative timeout", tool: echoTool("x", Annotations{}), opts: []Option{WithTimeout(-1)}, wantErr: "negative timeout"},
		{name: "destructive tool tagged read-only", tool: echoTool("rm", Annotations{Destructive: true}), opts: []Option{WithGroups(GroupReadOnly)}, wantErr: "tagged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewRegistry().Register(tt.tool, tt.opts...)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrInvalidTool) {
				t.Fatalf("err = %v; want ErrInvalidTool containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestRegistryLifecycle(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(echoTool("echo", Annotations{ReadOnly: true})); err != nil {
		t.Fatal(err)
	}
	t.Run("duplicate is refused with a clear error", func(t *testing.T) {
		err := r.Register(echoTool("echo", Annotations{ReadOnly: true}))
		if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), `"echo"`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("disabled tools are hidden", func(t *testing.T) {
		if err := r.SetEnabled("echo", false); err != nil {
			t.Fatal(err)
		}
		if n := len(r.Schemas(nil)); n != 0 {
			t.Fatalf("schemas = %d", n)
		}
		if err := r.SetEnabled("echo", true); err != nil {
			t.Fatal(err)
		}
		if n := len(r.Schemas(nil)); n != 1 {
			t.Fatalf("schemas = %d", n)
		}
		if err := r.SetEnabled("nope", true); !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("unregister then register again", func(t *testing.T) {
		if !r.Unregister("echo") || r.Unregister("echo") {
			t.Fatal("unregister should report presence once")
		}
		if _, ok := r.Get("echo"); ok {
			t.Fatal("still there")
		}
		if err := r.Register(echoTool("echo", Annotations{ReadOnly: true})); err != nil {
			t.Fatal(err)
		}
	})
}

func TestGroups(t *testing.T) {
	r := NewRegistry()
	for _, reg := range []struct {
		tool Tool
		opts []Option
	}{
		{echoTool("clock", Annotations{ReadOnly: true}), nil},
		{echoTool("write_file", Annotations{Destructive: true}), nil},
		{echoTool("fetch", Annotations{ReadOnly: true, OpenWorld: true}), nil},
		{echoTool("memory_save", Annotations{}), []Option{WithGroups(GroupMemory)}},
		{echoTool("memory_search", Annotations{ReadOnly: true}), []Option{WithGroups(GroupMemory, GroupReadOnly)}},
	} {
		if err := r.Register(reg.tool, reg.opts...); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		group string
		want  string
	}{
		{GroupNone, ""},
		{"", ""},
		{GroupReadOnly, "clock,memory_search"},
		{GroupTask, "clock,fetch,memory_search,write_file"},
		{GroupMemory, "memory_save,memory_search"},
		{"no-such-group", ""},
	}
	for _, tt := range tests {
		t.Run("group "+tt.group, func(t *testing.T) {
			var names []string
			for _, s := range r.Schemas(r.InGroup(tt.group)) {
				names = append(names, s.Function.Name)
			}
			if got := strings.Join(names, ","); got != tt.want {
				t.Fatalf("tools = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestSchemasForTheModel(t *testing.T) {
	r := NewRegistry()
	params := `{"type":"object","properties":{"expression":{"type":"string","description":"what to compute"},
		"unit":{"type":"string","enum":["m","km"]}},"required":["expression"]}`
	for _, name := range []string{"zeta", "alpha"} {
		if err := r.Register(&Func{ToolName: name, ToolDescription: "Compute.", Params: json.RawMessage(params)}); err != nil {
			t.Fatal(err)
		}
	}
	got := r.Schemas(nil)
	if len(got) != 2 || got[0].Function.Name != "alpha" || got[1].Function.Name != "zeta" {
		t.Fatalf("not sorted by name: %v", got)
	}
	b, err := json.Marshal(got[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"function","function":{"name":"alpha","description":"Compute.","parameters":{"type":"object","required":["expression"],` +
		`"properties":{"expression":{"type":"string","description":"what to compute"},"unit":{"type":"string","enum":["m","km"]}}}}}`
	if string(b) != want {
		t.Fatalf("schema =\n%s\nwant\n%s", b, want)
	}
	t.Run("an object without properties still sends properties", func(t *testing.T) {
		r := NewRegistry()
		if err := r.Register(&Func{ToolName: "now", ToolDescription: "d", Params: json.RawMessage(`{"type":"object"}`)}); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r.Schemas(nil)[0].Function.Parameters)
		if string(b) != `{"type":"object","properties":{}}` {
			t.Fatalf("parameters = %s", b)
		}
	})
}

func TestDefinitionHash(t *testing.T) {
	base := func() *Func { return echoTool("echo", Annotations{ReadOnly: true}) }
	h := DefinitionHash(base())
	if len(h) != 64 {
		t.Fatalf("hash %q is not SHA-256 hex", h)
	}
	tests := []struct {
		name   string
		change func(*Func)
		same   bool
	}{
		{"same definition", func(*Func) {}, true},
		{"schema keys reordered and spaced", func(f *Func) {
			f.Params = json.RawMessage(`{ "required":["text"], "additionalProperties":false, "type":"object", "properties":{"text":{"minLength":1,"type":"string"}} }`)
		}, true},
		{"changed description", func(f *Func) { f.ToolDescription += " Also deletes files." }, false},
		{"changed schema", func(f *Func) { f.Params = json.RawMessage(`{"type":"object"}`) }, false},
		{"changed annotations", func(f *Func) { f.Annots.Destructive = true }, false},
		{"added result schema", func(f *Func) { f.Result = json.RawMessage(`{"type":"string"}`) }, false},
		{"function body does not matter", func(f *Func) { f.Fn = nil }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := base()
			tt.change(f)
			if got := DefinitionHash(f); (got == h) != tt.same {
				t.Fatalf("hash equal = %v; want %v", got == h, tt.same)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	sch, err := CompileSchema("t", json.RawMessage(`{"type":"object","properties":{
		"n":{"type":"integer","minimum":1},"s":{"type":"string","pattern":"^[a-z]+$"}},"required":["n"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args string
		want []string // substrings, one per detail line
	}{
		{"valid", `{"n": 3, "s": "abc"}`, nil},
		{"empty arguments are an empty object", ``, []string{"at /: missing property 'n'"}},
		{"missing required", `{}`, []string{"missing property 'n'"}},
		{"wrong type", `{"n":"3"}`, []string{"at /n: got string, want integer"}},
		{"below minimum", `{"n":0}`, []string{"at /n: minimum"}},
		{"pattern and extra property", `{"n":1,"s":"ABC","x":1}`, []string{"additional properties 'x'", "at /s:"}},
		{"big integer is still exact", `{"n": 12345678901234567890}`, nil},
		{"float is not an integer", `{"n": 1.5}`, []string{"want integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeArgs(json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			got := Validate(sch, v)
			if len(got) != len(tt.want) {
				t.Fatalf("details = %q; want %d like %q", got, len(tt.want), tt.want)
			}
			joined := strings.Join(got, "\n")
			for _, w := range tt.want {
				if !strings.Contains(joined, w) {
					t.Errorf("details %q lack %q", got, w)
				}
			}
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		if _, err := DecodeArgs(json.RawMessage(`{"n":`)); err == nil {
			t.Fatal("want an error")
		}
	})
}

func TestCanonical(t *testing.T) {
	tests := []struct{ a, b string }{
		{`{"b":1,"a":[1,2,{"y":true,"x":null}]}`, `{ "a": [1, 2, {"x": null, "y": true}], "b": 1 }`},
		{`{"n":1}`, `{"n":1.0}`},
		{`{"n":100}`, `{"n":1e2}`},
		{`{"s":"é"}`, `{"s":"\u00e9"}`},
	}
	for _, tt := range tests {
		t.Run(tt.a, func(t *testing.T) {
			va, _ := DecodeArgs(json.RawMessage(tt.a))
			vb, _ := DecodeArgs(json.RawMessage(tt.b))
			if ca, cb := string(Canonical(va)), string(Canonical(vb)); ca != cb {
				t.Fatalf("%s != %s", ca, cb)
			}
		})
	}
}

func TestAmbiguousKeys(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"plain object", `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, ""},
		{"same key in sibling objects", `{"x":{"k":1},"y":{"k":2}}`, ""},
		{"duplicate key", `{"text":"ok","text":""}`, "appears twice"},
		{"duplicate after a nested value", `{"a":{"b":[1,{"c":2}]},"a":1}`, "appears twice"},
		{"keys differing in case", `{"text":"ok","TEXT":""}`, "differ only in case"},
		{"nested duplicate", `{"o":{"k":1,"k":2}}`, "appears twice"},
		{"string values that look like keys", `{"a":"a","b":"a"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeArgs(json.RawMessage(tt.args))
			if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
}

func TestFormatsAreAsserted(t *testing.T) {
	sch, err := CompileSchema("f", json.RawMessage(`{"type":"object","properties":{"day":{"type":"string","format":"date"},"mail":{"type":"string","format":"email"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args string
		ok   bool
	}{
		{`{"day":"2026-03-14","mail":"ann@example.com"}`, true},
		{`{"day":"2026-13-45"}`, false},
		{`{"day":"next friday"}`, false},
		{`{"mail":"not an address"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			v, _ := DecodeArgs(json.RawMessage(tt.args))
			if got := Validate(sch, v); (len(got) == 0) != tt.ok {
				t.Fatalf("details = %q; want ok=%v", got, tt.ok)
			}
		})
	}
}

func TestAmbiguousKeysInBigObjects(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 100 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	ok := b.String() + `"end":"\"K1\""}`
	if _, err := DecodeArgs(json.RawMessage(ok)); err != nil {
		t.Fatalf("err = %v", err)
	}
	if _, err := DecodeArgs(json.RawMessage(b.String() + `"K57":1}`)); err == nil || !strings.Contains(err.Error(), `"k57" and "K57"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := DecodeArgs(json.RawMessage(`{"a\u0062":1,"ab":2}`)); err == nil {
		t.Fatal("an escaped duplicate must be found")
	}
}
