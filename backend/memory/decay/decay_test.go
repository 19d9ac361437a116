package decay

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseHalfLives(t *testing.T) {
	m, err := ParseHalfLives(" Health=90d, preference=2w ,work=36h")
	if err != nil {
		t.Fatal(err)
	}
	if m["health"] != 90*24*time.Hour || m["preference"] != 14*24*time.Hour || m["work"] != 36*time.Hour {
		t.Fatalf("parsed %v", m)
	}
	if got := FormatHalfLives(m); got != "health=90d,preference=14d,work=36h" {
		t.Fatalf("formatted %q", got)
	}
	for in, want := range map[string]string{
		"mood=3d":      "not a memory category",
		"health":       "not category=half-life",
		"health=soon":  "not a half-life",
		"health=10m":   "10m is out of range",
		"health=-3d":   "not a half-life",
		"health=9999d": "out of range",
		// Too long for a time.Duration: said as written, not as an overflowed number.
		"health=999999w":   "999999w is out of range",
		"health=1e300d":    "1e300d is out of range",
		"health=99999999h": "99999999h is out of range",
		"health=1e30ms":    "1e30ms is out of range",
		"health=5xh":       "not a half-life",
	} {
		if _, err := ParseHalfLives(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseHalfLives(%q) = %v; want %q", in, err, want)
		}
	}
	if m, err := ParseHalfLives(""); err != nil || len(m) != 0 {
		t.Fatalf("empty = %v, %v", m, err)
	}
	if got := Format(DefaultHalfLife()); got != "34h39m" {
		t.Fatalf("default half-life = %s", got)
	}
	if got := Format(30 * time.Minute); got != "30m" {
		t.Fatalf("30 minutes = %s", got)
	}
}

// TestRefusalsSayWhy: each refusal carries its reason and the parts the UI's words
// name, found with errors.As through a list's wrapping.
func TestRefusalsSayWhy(t *testing.T) {
	for _, tc := range []struct {
		in, reason string
		params     map[string]string
	}{
		{"mood=3d", RefusedCategory, map[string]string{"value": "mood"}},
		{"health", RefusedPair, map[string]string{"value": "health"}},
		{"health=soon", RefusedHalfLife, map[string]string{"value": "soon", "category": "health"}},
		{"work=10s", RefusedRange, map[string]string{"value": "10s", "min": "1h", "max": "3650d", "category": "work"}},
	} {
		_, err := ParseHalfLives(tc.in)
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != tc.reason {
			t.Errorf("%q: %v (%#v)", tc.in, err, r)
			continue
		}
		for k, v := range tc.params {
			if r.Params[k] != v {
				t.Errorf("%q: %s = %q, want %q", tc.in, k, r.Params[k], v)
			}
		}
	}
	if r := (*Refusal)(nil); !errors.As(CheckCategory("mood"), &r) || !strings.Contains(r.Params["choices"], "health") {
		t.Errorf("CheckCategory: %#v", r)
	}
}
