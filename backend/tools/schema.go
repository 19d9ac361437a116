package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaURL is where a compiled schema claims to live; nothing is ever fetched.
const schemaURL = "mem:///tools/"

// noLoader refuses every $ref to something outside the schema itself: a tool's
// schema never reads files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema reference %s is not allowed: schemas must be self-contained", url)
}

// CompileSchema compiles a JSON Schema (draft 2020-12 unless it says otherwise).
// name only labels errors.
func CompileSchema(name string, schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: not valid JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // "format": "date", "email", ... are checked, not just annotations
	c.UseLoader(noLoader{})
	loc := schemaURL + name + ".json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	return sch, nil
}

// DecodeArgs parses a call's arguments as JSON the way the validator wants them
// (numbers kept exact). Empty or null arguments are an empty object.
func DecodeArgs(raw json.RawMessage) (any, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	if err := checkKeys(trimmed); err != nil {
		return nil, fmt.Errorf("arguments are ambiguous: %w", err)
	}
	return v, nil
}

// Validate checks a decoded value against sch and returns one readable line per
// problem (empty when valid).
func Validate(sch *jsonschema.Schema, v any) []string {
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []string{err.Error()}
	}
	return details(verr)
}

// details flattens a validation error into "at /path: message" lines, one per
// leaf of the error tree, at most maxDetails of them.
func details(verr *jsonschema.ValidationError) []string {
	var lines []string
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		line := "at " + pointer(e.InstanceLocation) + ": " + e.ErrorKind.LocalizedString(printer)
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	walk(verr)
	const maxDetails = 10
	if len(lines) > maxDetails {
		lines = append(lines[:maxDetails], fmt.Sprintf("and %d more", len(lines)-maxDetails))
	}
	return lines
}

// printer renders validation messages in English; it is only read.
var printer = message.NewPrinter(language.English)

// pointer renders an instance location as a JSON Pointer ("/" for the root).
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// modelParameters converts an object schema into the shape Ollama sends to the
// model. Keywords Ollama does not carry (bounds, patterns) stay enforced by the
// validator.
func modelParameters(schema json.RawMessage) (api.ToolFunctionParameters, error) {
	var p api.ToolFunctionParameters
	var top map[string]any // exact keys: the struct below would also take "Type" for "type"
	if err := json.Unmarshal(schema, &top); err != nil {
		return p, fmt.Errorf("convert parameters for the model: %w", err)
	}
	if top["type"] != "object" {
		return p, fmt.Errorf("parameters must be a schema of \"type\": \"object\", got %v", top["type"])
	}
	if err := json.Unmarshal(schema, &p); err != nil {
		return p, fmt.Errorf("convert parameters for the model: %w", err)
	}
	if p.Properties == nil {
		p.Properties = api.NewToolPropertiesMap()
	}
	return p, nil
}

// Canonical returns v (decoded JSON) re-encoded with sorted keys, no spaces and
// numbers in one form, so equal arguments give equal bytes.
func Canonical(v any) []byte {
	var b bytes.Buffer
	writeCanonical(&b, v)
	return b.Bytes()
}

func writeCanonical(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeCanonical(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		b.WriteString(canonicalNumber(v))
	default:
		eb, err := json.Marshal(v)
		if err != nil {
			eb = []byte("null")
		}
		b.Write(eb)
	}
}

// canonicalNumber writes 1, 1.0 and 1e0 the same way.
func canonicalNumber(n json.Number) string {
	if i, err := n.Int64(); err == nil {
		return fmt.Sprint(i)
	}
	if f, err := n.Float64(); err == nil {
		if f == 0 {
			return "0" // -0 and 0 are the same argument
		}
		b, err := json.Marshal(f)
		if err == nil {
			return string(b)
		}
	}
	return n.String()
}

// canonicalRaw canonicalises raw JSON; invalid JSON is returned trimmed as it is.
func canonicalRaw(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	v, err := DecodeArgs(raw)
	if err != nil {
		return bytes.TrimSpace(raw)
	}
	return Canonical(v)
}

// schema is a tool's compiled JSON Schema, compiled when first needed.
type schema struct {
	get func() (*jsonschema.Schema, error)
}

// onFirstUse is raw compiled once, when first checked or used; name labels
// errors.
func onFirstUse(name string, raw json.RawMessage) *schema {
	return &schema{get: sync.OnceValues(func() (*jsonschema.Schema, error) { return CompileSchema(name, raw) })}
}

// check compiles the schema if not yet done: nil when it compiles.
func (s *schema) check() error {
	_, err := s.get()
	return err
}

// validate is Validate against the schema; one that does not compile is the
// one problem (only Hermes' own tools compile theirs this late: a test keeps
// them compiling).
func (s *schema) validate(v any) []string {
	sch, err := s.get()
	if err != nil {
		return []string{"the tool's own schema does not compile: " + err.Error()}
	}
	return Validate(sch, v)
}
