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
	w := &whenParse{low: Fold(s), now: now, loc: now.Location()}
	w.today = w.day(now)
	w.enMonths()
	w.enMonthYears()
	w.enRelative()
	w.enAgo()
	w.years(reEnYear)
	w.zhMonths()
	w.zhRelative()
	w.years(reZhYear)
	if len(w.spans) == 0 {
		return nil, s
	}
	return w.spans, w.rest()
}

// whenParse is one When: the folded text, the clock, the spans found and the
// byte ranges of their cues (cut out of the text at the end).
type whenParse struct {
	low   string
	now   time.Time
	loc   *time.Location
	today time.Time
	spans []Span
	cut   [][2]int
}

func (w *whenParse) day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, w.loc)
}

func (w *whenParse) monthStart(y int, m time.Month) time.Time {
	return time.Date(y, m, 1, 0, 0, 0, 0, w.loc)
}

func (w *whenParse) yearSpan(y int, cue string) Span {
	return Span{From: time.Date(y, 1, 1, 0, 0, 0, 0, w.loc), To: time.Date(y+1, 1, 1, 0, 0, 0, 0, w.loc), Cue: cue}
}

func (w *whenParse) monthSpan(y int, m time.Month, cue string) Span {
	f := w.monthStart(y, m)
	return Span{From: f, To: f.AddDate(0, 1, 0), Cue: cue}
}

// recentMonth is the year of the latest month m at or (strict) before now's month.
func (w *whenParse) recentMonth(m time.Month, strict bool) int {
	y := w.now.Year()
	if m > w.now.Month() || (strict && m == w.now.Month()) {
		y--
	}
	return y
}

// weekStart is the Monday of t's week.
func (w *whenParse) weekStart(t time.Time) time.Time {
	wd := (int(t.Weekday()) + 6) % 7
	return w.day(t).AddDate(0, 0, -wd)
}

func (w *whenParse) season(name string, y int) (time.Time, time.Time) {
	switch name {
	case "spring":
		return w.monthStart(y, 3), w.monthStart(y, 6)
	case "summer":
		return w.monthStart(y, 6), w.monthStart(y, 9)
	case "autumn", "fall":
		return w.monthStart(y, 9), w.monthStart(y, 12)
	}
	return w.monthStart(y, 12).AddDate(-1, 0, 0), w.monthStart(y, 3)
}

// found adds a span and marks its cue (match m) to be cut.
func (w *whenParse) found(sp Span, m []int) {
	w.spans = append(w.spans, sp)
	w.cut = append(w.cut, [2]int{m[0], m[1]})
}

// overlaps: a cue already found covers part of a..b.
func (w *whenParse) overlaps(a, b int) bool {
	for _, c := range w.cut {
		if a < c[1] && b > c[0] {
			return true
		}
	}
	return false
}

// enMonths: "in May", "last March", "next June", "May 2023".
func (w *whenParse) enMonths() {
	low, now := w.low, w.now
	for _, m := range reEnMonth.FindAllStringSubmatchIndex(low, -1) {
		pre, mon := low[m[2]:m[3]], monthNames[low[m[4]:m[5]]]
		cue := low[m[0]:m[1]]
		switch {
		case m[6] >= 0:
			y, _ := strconv.Atoi(low[m[6]:m[7]])
			w.found(w.monthSpan(y, mon, cue), m)
		case pre == "next":
			y := now.Year()
			if mon <= now.Month() {
				y++
			}
			w.found(w.monthSpan(y, mon, cue), m)
		case pre == "this":
			w.found(w.monthSpan(now.Year(), mon, cue), m)
		default:
			w.found(w.monthSpan(w.recentMonth(mon, pre == "last"), mon, cue), m)
		}
	}
}

// enMonthYears: "March of 2022" and the like the month pattern left.
func (w *whenParse) enMonthYears() {
	for _, m := range reEnMonthY.FindAllStringSubmatchIndex(w.low, -1) {
		if w.overlaps(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(w.low[m[4]:m[5]])
		w.found(w.monthSpan(y, monthNames[w.low[m[2]:m[3]]], w.low[m[0]:m[1]]), m)
	}
}

// enRelative: yesterday, last week, this month, last summer …
func (w *whenParse) enRelative() {
	now, today := w.now, w.today
	for _, m := range reEnRel.FindAllStringIndex(w.low, -1) {
		cue := w.low[m[0]:m[1]]
		var sp Span
		switch cue {
		case "yesterday", "last night":
			sp = Span{From: today.AddDate(0, 0, -1), To: today}
		case "today", "tonight", "this morning":
			sp = Span{From: today, To: today.AddDate(0, 0, 1)}
		case "last week", "this week", "last weekend", "this weekend":
			sp = w.week(cue)
		case "last month":
			f := w.monthStart(now.Year(), now.Month())
			sp = Span{From: f.AddDate(0, -1, 0), To: f}
		case "this month":
			sp = w.monthSpan(now.Year(), now.Month(), "")
		case "last year":
			sp = w.yearSpan(now.Year()-1, "")
		case "this year":
			sp = w.yearSpan(now.Year(), "")
		case "the year before last":
			sp = w.yearSpan(now.Year()-2, "")
		default:
			parts := strings.Fields(cue)
			y := now.Year()
			f, t := w.season(parts[1], y)
			if parts[0] == "last" && now.Before(t) {
				f, t = w.season(parts[1], y-1)
			}
			sp = Span{From: f, To: t}
		}
		sp.Cue = cue
		w.found(sp, m)
	}
}

// week is the span of "last week", "this week", "last weekend" or "this weekend".
func (w *whenParse) week(cue string) Span {
	ws := w.weekStart(w.now)
	switch cue {
	case "last week":
		return Span{From: ws.AddDate(0, 0, -7), To: ws}
	case "this week":
		return Span{From: ws, To: ws.AddDate(0, 0, 7)}
	case "last weekend":
		return Span{From: ws.AddDate(0, 0, -2), To: ws}
	}
	return Span{From: ws.AddDate(0, 0, 5), To: ws.AddDate(0, 0, 7)}
}

// enAgo: "three weeks ago", "2 years ago", with a slack that grows with the unit.
func (w *whenParse) enAgo() {
	low, today := w.low, w.today
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
		w.found(Span{From: at.AddDate(0, 0, -slack), To: at.AddDate(0, 0, slack+1), Cue: low[m[0]:m[1]]}, m)
	}
}

// years: a year on its own ("in 2021", "2021年"), where no other cue holds it.
func (w *whenParse) years(re *lazyre.Regexp) {
	for _, m := range re.FindAllStringSubmatchIndex(w.low, -1) {
		if w.overlaps(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(w.low[m[2]:m[3]])
		w.found(w.yearSpan(y, w.low[m[0]:m[1]]), m)
	}
}

// zhMonths: 三月, 去年5月, 今年十二月 …
func (w *whenParse) zhMonths() {
	low, now := w.low, w.now
	for _, m := range reZhMonth.FindAllStringSubmatchIndex(low, -1) {
		ms := low[m[4]:m[5]]
		mon, ok := cnMonths[ms]
		if !ok {
			n, _ := strconv.Atoi(ms)
			mon = time.Month(n)
		}
		y := w.recentMonth(mon, false)
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
		w.found(w.monthSpan(y, mon, low[m[0]:m[1]]), m)
	}
}

// zhRelative: 昨天, 上周, 这个月, 去年 …
func (w *whenParse) zhRelative() {
	now, today := w.now, w.today
	for _, m := range reZhRel.FindAllStringIndex(w.low, -1) {
		if w.overlaps(m[0], m[1]) {
			continue
		}
		cue := w.low[m[0]:m[1]]
		var sp Span
		switch cue {
		case "昨天":
			sp = Span{From: today.AddDate(0, 0, -1), To: today}
		case "今天":
			sp = Span{From: today, To: today.AddDate(0, 0, 1)}
		case "前天":
			sp = Span{From: today.AddDate(0, 0, -2), To: today.AddDate(0, 0, -1)}
		case "上周", "上星期", "上个星期":
			sp = w.week("last week")
		case "上周末":
			sp = w.week("last weekend")
		case "这周", "本周":
			sp = w.week("this week")
		case "上个月", "上月":
			f := w.monthStart(now.Year(), now.Month())
			sp = Span{From: f.AddDate(0, -1, 0), To: f}
		case "这个月", "本月":
			sp = w.monthSpan(now.Year(), now.Month(), "")
		case "去年":
			sp = w.yearSpan(now.Year()-1, "")
		case "今年":
			sp = w.yearSpan(now.Year(), "")
		case "前年":
			sp = w.yearSpan(now.Year()-2, "")
		}
		sp.Cue = cue
		w.found(sp, m)
	}
}

// rest is the folded text with the cues cut out (each replaced by a space).
func (w *whenParse) rest() string {
	cut := w.cut
	var b strings.Builder
	last := 0
	for len(cut) > 0 {
		k := 0 // earliest first
		for i := range cut {
			if cut[i][0] < cut[k][0] {
				k = i
			}
		}
		c := cut[k]
		cut = append(cut[:k], cut[k+1:]...)
		if c[0] >= last {
			b.WriteString(w.low[last:c[0]])
			b.WriteByte(' ')
			last = c[1]
		} else if c[1] > last {
			last = c[1]
		}
	}
	b.WriteString(w.low[last:])
	return b.String()
}
