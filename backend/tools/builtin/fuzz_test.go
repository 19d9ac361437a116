package builtin

import (
	"errors"
	"math"
	"testing"
)

// FuzzEval feeds arbitrary text to the calculator's parser: it never panics, and
// it returns either a finite number or an *ExprError.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"1+2*3", "(1+2)*3", "-2^2", "2^3^2", "2**-1", "sqrt(16)+abs(-3)", "round(2.345, 2)", "min(1,2,3)", "max()",
		"1/0", "5%0", "((((1))))", "1e308*10", "pi*e", "3 × 4 ÷ 2", "--+-1", "1..2", ".5+.", "round(1,", "sqrt", "foo(1)",
		"1e", "1e+", "9999999999999999999999", "\xff", "ln(-1)", "", ")", "(", ",", "1,2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Eval(expr)
		if err != nil {
			var ee *ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Eval(%q) error %T is not an *ExprError: %v", expr, err, err)
			}
			if ee.Error() == "" {
				t.Fatalf("Eval(%q): empty error message", expr)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("Eval(%q) = %v: not finite", expr, v)
		}
		if s := formatNumber(v); s == "" {
			t.Fatalf("formatNumber(%v) is empty", v)
		}
	})
}
