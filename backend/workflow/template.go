package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hermes/backend/lazyre"
	"strconv"
	"strings"

	"hermes/backend/yamlfile"
)

// A placeholder names a value: {{inputs}}, {{inputs.NAME.PATH}},
// {{steps.ID.result}} or {{steps.ID.result.PATH}}, where PATH is dot-separated
// keys and list indexes (from 0).
type ref struct {
	text string   // as written, without the braces
	step string   // "" for inputs
	path []string // after "inputs" or after "steps.ID.result"
}

// tmpl is a string split into literals and placeholders.
type tmpl struct {
	parts []tpart
}

type tpart struct {
	lit string
	ref *ref
}

// whole reports whether the string is exactly one placeholder: it then stands
// for the value itself (a number stays a number, an object an object).
func (t tmpl) whole() *ref {
	if len(t.parts) == 1 {
		return t.parts[0].ref
	}
	return nil
}

func (t tmpl) refs() []*ref {
	var out []*ref
	for _, p := range t.parts {
		if p.ref != nil {
			out = append(out, p.ref)
		}
	}
	return out
}

var stepIDPattern = lazyre.New(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

// parseTmpl splits s into literals and placeholders.
func parseTmpl(s string) (tmpl, error) {
	var t tmpl
	pieces, err := yamlfile.SplitTemplate(s)
	if err != nil {
		return t, err
	}
	for _, p := range pieces {
		if !p.IsPlaceholder {
			t.parts = append(t.parts, tpart{lit: p.Text})
			continue
		}
		r, err := parseRef(p.Text)
		if err != nil {
			return t, err
		}
		t.parts = append(t.parts, tpart{ref: r})
	}
	return t, nil
}

func parseRef(text string) (*ref, error) {
	bad := func(why string) (*ref, error) {
		return nil, fmt.Errorf("placeholder {{%s}} %s: write {{inputs.NAME}} or {{steps.ID.result.FIELD}}", text, why)
	}
	if text == "" {
		return bad("is empty")
	}
	parts := strings.Split(text, ".")
	for _, p := range parts {
		if p == "" || strings.ContainsAny(p, "{} \t") {
			return bad("is malformed")
		}
	}
	switch parts[0] {
	case "inputs":
		return &ref{text: text, path: parts[1:]}, nil
	case "steps":
		if len(parts) < 3 || parts[2] != "result" {
			return bad("names no result")
		}
		if !stepIDPattern.MatchString(parts[1]) {
			return bad(fmt.Sprintf("has %q, which is not a step id", parts[1]))
		}
		return &ref{text: text, step: parts[1], path: parts[3:]}, nil
	}
	return bad("is unknown")
}

// argTemplate is a step's arguments with their placeholders, parsed once.
type argTemplate struct {
	value any // decoded JSON; strings with placeholders are tmpl values
}

// parseArgs reads a step's arguments (a JSON object) and its placeholders.
func parseArgs(raw json.RawMessage) (argTemplate, []*ref, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return argTemplate{value: map[string]any{}}, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return argTemplate{}, nil, fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return argTemplate{}, nil, fmt.Errorf("arguments must be a mapping of names to values")
	}
	var refs []*ref
	var firstErr error
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if !strings.Contains(x, "{{") {
				return x
			}
			t, err := parseTmpl(x)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return x
			}
			refs = append(refs, t.refs()...)
			return t
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	v = walk(v)
	return argTemplate{value: v}, refs, firstErr
}

// scope is what placeholders read: the run's inputs and the results of the
// steps done so far.
type scope struct {
	inputs  any
	results map[string]any
}

// absent stands for an input that was not given: a whole-value placeholder
// that is absent leaves its key out of the arguments.
type absentValue struct{}

var absent = absentValue{}

func isAbsent(v any) bool { _, ok := v.(absentValue); return ok }

// resolve finds a placeholder's value.
func (s scope) resolve(r *ref) (any, error) {
	if r.step == "" {
		v, ok := lookup(s.inputs, r.path)
		if !ok {
			return absent, nil // an optional input not given
		}
		return v, nil
	}
	res, ok := s.results[r.step]
	if !ok {
		return nil, fmt.Errorf("{{%s}}: step %s has no result (it did not finish: see its status)", r.text, r.step)
	}
	v, ok := lookup(res, r.path)
	if !ok {
		return nil, fmt.Errorf("{{%s}}: the result of step %s has no %s", r.text, r.step, strings.Join(r.path, "."))
	}
	return v, nil
}

func lookup(v any, path []string) (any, bool) {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[p]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// render fills the placeholders and returns the arguments as JSON.
func (a argTemplate) render(s scope) (json.RawMessage, error) {
	var firstErr error
	var fill func(v any) any
	fill = func(v any) any {
		switch x := v.(type) {
		case tmpl:
			if r := x.whole(); r != nil {
				val, err := s.resolve(r)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				return val
			}
			var b strings.Builder
			for _, p := range x.parts {
				if p.ref == nil {
					b.WriteString(p.lit)
					continue
				}
				val, err := s.resolve(p.ref)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				b.WriteString(text(val))
			}
			return b.String()
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if f := fill(e); !isAbsent(f) {
					out[k] = f
				}
			}
			return out
		case []any:
			out := make([]any, 0, len(x))
			for _, e := range x {
				f := fill(e)
				if isAbsent(f) {
					f = nil
				}
				out = append(out, f)
			}
			return out
		}
		return v
	}
	v := fill(a.value)
	if firstErr != nil {
		return nil, firstErr
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode arguments: %w", err)
	}
	return b, nil
}

// text is how a value is written inside a longer string: strings as they are,
// numbers and booleans as in JSON, absent or null as nothing, anything else as
// compact JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil, absentValue:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v) // decoded JSON always marshals
	return string(b)
}

// decodeResult is a result as placeholders read it: JSON, and a JSON string
// whose text is itself a JSON object or list (a command that printed JSON, an
// MCP tool's text) is read as that.
func decodeResult(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return string(raw)
	}
	if s, ok := v.(string); ok {
		t := strings.TrimSpace(s)
		if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			if inner, err := decodeJSON([]byte(t)); err == nil {
				return inner
			}
		}
	}
	return v
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}
