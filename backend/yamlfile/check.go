package yamlfile

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Checker reads a file's fields and reports each mistake through Fail with
// the node it is at and the field's dotted name.
type Checker struct {
	Fail func(n *yaml.Node, field, msg string)
}

func (c Checker) fail(n *yaml.Node, field, format string, a ...any) {
	c.Fail(n, field, fmt.Sprintf(format, a...))
}

// Fields reads a mapping's keys (under prefix, for messages), reporting
// unknown ones (with a suggestion) and repeated ones.
func (c Checker) Fields(n *yaml.Node, prefix string, known []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := k.Value
		if prefix != "" {
			field = prefix + "." + k.Value
		}
		switch {
		case !slices.Contains(known, k.Value):
			msg := fmt.Sprintf("unknown field %q", k.Value)
			if s := Suggest(k.Value, known); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; known fields: " + strings.Join(known, ", ")
			}
			c.Fail(k, field, msg)
		case out[k.Value] != nil:
			c.fail(k, field, "appears twice (first at line %d)", out[k.Value].Line)
		default:
			out[k.Value] = v
		}
	}
	return out
}

// Str reads a text field (n may be nil when absent; parent then locates the
// "is missing" message). ok is false after a reported mistake.
func (c Checker) Str(n, parent *yaml.Node, field string, required bool) (string, bool) {
	if n == nil || IsNull(n) || (n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) == "") {
		if required {
			at := parent
			if n != nil {
				at = n
			}
			c.fail(at, field, "is missing")
			return "", false
		}
		return "", n == nil || IsNull(n) || n.Kind == yaml.ScalarNode
	}
	if n.Kind != yaml.ScalarNode {
		c.fail(n, field, "must be text, not a %s", Kind(n))
		return "", false
	}
	return n.Value, true
}

// Schema reads a JSON Schema written as YAML and checks it with compile.
func (c Checker) Schema(n *yaml.Node, field string, compile func(field string, schema []byte) error) (json.RawMessage, bool) {
	if n.Kind != yaml.MappingNode {
		c.fail(n, field, "must be a JSON Schema written as a mapping (type: object, properties: ...)")
		return nil, false
	}
	var v any
	if err := n.Decode(&v); err != nil {
		c.fail(n, field, "cannot be read: %s", OneLine(err))
		return nil, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.fail(n, field, "cannot be turned into JSON (are all keys text?): %v", err)
		return nil, false
	}
	if err := compile(field, b); err != nil {
		c.fail(n, field, "is not a valid JSON Schema: %s", OneLine(err))
		return nil, false
	}
	return b, true
}
