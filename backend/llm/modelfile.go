package llm

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/parser"
)

// ErrModelfile marks Modelfile text an import cannot use (ModelfileError).
var ErrModelfile = errors.New("Modelfile refused")

// Why a Modelfile line is refused (ModelfileError.Reason).
const (
	ModelfileUnclosed     = "unclosed"      // a quoted value never closed
	ModelfileNoValue      = "no_value"      // PARAMETER without a name and a value
	ModelfileNotDirective = "not_directive" // a word an import cannot set (ADAPTER, …)
	ModelfileBadValue     = "bad_value"     // a value Ollama refuses (Detail says why, in Ollama's words)
)

// ModelfileError is a Modelfile line an import cannot use: Line counts from 1
// (where the refused directive starts), Word is its directive as written,
// Detail what is wrong with its value (ModelfileBadValue).
type ModelfileError struct {
	Line         int
	Word, Reason string
	Detail       string
	quote        string // the quote left open (ModelfileUnclosed): `"""` or `"`
}

func (e *ModelfileError) Error() string {
	switch e.Reason {
	case ModelfileUnclosed:
		q := e.quote
		if q == "" {
			q = `"""`
		}
		return fmt.Sprintf("Modelfile line %d: the %s opened for %s is never closed", e.Line, q, e.Word)
	case ModelfileNoValue:
		return fmt.Sprintf("Modelfile line %d: PARAMETER needs a name and a value, e.g. PARAMETER temperature 0.7", e.Line)
	case ModelfileBadValue:
		return fmt.Sprintf("Modelfile line %d: %s: %s", e.Line, e.Word, e.Detail)
	}
	return fmt.Sprintf("Modelfile line %d: %s is not a directive an import can set "+
		"(FROM, TEMPLATE, SYSTEM, PARAMETER, LICENSE, MESSAGE, RENDERER, PARSER, REQUIRES)", e.Line, e.Word)
}

func (e *ModelfileError) Is(target error) bool { return target == ErrModelfile }

// importFrom ends every text given to Ollama's parser, which requires a FROM
// line: an import's model is the file Hermes was given, so a Modelfile needs
// none (a FROM of its own is ignored).
const importFrom = "\nFROM hermes-import\n"

// droppedParameters are the parameters Ollama's parser drops as deprecated
// (its list, parser.deprecatedParameters, is unexported). Hermes drops them
// before (parser.Modelfile).CreateRequest, which would print a warning about
// each on standard output, where the command line writes its results.
var droppedParameters = []string{"penalize_newline", "low_vram", "f16_kv", "logits_all", "vocab_only",
	"use_mlock", "mirostat", "mirostat_tau", "mirostat_eta"}

// parseModelfile reads a Modelfile with Ollama's own parser and builds the
// create request as Ollama's command line does ((parser.Modelfile).CreateRequest):
// every PARAMETER typed as Ollama types it (a repeated one, like stop, a
// list), TEMPLATE, SYSTEM, LICENSE (a list), MESSAGE, RENDERER, PARSER and
// REQUIRES. FROM is the file being imported, so it is ignored; ADAPTER is
// refused (Hermes imports one model file). A refusal is a ModelfileError that
// names the line.
func parseModelfile(text string) (*api.CreateRequest, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	f, err := parseOllama(text)
	if err != nil {
		return nil, parseRefusal(text, err)
	}
	cmds, at, err := importable(text, f.Commands[:len(f.Commands)-1]) // the last is importFrom
	if err != nil {
		return nil, err
	}
	req, err := parser.Modelfile{Commands: cmds}.CreateRequest("")
	if err != nil {
		return nil, valueRefusal(text, cmds, at, err)
	}
	return req, nil
}

// parseOllama is Ollama's parser over text and importFrom.
func parseOllama(text string) (*parser.Modelfile, error) {
	return parser.ParseFile(strings.NewReader(text + importFrom))
}

// importable keeps the commands an import sets, with their indexes in cmds:
// FROM and the dropped parameters go, ADAPTER is refused.
func importable(text string, cmds []parser.Command) ([]parser.Command, []int, error) {
	var keep []parser.Command
	var at []int
	for i, c := range cmds {
		switch {
		case c.Name == "model" || slices.Contains(droppedParameters, c.Name):
		case c.Name == "adapter":
			line := commandStarts(text)[i]
			return nil, nil, &ModelfileError{Line: line, Word: firstWord(text, line), Reason: ModelfileNotDirective}
		default:
			keep, at = append(keep, c), append(at, i)
		}
	}
	return keep, at, nil
}

// valueRefusal names the command whose value Ollama refused (err, from
// CreateRequest): the first that it refuses alone.
func valueRefusal(text string, cmds []parser.Command, at []int, err error) error {
	for i, c := range cmds {
		if _, one := (parser.Modelfile{Commands: []parser.Command{c}}).CreateRequest(""); one != nil {
			line := commandStarts(text)[at[i]]
			detail := one.Error()
			if !strings.Contains(detail, c.Name) && !strings.Contains(detail, "requires") {
				detail = c.Name + ": " + detail // a parameter that Ollama's words do not name
			}
			return &ModelfileError{Line: line, Word: firstWord(text, line), Reason: ModelfileBadValue, Detail: detail}
		}
	}
	return fmt.Errorf("read Modelfile: %w: %w", ErrModelfile, err)
}

// parseRefusal turns an error of Ollama's parser into a ModelfileError at the
// line where the refused directive starts.
func parseRefusal(text string, err error) *ModelfileError {
	line := errorLine(text)
	word := firstWord(text, line)
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lineAt(text, line)), word))
	e := &ModelfileError{Line: line, Word: word, Reason: ModelfileBadValue}
	var pe *parser.ParserError
	switch {
	case errors.As(err, &pe) && !isDirective(word):
		e.Reason = ModelfileNotDirective
	case errors.Is(err, io.ErrUnexpectedEOF) && strings.Contains(rest, `"`):
		e.Reason, e.quote = ModelfileUnclosed, `"`
		if strings.Contains(rest, `"""`) {
			e.quote = `"""`
		}
	case strings.EqualFold(word, "PARAMETER") && len(strings.Fields(rest)) < 2:
		e.Reason = ModelfileNoValue
	case strings.EqualFold(word, "PARAMETER"):
		e.Detail = "a parameter's name is letters, digits and underscores, e.g. PARAMETER top_k 20"
	case strings.EqualFold(word, "MESSAGE") && (pe == nil || rest == ""):
		e.Detail = "MESSAGE needs a role (system, user or assistant) and a text, e.g. MESSAGE user Hello"
	case pe != nil && rest != "":
		e.Detail = pe.Msg // Ollama's words: a MESSAGE role it does not know
	default:
		e.Detail = "a value is missing after it"
	}
	return e
}

// isDirective reports whether Ollama's parser knows word as a directive (its
// list is unexported): it refuses an unknown one with a ParserError before it
// reads any value.
func isDirective(word string) bool {
	_, err := parseOllama(word + " x")
	var pe *parser.ParserError
	return !errors.As(err, &pe)
}

// commandStarts is the line (from 1) where each command of text starts, in
// the order Ollama's parser returns them. The parser gives no lines, so it is
// asked about each prefix of whole lines: a prefix parses when it ends where a
// command ends, and the next command starts on the next line that is neither
// blank nor a comment. Only a refusal asks (a Modelfile is a few dozen lines).
func commandStarts(text string) []int {
	lines := strings.Split(text, "\n")
	var starts []int
	ended := 0 // lines before the next command
	for k := 1; k <= len(lines); k++ {
		f, err := parseOllama(strings.Join(lines[:k], "\n"))
		if err != nil {
			continue
		}
		for len(starts) < len(f.Commands)-1 { // the last is importFrom
			starts = append(starts, firstContent(lines, ended)+1)
		}
		ended = k
	}
	return starts
}

// errorLine is the line (from 1) where the command Ollama's parser refuses in
// text starts: the first with content after the longest prefix of whole lines
// that parses (every prefix that reaches the refused place fails).
func errorLine(text string) int {
	lines := strings.Split(text, "\n")
	ok := 0
	for k := 1; k <= len(lines); k++ {
		if _, err := parseOllama(strings.Join(lines[:k], "\n")); err == nil {
			ok = k
		}
	}
	return firstContent(lines, ok) + 1
}

// firstContent is the index of the first line at or after from that is
// neither blank nor a comment (from itself when there is none).
func firstContent(lines []string, from int) int {
	for i := from; i < len(lines); i++ {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "#") {
			return i
		}
	}
	return min(from, len(lines)-1)
}

// lineAt is line n (from 1) of text.
func lineAt(text string, n int) string {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// firstWord is the first word of line n (from 1) of text, as written.
func firstWord(text string, n int) string {
	if f := strings.Fields(lineAt(text, n)); len(f) > 0 {
		return f[0]
	}
	return ""
}
