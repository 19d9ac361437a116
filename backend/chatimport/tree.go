package chatimport

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"hermes/backend/session"
)

// conversation is one conversation of any format, as a tree of entries.
type conversation struct {
	ref     string // the session's ref: format and the source's id
	title   string
	created time.Time
	entries []entry
	// current is the entry the shown branch ends at ("" : the newest).
	current string
	// linear: the entries follow one another in order; their parents are not given.
	linear bool
}

// entry is one node of a conversation. An entry with skip set is not carried;
// what follows it follows the carried entry before it.
type entry struct {
	id, parent string
	role       string // user or assistant
	text       string
	at         time.Time
	skip       bool
	images     int
}

// stats are what one conversation's lines hold.
type stats struct {
	branches, skipped, images, shortened int
	first, last                          time.Time
}

// lines are a conversation's import lines: parents before children, each group
// of versions in the order they were made; versions get parents and are
// alternatives but for the one on the shown branch.
func (c *conversation) lines() ([]session.ImportLine, stats, error) {
	var st stats
	byID, parent, err := c.links()
	if err != nil {
		return nil, st, err
	}
	kept, kids := c.carried(parent, &st)
	onPath := c.shownPath(byID, parent, kept, kids)
	branched := false
	for _, k := range kids {
		if len(k) > 1 {
			branched = true
			st.branches += len(k) - 1
		}
	}
	var out []session.ImportLine
	stack := []int{-1}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		group := kids[p]
		if len(group) == 0 {
			continue
		}
		shown := group[len(group)-1]
		for _, k := range group {
			if onPath[k] {
				shown = k
			}
		}
		for _, k := range group {
			l, err := c.line(k, p, shown, branched, &st)
			if err != nil {
				return nil, st, err
			}
			out = append(out, l)
		}
		for i := len(group) - 1; i >= 0; i-- { // the first version's children next
			if len(kids[group[i]]) > 0 {
				stack = append(stack, group[i])
			}
		}
	}
	if len(out) > 0 && strings.TrimSpace(c.title) != "" {
		out[0].Title = clip(c.title, 200)
	}
	if len(out) > 0 && out[0].CreatedAt == "" && !c.created.IsZero() {
		out[0].CreatedAt = c.created.UTC().Format(time.RFC3339Nano)
	}
	return out, st, nil
}

// links are the entries by id and each one's parent (index, -1 for none):
// an id missing or used twice, or links in a loop, are the file's damage.
func (c *conversation) links() (map[string]int, []int, error) {
	byID := make(map[string]int, len(c.entries))
	for i, e := range c.entries {
		if e.id == "" {
			return nil, nil, fmt.Errorf("message %d has no id", i+1)
		}
		if _, dup := byID[e.id]; dup {
			return nil, nil, fmt.Errorf("two messages have the id %q", printable(e.id))
		}
		byID[e.id] = i
	}
	parent := make([]int, len(c.entries))
	for i, e := range c.entries {
		parent[i] = -1
		if c.linear {
			parent[i] = i - 1
		} else if p, ok := byID[e.parent]; ok && e.parent != "" {
			parent[i] = p
		}
	}
	if at := loop(parent); at >= 0 {
		return nil, nil, fmt.Errorf("its messages' parent links go round in a loop (at message %q); the file is damaged: export it again", printable(c.entries[at].id))
	}
	return byID, parent, nil
}

// carried: kept[i] is the nearest carried entry at or above i (-1: none);
// kids are each carried parent's carried children (-1: the first ones), in
// the order they were made. Skipped entries are counted.
func (c *conversation) carried(parent []int, st *stats) ([]int, map[int][]int) {
	kept := make([]int, len(c.entries))
	for _, i := range topo(parent) {
		switch {
		case !c.entries[i].skip:
			kept[i] = i
		case parent[i] >= 0:
			kept[i] = kept[parent[i]]
		default:
			kept[i] = -1
		}
	}
	kids := map[int][]int{}
	for _, i := range topo(parent) {
		if c.entries[i].skip {
			st.skipped++
			continue
		}
		p := -1
		if parent[i] >= 0 {
			p = kept[parent[i]]
		}
		kids[p] = append(kids[p], i)
	}
	for p := range kids {
		slices.SortStableFunc(kids[p], func(a, b int) int { return cmp.Compare(c.entries[a].at.UnixNano(), c.entries[b].at.UnixNano()) })
	}
	return kept, kids
}

// line is entry k's import line under carried parent p: shortened when too
// long, with its time, and in a branched conversation its parent and whether
// it is an alternative to the shown version.
func (c *conversation) line(k, p, shown int, branched bool, st *stats) (session.ImportLine, error) {
	e := c.entries[k]
	l := session.ImportLine{Session: c.ref, ID: e.id, Role: e.role, Content: e.text}
	if len(l.Content) > session.MaxMessageBytes {
		l.Content = shorten(l.Content)
		st.shortened++
	}
	if !e.at.IsZero() {
		l.CreatedAt = e.at.UTC().Format(time.RFC3339Nano)
		if st.first.IsZero() || e.at.Before(st.first) {
			st.first = e.at
		}
		if e.at.After(st.last) {
			st.last = e.at
		}
	}
	if branched {
		ref := ""
		if p >= 0 {
			ref = c.entries[p].id
		}
		l.Parent, l.Alternative = &ref, k != shown
	}
	if err := session.CheckLine(l); err != nil {
		return l, fmt.Errorf("message %q: %v", printable(e.id), err)
	}
	st.images += e.images
	return l, nil
}

// shownPath marks the carried entries on the branch that ends at the
// conversation's current entry (or, without one, at the newest entry).
func (c *conversation) shownPath(byID map[string]int, parent, kept []int, kids map[int][]int) map[int]bool {
	end := -1
	if i, ok := byID[c.current]; ok && c.current != "" {
		end = kept[i]
	} else {
		for i := range c.entries {
			if !c.entries[i].skip && (end < 0 || !c.entries[i].at.Before(c.entries[end].at)) {
				end = i
			}
		}
	}
	on := map[int]bool{}
	for i := end; i >= 0; {
		on[i] = true
		if parent[i] < 0 {
			break
		}
		i = kept[parent[i]]
	}
	return on
}

// loop is an entry whose parent links go round, or -1.
func loop(parent []int) int {
	const (
		unseen = iota
		open
		closed
	)
	state := make([]byte, len(parent))
	for i := range parent {
		var path []int
		j := i
		for j >= 0 && state[j] == unseen {
			state[j] = open
			path = append(path, j)
			j = parent[j]
		}
		if j >= 0 && state[j] == open {
			return j
		}
		for _, k := range path {
			state[k] = closed
		}
	}
	return -1
}

// topo orders entries parents first (the links hold no loop).
func topo(parent []int) []int {
	depth := make([]int, len(parent))
	for i := range depth {
		depth[i] = -1
	}
	var d func(i int) int
	d = func(i int) int { // iterative in effect: memoised walk up
		var path []int
		j := i
		for j >= 0 && depth[j] < 0 {
			path = append(path, j)
			j = parent[j]
		}
		base := -1
		if j >= 0 {
			base = depth[j]
		}
		for k := len(path) - 1; k >= 0; k-- {
			base++
			depth[path[k]] = base
		}
		return depth[i]
	}
	order := make([]int, len(parent))
	for i := range order {
		order[i] = i
		d(i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(depth[a], depth[b]) })
	return order
}

// clip keeps the first n characters of s.
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// shorten cuts a message to what a session keeps, at a character, and says so.
func shorten(s string) string {
	note := fmt.Sprintf("\n\n[… shortened on import: the message was %d KiB; Hermes keeps %d KiB]", len(s)>>10, session.MaxMessageBytes>>10)
	cut := session.MaxMessageBytes - len(note)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note
}

// stamp is a time in a file: a number of seconds since 1970 (milliseconds
// when it is that large), a date string, or null.
type stamp struct{ time.Time }

func (t *stamp) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" || s == `""` {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
			if v, err := time.Parse(layout, str); err == nil {
				t.Time = v.UTC()
				return nil
			}
		}
		if f, err := strconv.ParseFloat(str, 64); err == nil {
			t.Time = fromUnix(f)
			return nil
		}
		return fmt.Errorf("%w: %q is not a time", errShape, printable(str))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%w: %s is not a time", errShape, printable(s))
	}
	t.Time = fromUnix(f)
	return nil
}

// fromUnix reads seconds, or milliseconds past the year 2286.
func fromUnix(f float64) time.Time {
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 {
		return time.Time{}
	}
	if f > 1e11 {
		f /= 1000
	}
	if f > 1e11 { // still past year 5138: no real time
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}
