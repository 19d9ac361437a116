package text

import (
	"reflect"
	"testing"
	"time"
)

func TestStemPorter(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "agreed": "agre", "plastered": "plaster",
		"motoring": "motor", "hopping": "hop", "filing": "file", "happy": "happi", "relational": "relat",
		"generalization": "gener", "hopeful": "hope", "goodness": "good", "adjustment": "adjust",
		"nurse": "nurs", "nursing": "nurs", "nurses": "nurs", "driving": "drive", "drives": "drive",
		"working": "work", "worked": "work", "controll": "control", "rate": "rate", "is": "is", "café": "café",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestTermsSegmentsAndDropsStopwords(t *testing.T) {
	var got []string
	for _, x := range Terms("What is my sister's job? 我的工作是什么") {
		got = append(got, x.Text)
	}
	want := []string{"sister", "job", "工作"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Terms = %q; want %q", got, want)
	}
}

func TestConceptsBridgeParaphrase(t *testing.T) {
	for in, want := range map[string]string{
		"what is my job?": "job", "I work as a nurse": "job", "我的猫叫什么": "pet", "do I have any pets": "pet",
		"I jog every morning": "sport",
	} {
		if cs := Concepts(in); !contains(cs, want) {
			t.Errorf("Concepts(%q) = %v; want %s among them", in, cs, want)
		}
	}
	if cs := Concepts("the weather is nice"); len(cs) != 0 {
		t.Errorf("Concepts of an unrelated sentence = %v", cs)
	}
}

func TestWhen(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC) // a Friday
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		in       string
		from, to time.Time
		rest     string
	}{
		{"what did I do last May?", d(2026, 5, 1), d(2026, 6, 1), "what did i do  ?"},
		{"where was I in December", d(2025, 12, 1), d(2026, 1, 1), ""},
		{"trip in May 2024", d(2024, 5, 1), d(2024, 6, 1), ""},
		{"what did I buy last week", d(2026, 11, 9), d(2026, 11, 16), ""},
		{"dinner yesterday", d(2026, 11, 19), d(2026, 11, 20), ""},
		{"three months ago", d(2026, 8, 4), d(2026, 9, 6), ""},
		{"去年我去了哪里", d(2025, 1, 1), d(2026, 1, 1), ""},
		{"去年五月做了什么", d(2025, 5, 1), d(2025, 6, 1), ""},
		{"上个月", d(2026, 10, 1), d(2026, 11, 1), ""},
		{"in 2024", d(2024, 1, 1), d(2025, 1, 1), ""},
		{"last summer", d(2026, 6, 1), d(2026, 9, 1), ""},
		{"this weekend plans", d(2026, 11, 21), d(2026, 11, 23), "  plans"},
		{"last weekend", d(2026, 11, 14), d(2026, 11, 16), ""},
		{"next June trip", d(2027, 6, 1), d(2027, 7, 1), ""},
		{"March 2022 trip", d(2022, 3, 1), d(2022, 4, 1), "  trip"},
		{"上周末", d(2026, 11, 14), d(2026, 11, 16), ""},
		{"本周", d(2026, 11, 16), d(2026, 11, 23), ""},
		{"前天", d(2026, 11, 18), d(2026, 11, 19), ""},
		{"2021年", d(2021, 1, 1), d(2022, 1, 1), ""},
	}
	for _, c := range cases {
		spans, rest := When(c.in, now)
		if len(spans) != 1 || !spans[0].From.Equal(c.from) || !spans[0].To.Equal(c.to) {
			t.Errorf("When(%q) = %+v; want [%v, %v)", c.in, spans, c.from, c.to)
		}
		if c.rest != "" && rest != c.rest {
			t.Errorf("When(%q) rest = %q; want %q", c.in, rest, c.rest)
		}
	}
	if spans, _ := When("may I ask what my job is", now); len(spans) != 0 {
		t.Errorf("modal 'may' taken as a month: %+v", spans)
	}
}
