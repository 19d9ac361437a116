package toolfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"hermes/backend/yamlfile"
)

// template is a string with {{arg}} placeholders, parsed once at load.
type template struct {
	parts []part
}

type part struct {
	text string // literal, when arg is ""
	arg  string
}

// parseTemplate splits s into literals and placeholders ({{name}}, spaces allowed
// inside the braces).
func parseTemplate(s string) (template, error) {
	var t template
	pieces, err := yamlfile.SplitTemplate(s)
	if err != nil {
		return t, err
	}
	for _, p := range pieces {
		if !p.IsPlaceholder {
			t.parts = append(t.parts, part{text: p.Text})
			continue
		}
		if p.Text == "" || strings.ContainsAny(p.Text, "{} ") {
			return t, fmt.Errorf("%q has an empty or malformed placeholder %q", s, "{{"+p.Text+"}}")
		}
		t.parts = append(t.parts, part{arg: p.Text})
	}
	return t, nil
}

// args lists the placeholders in order.
func (t template) args() []string {
	var out []string
	for _, p := range t.parts {
		if p.arg != "" {
			out = append(out, p.arg)
		}
	}
	return out
}

// render fills the placeholders; escape (which may be nil) gets the index of the
// part and the value's text.
func (t template) render(args map[string]json.RawMessage, escape func(i int, s string) string) string {
	var b strings.Builder
	for i, p := range t.parts {
		if p.arg == "" {
			b.WriteString(p.text)
			continue
		}
		v := argText(args[p.arg])
		if escape != nil {
			v = escape(i, v)
		}
		b.WriteString(v)
	}
	return b.String()
}

// argText is how an argument is written into a URL or a command line: strings as
// they are, numbers and booleans as in JSON, absent or null as nothing, anything
// else as compact JSON.
func argText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return strconv.Quote(string(raw))
}
