package jsonl

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type row struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

func TestDecodeNamesEveryBadLineAndReturnsNothing(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"a","text":"fine"}`,
		``,
		`{"id":"b"`,
		`{"id":"","text":"no id"}`,
		`{"id":"c","text":"x","extra":1}`,
		`{"id":"e","text":"x"}{"id":"f","text":"y"}`,
		`  {"id":"g","text":"x"}}`,
		`   `,
		`{"id":"d","text":"fine too"}`,
	}, "\n")
	check := func(_ int, r row) error {
		if r.ID == "" {
			return errors.New(`"id" is missing`)
		}
		return nil
	}
	_, err := Decode(strings.NewReader(in), Options{MaxLine: 1 << 10, Strict: true, Shape: "a row"}, check)
	if err == nil {
		t.Fatal("bad lines were accepted")
	}
	for _, want := range []string{"line 3: not a row", `line 4: "id" is missing`, `line 5: not a row: json: unknown field "extra"`,
		"line 6: not a row: more follows", "line 7: not a row"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 {
		t.Fatalf("first line error = %+v", le)
	}
	// Lenient: unknown fields are ignored; blank lines are skipped.
	got, err := Decode(strings.NewReader(`{"id":"a","text":"x","extra":1}`+"\n\n"+`{"id":"b","text":"y"}`), Options{MaxLine: 1 << 10}, check)
	if err != nil || len(got) != 2 || got[1].ID != "b" {
		t.Fatalf("lenient = %+v, %v", got, err)
	}
}

func TestDecodeCountsBadLinesPastTheLimit(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 25; i++ {
		fmt.Fprintln(&b, "not json")
	}
	_, err := Decode(strings.NewReader(b.String()), Options{MaxLine: 1 << 10, Shape: "a row", MaxErrors: 20}, func(int, row) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 20:") || strings.Contains(err.Error(), "line 21:") || !strings.Contains(err.Error(), "and 5 more bad lines") {
		t.Fatalf("err = %v", err)
	}
}

func TestLinesNamesALineThatIsTooLong(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 2<<10) + "\n"
	var seen []int
	err := Lines(strings.NewReader(in), 1<<10, func(n int, _ []byte) error { seen = append(seen, n); return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "longer than 1 KiB") || len(seen) != 1 {
		t.Fatalf("err = %v, seen %v", err, seen)
	}
}

func TestDecodeRefusesNULAndInvalidUTF8(t *testing.T) {
	ok := func(int, row) error { return nil }
	cases := []struct {
		name, in, want string
	}{
		{"NUL escape in a text", "{\"id\":\"a\",\"text\":\"fine\"}\n{\"id\":\"b\",\"text\":\"cut\\u0000here\"}\n", `line 2: a text holds a NUL character`},
		{"escaped backslash is no NUL", "{\"id\":\"a\",\"text\":\"C:\\\\u0000dir\"}\n", ""},
		{"invalid UTF-8", "{\"id\":\"a\",\"text\":\"fine\"}\n{\"id\":\"b\",\"text\":\"caf\xe9\"}\n", `line 2: is not valid UTF-8`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Decode(strings.NewReader(c.in), Options{MaxLine: 1 << 10, Shape: "a row"}, ok)
			if c.want == "" {
				if err != nil || len(got) != 1 || got[0].Text != `C:\u0000dir` {
					t.Fatalf("got %+v, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
				t.Fatalf("got %+v, %v; want an error with %q and nothing decoded", got, err, c.want)
			}
		})
	}
}

// TestEachFeedsGoodLinesUntilABadOne: Each counts every good line, hands fn
// only those before the first bad one, and names the bad ones.
func TestEachFeedsGoodLinesUntilABadOne(t *testing.T) {
	in := `{"id":"a","text":"x"}` + "\n\n" + `{"id":"b","text":"y"}` + "\nnot json\n" + `{"id":"c","text":"z"}` + "\n"
	var fed []int
	good, err := Each(strings.NewReader(in), Options{MaxLine: 1 << 10, Shape: "a row"}, func(int, row) error { return nil },
		func(n int, r row) { fed = append(fed, n) })
	if good != 3 || fmt.Sprint(fed) != "[1 3]" || err == nil || !strings.Contains(err.Error(), "line 4: not a row") {
		t.Fatalf("good %d, fed %v, err %v", good, fed, err)
	}
}

// TestReaderNumbersLinesAndStopsAtALongOne: Next skips blank lines, keeps the
// file's numbering, and a line over the limit ends it with a LineError.
func TestReaderNumbersLinesAndStopsAtALongOne(t *testing.T) {
	r := NewReader(strings.NewReader("a\n\n  \nb\n"+strings.Repeat("x", 2<<10)+"\nc\n"), 1<<10)
	var got []string
	for n, line, ok := r.Next(); ok; n, line, ok = r.Next() {
		got = append(got, fmt.Sprintf("%d:%s", n, line))
	}
	var le *LineError
	if fmt.Sprint(got) != "[1:a 4:b]" || !errors.As(r.Err(), &le) || le.Line != 5 {
		t.Fatalf("lines %v, err %v", got, r.Err())
	}
}
