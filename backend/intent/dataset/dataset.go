// Package dataset holds the intent label set and reads and writes the JSONL
// example files under models/intent.
package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Labels is the fixed label set of docs/architecture.md, "Intent labels", in model output
// order.
var Labels = []string{"chitchat", "question", "task", "remember", "recall", "forget", "hypothetical"}

// Langs are the languages examples are tagged with.
var Langs = []string{"en", "zh"}

// Example is one line of train.jsonl or test.jsonl.
type Example struct {
	Text  string `json:"text"`
	Label string `json:"label"`
	Lang  string `json:"lang"`
}

// LabelIndex returns the position of label in Labels, or -1.
func LabelIndex(label string) int { return slices.Index(Labels, label) }

// Read parses JSONL examples and checks every field; name is used in errors.
func Read(r io.Reader, name string) ([]Example, error) {
	var out []Example
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var ex Example
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ex); err != nil {
			return nil, fmt.Errorf("read examples %s:%d: %w", name, line, err)
		}
		if strings.TrimSpace(ex.Text) == "" {
			return nil, fmt.Errorf("read examples %s:%d: empty text", name, line)
		}
		if LabelIndex(ex.Label) < 0 {
			return nil, fmt.Errorf("read examples %s:%d: unknown label %q (want one of %s)", name, line, ex.Label, strings.Join(Labels, ", "))
		}
		if !slices.Contains(Langs, ex.Lang) {
			return nil, fmt.Errorf("read examples %s:%d: unknown lang %q (want en or zh)", name, line, ex.Lang)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read examples %s: %w", name, err)
	}
	return out, nil
}

// ReadFile reads a JSONL example file.
func ReadFile(path string) ([]Example, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read examples: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Marshal encodes examples as JSONL, one object per line, HTML characters
// not escaped.
func Marshal(exs []Example) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, ex := range exs {
		if err := enc.Encode(ex); err != nil {
			panic(err) // strings only
		}
	}
	return buf.Bytes()
}
