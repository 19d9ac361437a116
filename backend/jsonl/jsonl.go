// Package jsonl reads JSON Lines: each line is numbered, blank lines are skipped,
// and a bad line is reported by its number. Decode reads a whole import before
// anything is written, so an import is all or nothing.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// LineError is a bad line, by its 1-based number.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Lines calls fn with each non-blank line of r and its number, and stops at fn's
// first error. A line longer than maxLine bytes is a LineError.
func Lines(r io.Reader, maxLine int, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine) // the larger of the two is the limit
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if !utf8.Valid(sc.Bytes()) {
			return &LineError{Line: n, Err: errors.New("is not valid UTF-8; save the file as UTF-8")}
		}
		if err := fn(n, sc.Bytes()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("the line is longer than %d KiB", maxLine>>10)
		}
		return &LineError{Line: n + 1, Err: err}
	}
	return nil
}

// hasNUL reports whether a string in the JSON line holds U+0000 (written as
// \u0000): SQLite and the UI would cut the text there.
func hasNUL(line []byte) bool {
	if !bytes.Contains(line, []byte(`\u0000`)) {
		return false // the only way a valid JSON line can hold one
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && strings.ContainsRune(s, 0) {
			return true
		}
	}
}

// Options shape Decode.
type Options struct {
	MaxLine int // the longest line, in bytes
	// Strict refuses fields the type does not have.
	Strict bool
	// Shape says what a line should be, for lines that are not such JSON
	// ("a JSON object with id and text").
	Shape string
	// MaxErrors is how many bad lines are named (default 20); the rest are counted.
	MaxErrors int
}

// Decode reads every line of r into a T and checks it with check. It returns the
// values when every line is good, or an error joining a LineError for each bad line.
func Decode[T any](r io.Reader, o Options, check func(n int, v T) error) ([]T, error) {
	if o.MaxErrors <= 0 {
		o.MaxErrors = 20
	}
	var out []T
	var errs []error
	bad := 0
	fail := func(n int, err error) {
		if bad++; bad <= o.MaxErrors {
			errs = append(errs, &LineError{Line: n, Err: err})
		}
	}
	err := Lines(r, o.MaxLine, func(n int, line []byte) error {
		var v T
		dec := json.NewDecoder(bytes.NewReader(line))
		if o.Strict {
			dec.DisallowUnknownFields()
		}
		if err := dec.Decode(&v); err != nil {
			fail(n, fmt.Errorf("not %s: %v", o.Shape, err))
			return nil
		}
		if _, err := dec.Token(); err != io.EOF {
			fail(n, fmt.Errorf("not %s: more follows the object on the same line (one object per line)", o.Shape))
			return nil
		}
		if hasNUL(line) {
			fail(n, errors.New(`a text holds a NUL character (\u0000); remove it`))
			return nil
		}
		if err := check(n, v); err != nil {
			fail(n, err)
			return nil
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if bad > o.MaxErrors {
		errs = append(errs, fmt.Errorf("and %d more bad lines", bad-o.MaxErrors))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}
