// Package jsonl reads JSON Lines: each line is numbered, blank lines are skipped,
// and a bad line is reported by its number. Each checks a whole import before
// anything is written (holding one line at a time), so an import is all or
// nothing; Decode also keeps the values, for files that are small.
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

// Reader reads the non-blank lines of a JSON Lines file one at a time, with
// their numbers, holding no more than the longest line.
type Reader struct {
	sc      *bufio.Scanner
	maxLine int
	n       int
	err     error
}

// NewReader reads r's lines; a line longer than maxLine bytes is a LineError.
func NewReader(r io.Reader, maxLine int) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine) // the larger of the two is the limit
	return &Reader{sc: sc, maxLine: maxLine}
}

// Next returns the next non-blank line (valid only until the next call) and its
// 1-based number; ok is false at the end or at an error (Err).
func (r *Reader) Next() (n int, line []byte, ok bool) {
	for r.err == nil && r.sc.Scan() {
		r.n++
		if len(bytes.TrimSpace(r.sc.Bytes())) == 0 {
			continue
		}
		if !utf8.Valid(r.sc.Bytes()) {
			r.err = &LineError{Line: r.n, Err: errors.New("is not valid UTF-8; save the file as UTF-8")}
			return 0, nil, false
		}
		return r.n, r.sc.Bytes(), true
	}
	if err := r.sc.Err(); err != nil && r.err == nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("the line is longer than %d KiB", r.maxLine>>10)
		}
		r.err = &LineError{Line: r.n + 1, Err: err}
	}
	return 0, nil, false
}

// Err is what stopped Next early: a line too long or not UTF-8 (a LineError),
// or the reader's own error.
func (r *Reader) Err() error { return r.err }

// Lines calls fn with each non-blank line of r and its number, and stops at fn's
// first error. A line longer than maxLine bytes is a LineError.
func Lines(r io.Reader, maxLine int, fn func(n int, line []byte) error) error {
	lr := NewReader(r, maxLine)
	for n, line, ok := lr.Next(); ok; n, line, ok = lr.Next() {
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return lr.Err()
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

// DecodeLine decodes one line into a T as Decode does: one JSON object (with
// no field T lacks when Strict), no NUL in its strings.
func DecodeLine[T any](line []byte, o Options) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(line))
	if o.Strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("not %s: %v", o.Shape, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, fmt.Errorf("not %s: more follows the object on the same line (one object per line)", o.Shape)
	}
	if hasNUL(line) {
		return v, errors.New(`a text holds a NUL character (\u0000); remove it`)
	}
	return v, nil
}

// Each reads every line of r into a T, checks it with check, and hands fn each
// good line while no line before it was bad (fn may be nil). It returns how
// many lines were good, and an error joining a LineError for each bad line (the
// first MaxErrors named, the rest counted). Only one line is held at a time.
func Each[T any](r io.Reader, o Options, check func(n int, v T) error, fn func(n int, v T)) (int, error) {
	if o.MaxErrors <= 0 {
		o.MaxErrors = 20
	}
	var errs []error
	good, bad := 0, 0
	err := Lines(r, o.MaxLine, func(n int, line []byte) error {
		v, err := DecodeLine[T](line, o)
		if err == nil {
			err = check(n, v)
		}
		if err != nil {
			if bad++; bad <= o.MaxErrors {
				errs = append(errs, &LineError{Line: n, Err: err})
			}
			return nil
		}
		good++
		if bad == 0 && fn != nil {
			fn(n, v)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if bad > o.MaxErrors {
		errs = append(errs, fmt.Errorf("and %d more bad lines", bad-o.MaxErrors))
	}
	return good, errors.Join(errs...)
}

// Decode reads every line of r into a T and checks it with check. It returns the
// values when every line is good, or an error joining a LineError for each bad line.
func Decode[T any](r io.Reader, o Options, check func(n int, v T) error) ([]T, error) {
	var out []T
	if _, err := Each(r, o, check, func(_ int, v T) { out = append(out, v) }); err != nil {
		return nil, err
	}
	return out, nil
}
