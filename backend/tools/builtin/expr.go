package builtin

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits that keep one expression cheap.
const (
	maxExprLen   = 1000
	maxExprDepth = 64
)

// ErrDivisionByZero is returned for x/0 and x%0.
var ErrDivisionByZero = errors.New("division by zero")

// ExprError is a mistake in an expression, with where it is (1-based character).
type ExprError struct {
	Pos int
	Msg string
	Err error // a kind callers can test for, or nil
}

func (e *ExprError) Error() string {
	if e.Pos <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (at character %d)", e.Msg, e.Pos)
}

func (e *ExprError) Unwrap() error { return e.Err }

// Eval computes an arithmetic expression: numbers (1, 2.5, .5, 1e3), + - * / %
// and ^ (power, right-associative; ** also works), parentheses, unary minus, the
// constants pi and e, and the functions sqrt, abs, round(x[, digits]), min, max,
// floor, ceil, ln, log10 and exp. It is a recursive-descent parser: nothing is
// ever evaluated as code.
func Eval(expr string) (float64, error) {
	if strings.TrimSpace(expr) == "" {
		return 0, &ExprError{Msg: "the expression is empty"}
	}
	if len(expr) > maxExprLen {
		return 0, &ExprError{Msg: fmt.Sprintf("the expression is too long (%d characters; at most %d)", len(expr), maxExprLen)}
	}
	toks, err := lex(expr)
	if err != nil {
		return 0, err
	}
	p := &parser{toks: toks}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return 0, &ExprError{Pos: t.pos, Msg: fmt.Sprintf("unexpected %s", t)}
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, &ExprError{Msg: "the result is not a finite number (overflow or an undefined operation)"}
	}
	return v, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokIdent
	tokOp // + - * / % ^ ( ) ,
)

type token struct {
	kind tokKind
	pos  int // 1-based character
	text string
	num  float64
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + t.text
	case tokIdent:
		return fmt.Sprintf("name %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// lex splits the expression into tokens; × and ÷ are read as * and /.
func lex(s string) ([]token, error) {
	var toks []token
	pos := 0 // characters read
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		pos++
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, &ExprError{Pos: pos, Msg: "the expression is not valid UTF-8"}
		case unicode.IsSpace(r):
			i += size
		case r >= '0' && r <= '9' || r == '.':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') { // exponent, only when digits follow
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && s[k] >= '0' && s[k] <= '9' {
					for k < len(s) && s[k] >= '0' && s[k] <= '9' {
						k++
					}
					j = k
				}
			}
			text := s[i:j]
			n, err := strconv.ParseFloat(text, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) || strings.Count(text, ".") > 1 || text == "." {
				return nil, &ExprError{Pos: pos, Msg: fmt.Sprintf("%q is not a number", text)}
			}
			toks = append(toks, token{kind: tokNum, pos: pos, text: text, num: n})
			pos += utf8.RuneCountInString(text) - 1
			i = j
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && r2 != '_' {
					break
				}
				j += sz
			}
			text := s[i:j]
			toks = append(toks, token{kind: tokIdent, pos: pos, text: strings.ToLower(text)})
			pos += utf8.RuneCountInString(text) - 1
			i = j
		case r == '*' && strings.HasPrefix(s[i:], "**"):
			toks = append(toks, token{kind: tokOp, pos: pos, text: "^"})
			pos++
			i += 2
		case strings.ContainsRune("+-*/%^(),", r):
			toks = append(toks, token{kind: tokOp, pos: pos, text: string(r)})
			i += size
		case r == '×' || r == '÷' || r == '−':
			op := map[rune]string{'×': "*", '÷': "/", '−': "-"}[r]
			toks = append(toks, token{kind: tokOp, pos: pos, text: op})
			i += size
		default:
			return nil, &ExprError{Pos: pos, Msg: fmt.Sprintf("unexpected character %q", r)}
		}
	}
	return append(toks, token{kind: tokEOF, pos: pos + 1}), nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == s
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxExprDepth {
		return &ExprError{Pos: p.peek().pos, Msg: fmt.Sprintf("the expression is nested too deeply (at most %d levels)", maxExprDepth)}
	}
	return nil
}

// expr := term (('+' | '-') term)*
func (p *parser) expr() (float64, error) {
	if err := p.enter(); err != nil {
		return 0, err
	}
	defer func() { p.depth-- }()
	v, err := p.term()
	if err != nil {
		return 0, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.next()
		r, err := p.term()
		if err != nil {
			return 0, err
		}
		if op.text == "+" {
			v += r
		} else {
			v -= r
		}
	}
	return v, nil
}

// term := unary (('*' | '/' | '%') unary)*
func (p *parser) term() (float64, error) {
	v, err := p.unary()
	if err != nil {
		return 0, err
	}
	for p.isOp("*") || p.isOp("/") || p.isOp("%") {
		op := p.next()
		r, err := p.unary()
		if err != nil {
			return 0, err
		}
		switch op.text {
		case "*":
			v *= r
		case "/":
			if r == 0 {
				return 0, &ExprError{Pos: op.pos, Msg: "division by zero", Err: ErrDivisionByZero}
			}
			v /= r
		case "%":
			if r == 0 {
				return 0, &ExprError{Pos: op.pos, Msg: "remainder of a division by zero", Err: ErrDivisionByZero}
			}
			v = math.Mod(v, r)
		}
	}
	return v, nil
}

// unary := ('-' | '+') unary | power
func (p *parser) unary() (float64, error) {
	if p.isOp("-") || p.isOp("+") {
		if err := p.enter(); err != nil {
			return 0, err
		}
		defer func() { p.depth-- }()
		op := p.next()
		v, err := p.unary()
		if op.text == "-" {
			v = -v
		}
		return v, err
	}
	return p.power()
}

// power := primary ('^' unary)?   — so -2^2 is -4 and 2^-1 is 0.5, and 2^3^2 is 2^9
func (p *parser) power() (float64, error) {
	base, err := p.primary()
	if err != nil {
		return 0, err
	}
	if !p.isOp("^") {
		return base, nil
	}
	if err := p.enter(); err != nil {
		return 0, err
	}
	defer func() { p.depth-- }()
	p.next()
	exp, err := p.unary()
	if err != nil {
		return 0, err
	}
	return math.Pow(base, exp), nil
}

// primary := number | constant | function '(' args ')' | '(' expr ')'
func (p *parser) primary() (float64, error) {
	t := p.next()
	switch {
	case t.kind == tokNum:
		return t.num, nil
	case t.kind == tokOp && t.text == "(":
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if !p.isOp(")") {
			return 0, &ExprError{Pos: p.peek().pos, Msg: fmt.Sprintf("expected ')' to close the '(' at character %d, found %s", t.pos, p.peek())}
		}
		p.next()
		return v, nil
	case t.kind == tokIdent:
		if c, ok := constant(t.text); ok {
			return c, nil
		}
		f, ok := functions()[t.text]
		if !ok {
			return 0, &ExprError{Pos: t.pos, Msg: fmt.Sprintf("unknown name %q (functions: sqrt, abs, round, min, max, floor, ceil, ln, log10, exp; constants: pi, e)", t.text)}
		}
		args, err := p.args(t)
		if err != nil {
			return 0, err
		}
		if len(args) < f.min || (f.max >= 0 && len(args) > f.max) {
			return 0, &ExprError{Pos: t.pos, Msg: fmt.Sprintf("%s takes %s, got %d", t.text, f.arity(), len(args))}
		}
		v, err := f.fn(args)
		if err != nil {
			return 0, &ExprError{Pos: t.pos, Msg: fmt.Sprintf("%s: %v", t.text, err)}
		}
		return v, nil
	case t.kind == tokEOF:
		return 0, &ExprError{Pos: t.pos, Msg: "the expression ends too early: a number is missing"}
	}
	return 0, &ExprError{Pos: t.pos, Msg: fmt.Sprintf("unexpected %s", t)}
}

// args := '(' [expr (',' expr)*] ')'
func (p *parser) args(fn token) ([]float64, error) {
	if !p.isOp("(") {
		return nil, &ExprError{Pos: p.peek().pos, Msg: fmt.Sprintf("%s is a function: write %s(...)", fn.text, fn.text)}
	}
	open := p.next()
	var args []float64
	if p.isOp(")") {
		p.next()
		return args, nil
	}
	for {
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, v)
		if p.isOp(",") {
			p.next()
			continue
		}
		if p.isOp(")") {
			p.next()
			return args, nil
		}
		return nil, &ExprError{Pos: p.peek().pos, Msg: fmt.Sprintf("expected ',' or ')' to close the '(' at character %d, found %s", open.pos, p.peek())}
	}
}

func constant(name string) (float64, bool) {
	switch name {
	case "pi", "π":
		return math.Pi, true
	case "e":
		return math.E, true
	}
	return 0, false
}

type function struct {
	min, max int // max -1: any number
	fn       func([]float64) (float64, error)
}

func (f function) arity() string {
	switch {
	case f.max < 0:
		return fmt.Sprintf("at least %d arguments", f.min)
	case f.min == f.max && f.min == 1:
		return "1 argument"
	case f.min == f.max:
		return fmt.Sprintf("%d arguments", f.min)
	}
	return fmt.Sprintf("%d to %d arguments", f.min, f.max)
}

func one(fn func(float64) float64) function {
	return function{1, 1, func(a []float64) (float64, error) { return fn(a[0]), nil }}
}

// functions is built per call: it is small, and nothing package-level changes.
func functions() map[string]function {
	return map[string]function{
		"sqrt": {1, 1, func(a []float64) (float64, error) {
			if a[0] < 0 {
				return 0, errors.New("the square root of a negative number is not a real number")
			}
			return math.Sqrt(a[0]), nil
		}},
		"abs":   one(math.Abs),
		"floor": one(math.Floor),
		"ceil":  one(math.Ceil),
		"exp":   one(math.Exp),
		"ln": {1, 1, func(a []float64) (float64, error) {
			if a[0] <= 0 {
				return 0, errors.New("the logarithm is defined only for positive numbers")
			}
			return math.Log(a[0]), nil
		}},
		"log10": {1, 1, func(a []float64) (float64, error) {
			if a[0] <= 0 {
				return 0, errors.New("the logarithm is defined only for positive numbers")
			}
			return math.Log10(a[0]), nil
		}},
		"round": {1, 2, func(a []float64) (float64, error) {
			if len(a) == 1 {
				return math.Round(a[0]), nil
			}
			d := a[1]
			if d != math.Trunc(d) || d < -15 || d > 15 {
				return 0, errors.New("digits must be a whole number from -15 to 15")
			}
			scale := math.Pow(10, d)
			return math.Round(a[0]*scale) / scale, nil
		}},
		"min": {1, -1, func(a []float64) (float64, error) {
			m := a[0]
			for _, v := range a[1:] {
				m = math.Min(m, v)
			}
			return m, nil
		}},
		"max": {1, -1, func(a []float64) (float64, error) {
			m := a[0]
			for _, v := range a[1:] {
				m = math.Max(m, v)
			}
			return m, nil
		}},
	}
}
