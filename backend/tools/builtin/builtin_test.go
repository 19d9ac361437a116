package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/tools"
)

// runTool calls a built-in through a real registry and executor, as the model would.
func runTool(t *testing.T, d Deps, name, args string) tools.Outcome {
	t.Helper()
	reg := tools.NewRegistry()
	if err := Register(reg, d); err != nil {
		t.Fatal(err)
	}
	o, _ := tools.NewExecutor(reg, tools.Config{}).NewTurn(tools.TurnInfo{}).
		Run(context.Background(), llm.ToolCall{Name: name, Arguments: json.RawMessage(args)})
	return o
}

func TestRegister(t *testing.T) {
	reg := tools.NewRegistry()
	if err := Register(reg, Deps{Search: func(context.Context, string, int) ([]SearchHit, error) { return nil, nil }}); err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckSchemas(); err != nil { // compiled when first called: they must compile
		t.Fatal(err)
	}
	var names []string
	for _, in := range reg.List() {
		names = append(names, in.Name)
		if in.NeedsApproval || !in.Annotations.ReadOnly {
			t.Errorf("%s should be read-only and never ask", in.Name)
		}
	}
	if got := strings.Join(names, ","); got != "calculator,convert_units,current_time,session_search" {
		t.Fatalf("tools = %s", got)
	}
	if got := len(reg.Schemas(reg.InGroup(tools.GroupReadOnly))); got != 4 {
		t.Fatalf("read-only group has %d tools", got)
	}
	t.Run("without a search function there is no session_search", func(t *testing.T) {
		reg := tools.NewRegistry()
		if err := Register(reg, Deps{}); err != nil {
			t.Fatal(err)
		}
		if _, ok := reg.Get("session_search"); ok {
			t.Fatal("registered")
		}
	})
}

func TestClock(t *testing.T) {
	at := time.Date(2026, 1, 31, 23, 30, 0, 0, time.UTC) // Saturday in UTC, already Sunday in Shanghai
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{Now: func() time.Time { return at }, Location: paris}
	tests := []struct {
		name, args string
		want       ClockResult
		wantErr    string
	}{
		{name: "the user's zone by default", args: `{}`, want: ClockResult{Datetime: "2026-02-01T00:30:00+01:00", Date: "2026-02-01",
			Time: "00:30:00", Weekday: "Sunday", Timezone: "Europe/Paris", UTCOffset: "+01:00", Unix: at.Unix()}},
		{name: "named zone", args: `{"timezone":"Asia/Shanghai"}`, want: ClockResult{Datetime: "2026-02-01T07:30:00+08:00", Date: "2026-02-01",
			Time: "07:30:00", Weekday: "Sunday", Timezone: "Asia/Shanghai", UTCOffset: "+08:00", Unix: at.Unix()}},
		{name: "zone behind UTC", args: `{"timezone":"America/New_York"}`, want: ClockResult{Datetime: "2026-01-31T18:30:00-05:00", Date: "2026-01-31",
			Time: "18:30:00", Weekday: "Saturday", Timezone: "America/New_York", UTCOffset: "-05:00", Unix: at.Unix()}},
		{name: "UTC", args: `{"timezone":"UTC"}`, want: ClockResult{Datetime: "2026-01-31T23:30:00Z", Date: "2026-01-31",
			Time: "23:30:00", Weekday: "Saturday", Timezone: "UTC", UTCOffset: "+00:00", Unix: at.Unix()}},
		{name: "unknown zone", args: `{"timezone":"Mars/Olympus"}`, wantErr: "unknown time zone"},
		{name: "path tricks", args: `{"timezone":"../../etc/passwd"}`, wantErr: "unknown time zone"},
		{name: "unexpected argument", args: `{"tz":"UTC"}`, wantErr: "invalid_arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runTool(t, d, "current_time", tt.args)
			if tt.wantErr != "" {
				if o.OK() || !strings.Contains(o.Content, tt.wantErr) {
					t.Fatalf("outcome = %s %s", o.Status, o.Content)
				}
				return
			}
			var got ClockResult
			if err := json.Unmarshal(o.Result, &got); err != nil || got != tt.want {
				t.Fatalf("got %+v (%v, %s)\nwant %+v", got, err, o.Content, tt.want)
			}
		})
	}
}

func TestEval(t *testing.T) {
	tests := []struct {
		expr string
		want float64
	}{
		{"1+2*3", 7},
		{"(1+2)*3", 9},
		{"10/4", 2.5},
		{"10 % 4", 2},
		{"-7 % 3", -1},
		{"2^10", 1024},
		{"2**10", 1024},
		{"2^3^2", 512}, // right-associative
		{"-2^2", -4},   // unary minus binds looser than ^
		{"2^-1", 0.5},
		{"--3", 3},
		{"-(2+3)", -5},
		{"+4", 4},
		{"1e3 + .5", 1000.5},
		{"2.5E-1", 0.25},
		{"sqrt(16) + abs(-3)", 7},
		{"round(2.345, 2)", 2.35},
		{"round(2.5)", 3},
		{"round(1234, -2)", 1200},
		{"min(3, 1, 2) + max(3, 1, 2)", 4},
		{"max(5)", 5},
		{"floor(2.7) + ceil(2.1)", 5},
		{"ln(e)", 1},
		{"log10(1000)", 3},
		{"exp(0)", 1},
		{"pi", math.Pi},
		{"PI * 2", 2 * math.Pi},
		{"3 × 4 ÷ 2", 6},
		{"5 − 2", 3},
		{" 1 +\t2\n", 3},
		{"0.1 + 0.2", 0.30000000000000004},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := Eval(tt.expr)
			if err != nil || math.Abs(got-tt.want) > 1e-12 {
				t.Fatalf("Eval(%q) = %v, %v; want %v", tt.expr, got, err, tt.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct {
		expr, want string
		pos        int
	}{
		{"", "empty", 0},
		{"1 / 0", "division by zero", 3},
		{"5 % (2-2)", "division by zero", 3},
		{"1 +", "ends too early", 4},
		{"(1 + 2", "expected ')' to close the '(' at character 1", 7},
		{"1 + 2)", "unexpected \")\"", 6},
		{"2 3", "unexpected number 3", 3},
		{"foo(1)", `unknown name "foo"`, 1},
		{"sqrt(-1)", "not a real number", 1},
		{"sqrt(1, 2)", "takes 1 argument, got 2", 1},
		{"min()", "at least 1 arguments, got 0", 1},
		{"sqrt 4", "is a function", 6},
		{"round(1, 0.5)", "whole number", 1},
		{"ln(0)", "positive", 1},
		{"1 $ 2", "unexpected character '$'", 3},
		{"1..2", "not a number", 1},
		{"10^400", "not a finite number", 0},
		{"import os", `unknown name "import"`, 1},
		{strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100), "nested too deeply", 0},
		{strings.Repeat("-", 100) + "1", "nested too deeply", 0},
		{strings.Repeat("1+", 600) + "1", "too long", 0},
		{"\xff", "UTF-8", 1},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := Eval(tt.expr)
			var ee *ExprError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Eval(%q) error = %v; want %q", tt.expr, err, tt.want)
			}
			if tt.pos > 0 && ee.Pos != tt.pos {
				t.Fatalf("position = %d; want %d (%v)", ee.Pos, tt.pos, err)
			}
		})
	}
	t.Run("division by zero is a kind", func(t *testing.T) {
		if _, err := Eval("1/0"); !errors.Is(err, ErrDivisionByZero) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestCalculatorTool(t *testing.T) {
	tests := []struct {
		name, args, want string
		ok               bool
	}{
		{"result", `{"expression":"(17.5 * 3 - 2) / 4"}`, `{"expression":"(17.5 * 3 - 2) / 4","result":12.625}`, true},
		{"float noise is hidden", `{"expression":"0.1+0.2"}`, `{"expression":"0.1+0.2","result":0.3}`, true},
		{"big whole number", `{"expression":"2^53"}`, `"result":9007199254740992`, true},
		{"huge number", `{"expression":"10^300"}`, `"result":1e+300`, true},
		{"error reaches the model", `{"expression":"1/0"}`, "division by zero", false},
		{"empty expression is invalid", `{"expression":""}`, "invalid_arguments", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runTool(t, Deps{}, "calculator", tt.args)
			if o.OK() != tt.ok || !strings.Contains(o.Content, tt.want) {
				t.Fatalf("outcome = %s %s; want %q", o.Status, o.Content, tt.want)
			}
		})
	}
}

func TestConvert(t *testing.T) {
	tests := []struct {
		value    float64
		from, to string
		want     string
		category string
	}{
		{1, "km", "m", "1000", "length"},
		{26.2, "miles", "km", "42.1648128", "length"},
		{12, "in", "cm", "30.48", "length"},
		{6, "ft", "m", "1.8288", "length"},
		{5, "公里", "米", "5000", "length"},
		{1, "lb", "kg", "0.45359237", "mass"},
		{1000, "g", "oz", "35.2739619496", "mass"},
		{1, "斤", "g", "500", "mass"},
		{100, "°C", "°F", "212", "temperature"},
		{-40, "F", "C", "-40", "temperature"},
		{0, "K", "celsius", "-273.15", "temperature"},
		{98.6, "fahrenheit", "C", "37", "temperature"},
		{1, "gal", "L", "3.785411784", "volume"},
		{2, "cups", "mL", "473.176473", "volume"},
		{100, "km/h", "mph", "62.1371192237", "speed"},
		{10, "knots", "km/h", "18.52", "speed"},
		{1, "GiB", "MB", "1073.741824", "data size"},
		{1, "GB", "MiB", "953.674316406", "data size"},
		{8, "bits", "B", "1", "data size"},
		{100, "Mbit", "MB", "12.5", "data size"},
		{1, "KILOMETER", "m", "1000", "length"},
		{1, "mb", "kb", "1000", "data size"},
	}
	for _, tt := range tests {
		t.Run(tt.from+" to "+tt.to, func(t *testing.T) {
			got, err := Convert(tt.value, tt.from, tt.to)
			if err != nil || string(got.Result) != tt.want || got.Category != tt.category {
				t.Fatalf("Convert(%v, %s, %s) = %+v, %v; want %s (%s)", tt.value, tt.from, tt.to, got, err, tt.want, tt.category)
			}
		})
	}
	errs := []struct {
		value    float64
		from, to string
		want     string
	}{
		{1, "km", "kg", "cannot convert length (km) to mass (kg)"},
		{1, "furlong", "m", `unknown unit "furlong"`},
		{1, "m", "parsec", "length: "},
		{-300, "C", "K", "below absolute zero"},
		{1e308, "t", "mg", "too large"},
	}
	for _, tt := range errs {
		t.Run("error "+tt.want, func(t *testing.T) {
			if _, err := Convert(tt.value, tt.from, tt.to); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
	t.Run("through the executor", func(t *testing.T) {
		o := runTool(t, Deps{}, "convert_units", `{"value":3,"from":"mi","to":"km"}`)
		if !o.OK() || o.Content != `{"value":3,"from":"mi","to":"km","result":4.828032,"category":"length"}` {
			t.Fatalf("outcome = %s %s", o.Status, o.Content)
		}
	})
}

func TestSessionSearch(t *testing.T) {
	created := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	var gotQuery string
	var gotLimit int
	search := func(_ context.Context, q string, limit int) ([]SearchHit, error) {
		gotQuery, gotLimit = q, limit
		switch q {
		case "boom":
			return nil, errors.New("index offline")
		case "none":
			return nil, nil
		}
		return []SearchHit{{SessionID: "s1", MessageID: "m1", Role: "user", Snippet: "my [dentist] is Dr Li", Score: 3.5, CreatedAt: created}}, nil
	}
	tests := []struct {
		name, args, want string
		limit            int
		ok               bool
	}{
		{"hits", `{"query":"dentist"}`, `{"query":"dentist","hits":[{"session_id":"s1","message_id":"m1","role":"user","snippet":"my [dentist] is Dr Li","score":3.5,"created_at":"2026-02-03T04:05:06Z"}]}`, 5, true},
		{"limit passed on", `{"query":"dentist","limit":12}`, `"hits"`, 12, true},
		{"no hits is an empty list", `{"query":"none"}`, `{"query":"none","hits":[]}`, 5, true},
		{"search failure is a tool error", `{"query":"boom"}`, "index offline", 5, false},
		{"limit out of range is invalid", `{"query":"x","limit":500}`, "invalid_arguments", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotLimit = 0
			o := runTool(t, Deps{Search: search}, "session_search", tt.args)
			if o.OK() != tt.ok || !strings.Contains(o.Content, tt.want) || gotLimit != tt.limit {
				t.Fatalf("outcome = %s %s (limit %d); want %q", o.Status, o.Content, gotLimit, tt.want)
			}
		})
	}
	_ = gotQuery
}
