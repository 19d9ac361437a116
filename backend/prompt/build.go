package prompt

import (
	"math"
	"sort"
	"strings"
)

// build is one Build in progress: its input, the calibration ratio and the
// tokens spent so far (each item's estimate times the ratio).
type build struct {
	b     *Builder
	in    Input
	ratio float64
	used  int
}

func (s *build) cost(t int) int { return int(math.Ceil(float64(t) * s.ratio)) }

func (s *build) fits(t int) bool { return s.used+s.cost(t) <= s.in.Budget }

// spend takes t tokens when they fit.
func (s *build) spend(t int) bool {
	if !s.fits(t) {
		return false
	}
	s.used += s.cost(t)
	return true
}

// systemAndQuery are the system prompt and the query, which come first: the
// query is shortened to what is left, and the system prompt goes if nothing
// is left.
func (s *build) systemAndQuery() (sysItem, queryItem Item) {
	in := s.in
	system := SystemText(in.System, mayFence(in))
	if len(in.Knowledge) > 0 {
		system += "\n\n" + CiteRule
	}
	if system != "" {
		sysItem = Item{Reason: ReasonSystem, Role: "system", Content: system, Tokens: Estimate(system) + MessageOverhead}
	}
	queryItem = Item{Reason: ReasonQuery, Role: "user", Content: in.Query, Tokens: Estimate(in.Query) + MessageOverhead}
	if !s.fits(sysItem.Tokens + queryItem.Tokens) {
		room := int(float64(in.Budget)/s.ratio) - sysItem.Tokens - MessageOverhead - 8
		if room < 8 {
			sysItem = Item{}
			room = int(float64(in.Budget)/s.ratio) - MessageOverhead - 8
		}
		queryItem.Content, queryItem.Shortened = shorten(in.Query, max(room, 0)), true
		queryItem.Tokens = Estimate(queryItem.Content) + MessageOverhead
		if !s.fits(sysItem.Tokens + queryItem.Tokens) {
			queryItem.Content, queryItem.Tokens = "", 0
		}
	}
	s.used += s.cost(sysItem.Tokens) + s.cost(queryItem.Tokens)
	return sysItem, queryItem
}

// head is what goes before the conversation, each item while it fits: the
// system prompt, tool schemas, memories, knowledge passages and the attached
// documents' share.
func (s *build) head(sysItem Item) []Item {
	var head []Item
	if sysItem.Content != "" {
		head = append(head, sysItem)
	}
	add := func(reason Reason, role, content string, overhead int) {
		it := Item{Reason: reason, Role: role, Content: content, Tokens: Estimate(content) + overhead}
		if s.spend(it.Tokens) {
			head = append(head, it)
		}
	}
	for _, ts := range s.in.ToolSchemas {
		add(ReasonTool, "tool_schema", ts, 0)
	}
	for _, mem := range s.in.Memories {
		add(ReasonMemory, "user", MemoryItem(mem), MessageOverhead)
	}
	for _, k := range s.in.Knowledge {
		add(ReasonKnowledge, "user", k, MessageOverhead)
	}
	if len(s.in.Documents) > 0 {
		share := s.b.DocumentShare
		if share <= 0 {
			share = DefaultDocumentShare
		}
		docs, c := s.b.documents(s.in.Documents, s.in.Query, int(float64(s.in.Budget-s.used)*share), s.cost)
		s.used += c
		head = append(head, docs...)
	}
	return head
}

// turns is the channel's history grouped into turns (a user message and what
// answered it), each tool result shortened when long and fenced as data.
func (s *build) turns() []*turn {
	var turns []*turn
	for _, m := range visible(s.in.History, s.in.Channel) {
		if m.Role == "user" || len(turns) == 0 {
			turns = append(turns, &turn{})
		}
		t := turns[len(turns)-1]
		mi := s.b.info(m)
		t.msgs = append(t.msgs, m)
		t.infos = append(t.infos, mi)
		t.anchor = t.anchor || mi.anchor
		t.pinned = t.pinned || m.Pinned
		t.lastSeq = m.Seq
	}
	for _, t := range turns {
		for i, m := range t.msgs {
			if m.Role == "tool" {
				c := ToolResult(m.ToolName, shortenTool(m.Content, s.b.MaxToolResultToks))
				t.msgs[i].Content = c
				t.infos[i].tokens = Estimate(c) + MessageOverhead
			}
			t.tokens += t.infos[i].tokens
		}
	}
	return turns
}

// summary reserves the rolling summary first: it stands in for the turns it
// covers that do not make it in (nil: none, or it does not fit).
func (s *build) summary() *Item {
	if s.in.Summary == "" {
		return nil
	}
	content := SummaryItem(s.in.Summary)
	it := Item{Reason: ReasonSummary, Role: "user", Content: content, Tokens: Estimate(content) + MessageOverhead}
	if !s.spend(it.Tokens) {
		return nil
	}
	return &it
}

// take chooses a whole turn for why when it fits (true when chosen, now or
// before).
func (s *build) take(t *turn, why Reason) bool {
	if t.chosen != "" {
		return true
	}
	c := 0
	for _, mi := range t.infos {
		c += s.cost(mi.tokens)
	}
	if s.used+c > s.in.Budget {
		return false
	}
	s.used += c
	t.chosen = why
	return true
}

// choose picks turns in order of need: pinned, the newest few, relevant older
// ones, anchors with their neighbours, then the newest remaining.
func (s *build) choose(turns []*turn) {
	for _, t := range turns {
		if t.pinned {
			s.take(t, ReasonPinned)
		}
	}
	recent := s.in.RecentTurns
	if recent <= 0 {
		recent = s.b.RecentTurns
	}
	for i, k := len(turns)-1, 0; i >= 0 && k < recent; i, k = i-1, k+1 {
		s.take(turns[i], ReasonRecent)
	}
	s.b.score(turns, s.in.Query)
	ranked := make([]*turn, 0, len(turns))
	for _, t := range turns {
		if t.chosen == "" && t.score >= s.b.RelevanceMin {
			ranked = append(ranked, t)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	for _, t := range ranked {
		s.take(t, ReasonRelevant)
	}
	s.anchors(turns)
	for i := len(turns) - 1; i >= 0; i-- {
		s.take(turns[i], ReasonFill)
	}
}

// anchors takes the turns that hold an anchor (a decision, a number the user
// gave …) with the turn before and after, most relevant then newest first.
func (s *build) anchors(turns []*turn) {
	var anchors []int
	for i, t := range turns {
		if t.anchor && t.chosen == "" {
			anchors = append(anchors, i)
		}
	}
	sort.SliceStable(anchors, func(x, y int) bool {
		a, c := turns[anchors[x]], turns[anchors[y]]
		if a.score != c.score {
			return a.score > c.score
		}
		return anchors[x] > anchors[y]
	})
	for _, i := range anchors {
		if !s.take(turns[i], ReasonAnchor) {
			continue
		}
		if i > 0 {
			s.take(turns[i-1], ReasonAnchor)
		}
		if i+1 < len(turns) {
			s.take(turns[i+1], ReasonAnchor)
		}
	}
}

// assemble is the context in order: the head, the summary (if something it
// covers was left out), the chosen turns in order, the query.
func (s *build) assemble(head []Item, summary *Item, turns []*turn, queryItem Item) Context {
	ctx := Context{Budget: s.in.Budget}
	ctx.Items = append(ctx.Items, head...)
	var body []Item
	summaryNeeded := false
	for _, t := range turns {
		if t.chosen == "" {
			ctx.Dropped += len(t.msgs)
			if t.lastSeq <= s.in.SummaryUpto {
				summaryNeeded = true
			}
			continue
		}
		for i, m := range t.msgs {
			body = append(body, Item{Reason: t.chosen, Role: m.Role, Content: m.Content, Tokens: t.infos[i].tokens,
				MessageID: m.ID, Ref: m.Ref, Seq: m.Seq, Shortened: m.Role == "tool" && strings.Contains(m.Content, toolMarker)})
		}
	}
	if summary != nil && (summaryNeeded || ctx.Dropped > 0) {
		ctx.Items = append(ctx.Items, *summary)
	} else if summary != nil {
		s.used -= s.cost(summary.Tokens)
	}
	ctx.Items = append(ctx.Items, body...)
	if queryItem.Content != "" {
		ctx.Items = append(ctx.Items, queryItem)
	}
	s.used -= settleRule(ctx.Items, s.in.System, s.cost)
	if len(ctx.Items) > 0 && ctx.Items[0].Content == "" {
		ctx.Items = ctx.Items[1:]
	}
	ctx.Tokens = s.used
	for _, it := range ctx.Items {
		ctx.Estimated += it.Tokens
	}
	return ctx
}
