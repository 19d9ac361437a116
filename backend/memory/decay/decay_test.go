package decay

import (
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
		"health=10m":   "out of range",
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
}
