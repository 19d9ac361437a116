package lazyre

import "testing"

// An expression matches as regexp's does; under test a bad pattern panics at
// New, so no test run misses it.
func TestLazyRegexp(t *testing.T) {
	r := New(`(\d+)-(\d+)`)
	if !r.MatchString("a 12-34") || r.FindStringSubmatch("12-34")[2] != "34" || r.ReplaceAllString("1-2", "$2$1") != "21" {
		t.Fatal("does not match as regexp does")
	}
	if r.String() != `(\d+)-(\d+)` || r.Regexp() != r.Regexp() {
		t.Fatal("String or Regexp")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic under test")
		}
	}()
	New(`(`)
}
