// Package lazyre is a regular expression compiled on its first use, not when
// the program starts: package-level expressions of Hermes (73 of them) cost
// every command a few milliseconds before main, whether it matches anything
// or not (docs/architecture.md, "Executables"). It follows Go's own
// cmd/go/internal/lazyregexp; under `go test` an expression is compiled at
// once, so a bad pattern still fails every test run.
package lazyre

import (
	"regexp"
	"sync"
	"testing"
)

// Regexp is a regexp.Regexp compiled on first use; it offers the methods
// Hermes calls.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// New is the expression str, compiled when first used (it panics then, as
// regexp.MustCompile does, on a bad pattern).
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if testing.Testing() {
		r.re()
	}
	return r
}

func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

// Regexp is the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp { return r.re() }

func (r *Regexp) String() string                 { return r.str }
func (r *Regexp) MatchString(s string) bool      { return r.re().MatchString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.re().FindSubmatch(b) }
