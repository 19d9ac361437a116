// Package yamlfile holds what the YAML files a user edits (tools.yaml,
// workflows.yaml) share: reading them within a size limit, parsing them with
// the line a syntax error is really on, and the small words their messages use
// ("a mapping", a "did you mean" suggestion).
package yamlfile

import (
	"errors"
	"fmt"
	"hermes/backend/lazyre"
	"hermes/backend/text"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"hermes/backend/userfile"
)

// MaxSize is the largest file read.
const MaxSize = userfile.MaxSize

// Read reads the file at path; a missing file is (nil, false, nil). The error
// says what is wrong in the user's words.
func Read(path string) ([]byte, bool, error) {
	data, err := userfile.Read(path, MaxSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, false, nil
	case errors.Is(err, userfile.ErrTooBig):
		return nil, false, fmt.Errorf("the file is larger than %d bytes", MaxSize)
	case err != nil:
		return nil, false, fmt.Errorf("cannot read the file: %v", errors.Unwrap(err))
	}
	return data, true, nil
}

var yamlLine = lazyre.New(`line (\d+): `)

// Parse parses data into a document node; a syntax error comes back as the
// line it is on and a message without yaml's own line prefix.
func Parse(data []byte) (doc yaml.Node, line int, msg string, err error) {
	if err = yaml.Unmarshal(data, &doc); err != nil {
		msg = yamlLine.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
		return doc, syntaxErrorLine(data, err), "the file is not valid YAML: " + msg, err
	}
	return doc, 0, "", nil
}

// syntaxErrorLine finds the line of a YAML syntax error. yaml.v3 reports the
// line where the enclosing structure starts, so the line after the longest
// prefix of the file that still parses is a better answer; long files keep
// yaml's number.
func syntaxErrorLine(data []byte, err error) int {
	reported := 0
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		reported, _ = strconv.Atoi(m[1])
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 2000 {
		return reported
	}
	for k := len(lines) - 1; k > 0; k-- {
		var n yaml.Node
		if yaml.Unmarshal([]byte(strings.Join(lines[:k], "")), &n) == nil {
			return k + 1
		}
	}
	return 1
}

// IsNull reports whether n is YAML's null (an empty value).
func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// Kind names a node's kind for a message.
func Kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// SortedKeys lists a set's keys in order ("none" for an empty set), for a
// message that says what is allowed.
func SortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// Suggest is the known word closest to s (at most 2 edits away), or "".
func Suggest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := text.EditDistance(strings.ToLower(s), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// OneLine is err's message on one line: yaml's list of unmarshal errors
// joined with "; ", any other line break likewise.
func OneLine(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return flatten(strings.Join(te.Errors, "; "))
	}
	return flatten(err.Error())
}

var lineBreaks = lazyre.New(`[ \t]*[\r\n]+\s*`)

// flatten puts s on one line, its line breaks (and the indentation after
// them) turned into "; ".
func flatten(s string) string { return lineBreaks.ReplaceAllString(strings.TrimSpace(s), "; ") }

// Where formats a mistake's place and message on one line: "FILE[:LINE]:
// SCOPE: ... FIELD: MSG", skipping the empty scopes and field. Both config
// files' Error types read this way.
func Where(file string, line int, scopes []string, field, msg string) string {
	var b strings.Builder
	b.WriteString(file)
	if line > 0 {
		fmt.Fprintf(&b, ":%d", line)
	}
	b.WriteString(": ")
	for _, s := range scopes {
		if s != "" {
			b.WriteString(s + ": ")
		}
	}
	if field != "" {
		b.WriteString(field + ": ")
	}
	b.WriteString(msg)
	return flatten(b.String())
}
