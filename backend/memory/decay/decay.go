// Package decay holds the rule for how fast a remembered fact fades: a half-life
// per category, written by the user as a setting ("health=90d,preference=30d").
// It is pure (no database) so the settings and the memory store share one copy.
package decay

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultLambda is the decay rate per hour of a category without a default
// half-life of its own (none of Categories today): a half-life of about 35 hours.
const DefaultLambda = 0.02

const day = 24 * time.Hour

// defaultHalfLives are the half-lives a person would expect when nothing is
// set: what lasts (who someone is, their family, health, work and settled
// likes) keeps for months, until changed; where they are and what they own for
// weeks to months; plans and goals for weeks; appointments and passing states
// fade in days. A fact stated with confidence 0.9 is archived after about 1.6
// half-lives (0.9 → 0.3, the archive threshold): identity and relationships
// after about 19 months, health and work after 9½, preferences after 6½, a
// schedule item after about 3 days.
var defaultHalfLives = map[string]time.Duration{
	"identity":     365 * day,
	"relationship": 365 * day,
	"health":       180 * day,
	"work":         180 * day,
	"preference":   120 * day,
	"possession":   90 * day,
	"location":     60 * day,
	"goal":         30 * day,
	"other":        14 * day,
	"schedule":     2 * day,
}

// DefaultHalfLifeOf is a category's half-life when the user set none (the
// DefaultLambda one for a category without a default).
func DefaultHalfLifeOf(category string) time.Duration {
	if d, ok := defaultHalfLives[category]; ok {
		return d
	}
	return DefaultHalfLife()
}

// DefaultHalfLives are every category's default half-life.
func DefaultHalfLives() map[string]time.Duration {
	return maps.Clone(defaultHalfLives)
}

// Shortest and Longest bound a half-life the user may set.
const (
	Shortest = time.Hour
	Longest  = 3650 * 24 * time.Hour
)

// Categories are the categories a fact may have; each may decay at its own rate.
func Categories() []string {
	return []string{"identity", "preference", "health", "relationship", "work", "location", "schedule", "possession", "goal", "other"}
}

// CategoryEnum is Categories as a JSON array, for the JSON Schemas that offer them.
func CategoryEnum() string {
	b, _ := json.Marshal(Categories())
	return string(b)
}

// ValidCategory reports whether c is one of Categories.
func ValidCategory(c string) bool {
	for _, k := range Categories() {
		if k == c {
			return true
		}
	}
	return false
}

// CheckCategory refuses c unless it is one of Categories.
func CheckCategory(c string) error {
	if ValidCategory(c) {
		return nil
	}
	choices := strings.Join(Categories(), ", ")
	return refuse(RefusedCategory, map[string]string{"value": c, "choices": choices}, "%q is not a memory category; use one of %s", c, choices)
}

// DefaultHalfLife is the half-life DefaultLambda gives.
func DefaultHalfLife() time.Duration {
	h := math.Ln2 / DefaultLambda
	return time.Duration(h * float64(time.Hour))
}

// Lambda is the decay rate per hour of a half-life.
func Lambda(halfLife time.Duration) float64 {
	return math.Ln2 / halfLife.Hours()
}

// Reasons a half-life is refused (Refusal.Reason), with the params each names;
// the UI words them ("err.bad_setting.<reason>").
const (
	RefusedPair     = "not_half_life_pair" // value
	RefusedCategory = "not_category"       // value, choices
	RefusedHalfLife = "not_half_life"      // value
	RefusedRange    = "half_life_range"    // value, min, max
)

// Refusal is a half-life that does not parse: why, and the parts the UI's
// words name (a list's refusal also names the category it was for).
type Refusal struct {
	Reason string
	Params map[string]string
	msg    string
}

func (r *Refusal) Error() string { return r.msg }

func refuse(reason string, params map[string]string, format string, args ...any) error {
	return &Refusal{Reason: reason, Params: params, msg: fmt.Sprintf(format, args...)}
}

// outOfRange refuses a half-life v (as written or formatted) out of bounds.
func outOfRange(v string) error {
	return refuse(RefusedRange, map[string]string{"value": v, "min": "1h", "max": "3650d"}, "%s is out of range; use between 1h and 3650d", v)
}

// ParseHalfLife reads a half-life: Go durations (36h, 90m) or whole days and
// weeks (30d, 2w), between Shortest and Longest.
func ParseHalfLife(v string) (time.Duration, error) {
	v = strings.TrimSpace(strings.ToLower(v))
	var d time.Duration
	var err error
	switch {
	case strings.HasSuffix(v, "d") || strings.HasSuffix(v, "w"):
		n, perr := strconv.ParseFloat(v[:len(v)-1], 64)
		unit := 24 * time.Hour
		if strings.HasSuffix(v, "w") {
			unit *= 7
		}
		if perr != nil || n <= 0 || math.IsInf(n, 0) || math.IsNaN(n) {
			err = perr
			if err == nil {
				err = fmt.Errorf("not positive")
			}
			break
		}
		if n*float64(unit) > float64(Longest) {
			// Said as written: the duration itself may not fit in an int64.
			return 0, outOfRange(v)
		}
		d = time.Duration(n * float64(unit))
	default:
		d, err = time.ParseDuration(v)
		if err != nil && tooLong(v) {
			return 0, outOfRange(v)
		}
	}
	if err != nil {
		return 0, refuse(RefusedHalfLife, map[string]string{"value": v}, "%q is not a half-life; write it like 30d, 2w or 36h", v)
	}
	if d < Shortest || d > Longest {
		return 0, outOfRange(v) // as written: Format would make 10s "0h"
	}
	return d, nil
}

// tooLong reports whether v is a number with one Go duration unit (99999999h) too long for a
// time.Duration, which time.ParseDuration refuses as if it were not a duration at all.
func tooLong(v string) bool {
	for _, u := range []struct {
		suffix string
		unit   time.Duration
	}{{"ns", time.Nanosecond}, {"us", time.Microsecond}, {"µs", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}} {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			n, err := strconv.ParseFloat(num, 64)
			return err == nil && n*float64(u.unit) > float64(Longest)
		}
	}
	return false
}

// Format writes a half-life as the user reads it: whole days as 30d, else hours.
func Format(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	d = d.Round(time.Minute)
	h, m := int64(d/time.Hour), int64(d%time.Hour/time.Minute)
	switch {
	case m == 0:
		return strconv.FormatInt(h, 10) + "h"
	case h == 0:
		return strconv.FormatInt(m, 10) + "m"
	}
	return fmt.Sprintf("%dh%dm", h, m)
}

// ParseHalfLives reads "category=half-life" pairs separated by commas (empty: none).
func ParseHalfLives(v string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		cat, hl, ok := strings.Cut(part, "=")
		cat = strings.TrimSpace(strings.ToLower(cat))
		if !ok {
			return nil, refuse(RefusedPair, map[string]string{"value": part}, "%q is not category=half-life, e.g. health=90d", part)
		}
		if err := CheckCategory(cat); err != nil {
			return nil, err
		}
		d, err := ParseHalfLife(hl)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				return nil, fmt.Errorf("%s: %w", cat, err)
			}
			params := maps.Clone(r.Params)
			params["category"] = cat
			return nil, &Refusal{Reason: r.Reason, Params: params, msg: cat + ": " + r.msg}
		}
		out[cat] = d
	}
	return out, nil
}

// FormatHalfLives writes half-lives as ParseHalfLives reads them, in category order.
func FormatHalfLives(m map[string]time.Duration) string {
	cats := make([]string, 0, len(m))
	for c := range m {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	parts := make([]string, 0, len(cats))
	for _, c := range cats {
		parts = append(parts, c+"="+Format(m[c]))
	}
	return strings.Join(parts, ",")
}
