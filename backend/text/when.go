package text

import (
	"hermes/backend/lazyre"
	"strconv"
	"strings"
	"time"
)

// Span is a time range a text refers to: [From, To).
type Span struct {
	From, To time.Time
	// Cue is the words that named it ("last may", "去年").
	Cue string
}

// Contains reports whether t falls in the span.
func (s Span) Contains(t time.Time) bool { return !t.Before(s.From) && t.Before(s.To) }

var monthNames = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
	"june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
	"october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

var cnMonths = map[string]time.Month{"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12}

var (
	reEnMonth  = lazyre.New(`\b(in|last|this|during|since|early|late|mid|of|next)\s+(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b(?:\s+(\d{4}))?`)
	reEnMonthY = lazyre.New(`\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{4})\b`)
	reEnRel    = lazyre.New(`\b(yesterday|today|tonight|last night|this morning|last week|this week|last weekend|this weekend|last month|this month|last year|this year|the year before last|last (?:summer|winter|spring|autumn|fall)|this (?:summer|winter|spring|autumn|fall))\b`)
	reEnAgo    = lazyre.New(`\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|\d+)\s+(day|week|month|year)s?\s+ago\b`)
	reEnYear   = lazyre.New(`\b(?:in|during|since)\s+((?:19|20)\d{2})\b`)
	reZhMonth  = lazyre.New(`(去年|今年|前年)?((?:十[一二]?|[一二三四五六七八九])|(?:1[0-2]|[1-9]))月(份)?`)
	reZhRel    = lazyre.New(`(昨天|今天|前天|上周末|上周|上星期|上个星期|这周|本周|上个月|上月|这个月|本月|去年|今年|前年)`)
	reZhYear   = lazyre.New(`((?:19|20)\d{2})年`)
)

var numWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "few": 3, "couple of": 2}

// When finds the time cues of s relative to now (in now's location) and returns
// the spans they name and s without them (so "last may" adds no search words).
// It knows English and Chinese: "yesterday", "last week", "in May", "last May",
// "May 2025", "three months ago", "in 2024", "last summer", "昨天", "上周",
// "上个月", "去年", "五月", "去年五月", "2024年".
func When(s string, now time.Time) ([]Span, string) {
	low := Fold(s)
	var spans []Span
	loc := now.Location()
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc) }
	today := day(now)
	monthStart := func(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, loc) }
	yearSpan := func(y int, cue string) Span {
		return Span{From: time.Date(y, 1, 1, 0, 0, 0, 0, loc), To: time.Date(y+1, 1, 1, 0, 0, 0, 0, loc), Cue: cue}
	}
	monthSpan := func(y int, m time.Month, cue string) Span {
		f := monthStart(y, m)
		return Span{From: f, To: f.AddDate(0, 1, 0), Cue: cue}
	}
	// recentMonth is the latest month m at or (strict) before now's month.
	recentMonth := func(m time.Month, strict bool) int {
		y := now.Year()
		if m > now.Month() || (strict && m == now.Month()) {
			y--
		}
		return y
	}
	weekStart := func(t time.Time) time.Time { // Monday
		wd := (int(t.Weekday()) + 6) % 7
		return day(t).AddDate(0, 0, -wd)
	}
	season := func(name string, y int) (time.Time, time.Time) {
		switch name {
		case "spring":
			return monthStart(y, 3), monthStart(y, 6)
		case "summer":
			return monthStart(y, 6), monthStart(y, 9)
		case "autumn", "fall":
			return monthStart(y, 9), monthStart(y, 12)
		}
		return monthStart(y, 12).AddDate(-1, 0, 0), monthStart(y, 3)
	}
	var cut [][2]int
	mark := func(loc []int) { cut = append(cut, [2]int{loc[0], loc[1]}) }
	overlaps := func(a, b int) bool {
		for _, c := range cut {
			if a < c[1] && b > c[0] {
				return true
			}
		}
		return false
	}

	for _, m := range reEnMonth.FindAllStringSubmatchIndex(low, -1) {
		pre, mon := low[m[2]:m[3]], monthNames[low[m[4]:m[5]]]
		cue := low[m[0]:m[1]]
		switch {
		case m[6] >= 0:
			y, _ := strconv.Atoi(low[m[6]:m[7]])
			spans = append(spans, monthSpan(y, mon, cue))
		case pre == "next":
			y := now.Year()
			if mon <= now.Month() {
				y++
			}
			spans = append(spans, monthSpan(y, mon, cue))
		case pre == "this":
			spans = append(spans, monthSpan(now.Year(), mon, cue))
		default:
			spans = append(spans, monthSpan(recentMonth(mon, pre == "last"), mon, cue))
		}
		mark(m)
	}
	for _, m := range reEnMonthY.FindAllStringSubmatchIndex(low, -1) {
		if overlaps(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(low[m[4]:m[5]])
		spans = append(spans, monthSpan(y, monthNames[low[m[2]:m[3]]], low[m[0]:m[1]]))
		mark(m)
	}
	for _, m := range reEnRel.FindAllStringIndex(low, -1) {
		cue := low[m[0]:m[1]]
		var sp Span
		switch cue {
		case "yesterday", "last night":
			sp = Span{From: today.AddDate(0, 0, -1), To: today}
		case "today", "tonight", "this morning":
			sp = Span{From: today, To: today.AddDate(0, 0, 1)}
		case "last week":
			w := weekStart(now)
			sp = Span{From: w.AddDate(0, 0, -7), To: w}
		case "this week":
			w := weekStart(now)
			sp = Span{From: w, To: w.AddDate(0, 0, 7)}
		case "last weekend":
			w := weekStart(now)
			sp = Span{From: w.AddDate(0, 0, -2), To: w}
		case "this weekend":
			w := weekStart(now)
			sp = Span{From: w.AddDate(0, 0, 5), To: w.AddDate(0, 0, 7)}
		case "last month":
			f := monthStart(now.Year(), now.Month())
			sp = Span{From: f.AddDate(0, -1, 0), To: f}
		case "this month":
			sp = monthSpan(now.Year(), now.Month(), "")
		case "last year":
			sp = yearSpan(now.Year()-1, "")
		case "this year":
			sp = yearSpan(now.Year(), "")
		case "the year before last":
			sp = yearSpan(now.Year()-2, "")
		default:
			parts := strings.Fields(cue)
			y := now.Year()
			f, t := season(parts[1], y)
			if parts[0] == "last" && now.Before(t) {
				f, t = season(parts[1], y-1)
			}
			sp = Span{From: f, To: t}
		}
		sp.Cue = cue
		spans = append(spans, sp)
		mark(m)
	}
	for _, m := range reEnAgo.FindAllStringSubmatchIndex(low, -1) {
		ns, unit := low[m[2]:m[3]], low[m[4]:m[5]]
		n, ok := numWords[ns]
		if !ok {
			n, _ = strconv.Atoi(ns)
		}
		var at time.Time
		var slack int // days either side
		switch unit {
		case "day":
			at, slack = today.AddDate(0, 0, -n), 1
		case "week":
			at, slack = today.AddDate(0, 0, -7*n), 4
		case "month":
			at, slack = today.AddDate(0, -n, 0), 16
		default:
			at, slack = today.AddDate(-n, 0, 0), 183
		}
		spans = append(spans, Span{From: at.AddDate(0, 0, -slack), To: at.AddDate(0, 0, slack+1), Cue: low[m[0]:m[1]]})
		mark(m)
	}
	for _, m := range reEnYear.FindAllStringSubmatchIndex(low, -1) {
		if overlaps(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(low[m[2]:m[3]])
		spans = append(spans, yearSpan(y, low[m[0]:m[1]]))
		mark(m)
	}
	for _, m := range reZhMonth.FindAllStringSubmatchIndex(low, -1) {
		ms := low[m[4]:m[5]]
		mon, ok := cnMonths[ms]
		if !ok {
			n, _ := strconv.Atoi(ms)
			mon = time.Month(n)
		}
		y := recentMonth(mon, false)
		if m[2] >= 0 {
			switch low[m[2]:m[3]] {
			case "去年":
				y = now.Year() - 1
			case "今年":
				y = now.Year()
			case "前年":
				y = now.Year() - 2
			}
		}
		spans = append(spans, monthSpan(y, mon, low[m[0]:m[1]]))
		mark(m)
	}
	for _, m := range reZhRel.FindAllStringIndex(low, -1) {
		if overlaps(m[0], m[1]) {
			continue
		}
		cue := low[m[0]:m[1]]
		var sp Span
		switch cue {
		case "昨天":
			sp = Span{From: today.AddDate(0, 0, -1), To: today}
		case "今天":
			sp = Span{From: today, To: today.AddDate(0, 0, 1)}
		case "前天":
			sp = Span{From: today.AddDate(0, 0, -2), To: today.AddDate(0, 0, -1)}
		case "上周", "上星期", "上个星期":
			w := weekStart(now)
			sp = Span{From: w.AddDate(0, 0, -7), To: w}
		case "上周末":
			w := weekStart(now)
			sp = Span{From: w.AddDate(0, 0, -2), To: w}
		case "这周", "本周":
			w := weekStart(now)
			sp = Span{From: w, To: w.AddDate(0, 0, 7)}
		case "上个月", "上月":
			f := monthStart(now.Year(), now.Month())
			sp = Span{From: f.AddDate(0, -1, 0), To: f}
		case "这个月", "本月":
			sp = monthSpan(now.Year(), now.Month(), "")
		case "去年":
			sp = yearSpan(now.Year()-1, "")
		case "今年":
			sp = yearSpan(now.Year(), "")
		case "前年":
			sp = yearSpan(now.Year()-2, "")
		}
		sp.Cue = cue
		spans = append(spans, sp)
		mark(m)
	}
	for _, m := range reZhYear.FindAllStringSubmatchIndex(low, -1) {
		if overlaps(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(low[m[2]:m[3]])
		spans = append(spans, yearSpan(y, low[m[0]:m[1]]))
		mark(m)
	}
	if len(spans) == 0 {
		return nil, s
	}
	// Cut the cues out of the folded text.
	var b strings.Builder
	last := 0
	for len(cut) > 0 {
		// earliest first
		k := 0
		for i := range cut {
			if cut[i][0] < cut[k][0] {
				k = i
			}
		}
		c := cut[k]
		cut = append(cut[:k], cut[k+1:]...)
		if c[0] >= last {
			b.WriteString(low[last:c[0]])
			b.WriteByte(' ')
			last = c[1]
		} else if c[1] > last {
			last = c[1]
		}
	}
	b.WriteString(low[last:])
	return spans, b.String()
}
