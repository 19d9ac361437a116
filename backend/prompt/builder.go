package prompt

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"hermes/backend/session"
)

// Reason says why an item is in the context.
type Reason string

// Reasons, in the order the builder considers them.
const (
	ReasonSystem  Reason = "system"
	ReasonQuery   Reason = "query"
	ReasonSummary Reason = "summary"
	ReasonMemory  Reason = "memory"
	// ReasonKnowledge is a passage of the user's documents offered for the question.
	ReasonKnowledge Reason = "knowledge"
	ReasonTool      Reason = "tool_schema"
	ReasonPinned    Reason = "pinned"
	ReasonRecent    Reason = "recent"
	ReasonRelevant  Reason = "relevant"
	ReasonAnchor    Reason = "anchor"
	ReasonFill      Reason = "newest"
)

// Item is one thing the model sees.
type Item struct {
	Reason    Reason `json:"reason"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	Tokens    int    `json:"tokens"`
	MessageID string `json:"messageId,omitempty"`
	Ref       string `json:"ref,omitempty"`
	Seq       int    `json:"seq,omitempty"`
	Shortened bool   `json:"shortened,omitempty"`
	// Images are encoded images sent with this item's message (an image
	// document); Tokens counts them, Content only names them. Ref is the
	// document's id, by which a view shows it.
	Images [][]byte `json:"-"`
}

// Context is a built prompt.
type Context struct {
	Items  []Item `json:"items"`  // in the order the model sees them
	Tokens int    `json:"tokens"` // estimated, calibrated
	// Estimated is the raw estimate before calibration (what calibration compares).
	Estimated int `json:"estimated"`
	Budget    int `json:"budget"`
	// Dropped counts history messages that did not fit.
	Dropped int `json:"dropped"`
}

// Refs are the refs (or ids, when a message has no ref) of the included history messages, in order.
func (c Context) Refs() []string {
	var out []string
	for _, it := range c.Items {
		if it.MessageID == "" || it.Reason == ReasonQuery {
			continue
		}
		if it.Ref != "" {
			out = append(out, it.Ref)
		} else {
			out = append(out, it.MessageID)
		}
	}
	return out
}

// Input is what one build works from.
type Input struct {
	System string
	// Query is the current user message; it is always included, last.
	Query string
	// History is the session's messages in order, without the current one.
	History []session.Message
	// Channel selects the conversation: "main" sees only routing decisions and final
	// outputs of sub-agent channels.
	Channel     string
	Summary     string
	SummaryUpto int
	Memories    []string // already formatted, with sources
	// Knowledge are passages of the user's documents, fenced and numbered
	// (KnowledgeItem), best first: those that fit go in.
	Knowledge   []string
	ToolSchemas []string // JSON of each tool offered, for accounting
	// Documents are the files attached to the query and to earlier messages (the
	// query's first): whole when they fit, else their chunks most relevant to the query.
	Documents   []Document
	Budget      int     // tokens available for the prompt
	Ratio       float64 // calibration multiplier (0 means 1)
	RecentTurns int     // 0 uses the builder's default
}

// Builder selects what fits.
type Builder struct {
	RecentTurns       int     // newest K turns always considered first
	RelevanceMin      float64 // 0..1 share of the query's weighted terms a turn must cover
	MaxToolResultToks int     // longer tool results are shortened with a marker
	ChunkTokens       int     // size of a document chunk; 0 uses DefaultChunkTokens
	DocumentShare     float64 // share of the room left that documents may take; 0 uses DefaultDocumentShare

	mu    sync.Mutex
	cache map[string]msgInfo // message id -> analysis (messages never change)
}

// NewBuilder returns a builder with the default policy.
func NewBuilder() *Builder {
	return &Builder{RecentTurns: 4, RelevanceMin: 0.25, MaxToolResultToks: 400, cache: map[string]msgInfo{}}
}

type msgInfo struct {
	tokens int
	terms  []string
	anchor bool
}

func (b *Builder) info(m session.Message) msgInfo {
	b.mu.Lock()
	mi, ok := b.cache[m.ID]
	b.mu.Unlock()
	if ok && m.ID != "" {
		return mi
	}
	mi = msgInfo{tokens: Estimate(m.Content) + MessageOverhead, terms: dedupe(Terms(m.Content)), anchor: IsAnchor(m.Content)}
	if m.ID != "" {
		b.mu.Lock()
		if len(b.cache) > 200_000 {
			b.cache = map[string]msgInfo{}
		}
		b.cache[m.ID] = mi
		b.mu.Unlock()
	}
	return mi
}

func dedupe(ts []string) []string {
	seen := make(map[string]bool, len(ts))
	out := ts[:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// turn is a user message and the replies that follow it.
type turn struct {
	msgs    []session.Message
	infos   []msgInfo
	tokens  int
	anchor  bool
	pinned  bool
	score   float64
	chosen  Reason
	lastSeq int
}

// visible filters the history to what a channel sees.
func visible(h []session.Message, channel string) []session.Message {
	if channel == "" {
		channel = "main"
	}
	out := make([]session.Message, 0, len(h))
	for _, m := range h {
		switch {
		case session.InChannel(m, channel):
		case channel == "main" && (m.Kind == "routing" || m.Kind == "final"):
		default:
			continue
		}
		if m.Content == "" || m.Role == "system" {
			continue
		}
		out = append(out, m)
	}
	return out
}

// MemoryItem is how a recalled memory is shown to the model: fenced data.
func MemoryItem(mem string) string { return Fence(KindMemory, "", mem) }

// SummaryItem is how the summary of earlier turns is shown to the model: fenced
// data, since it retells tool results and documents too.
func SummaryItem(summary string) string {
	return Fence(KindSummary, "", summary, "note", "automatic; may be incomplete")
}

// mayFence is whether the input could put fenced data in the context (the
// system prompt then reserves room for the fence rule; see settleRule).
func mayFence(in Input) bool {
	if len(in.Memories) > 0 || len(in.Documents) > 0 || len(in.ToolSchemas) > 0 || in.Summary != "" || len(in.Knowledge) > 0 {
		return true
	}
	for _, m := range in.History {
		if m.Role == "tool" {
			return true
		}
	}
	return false
}

// settleRule takes the fence rule out of the system prompt when nothing fenced
// made it into the context, and returns the tokens that gives back.
func settleRule(items []Item, system string, cost func(int) int) int {
	if len(items) == 0 || items[0].Reason != ReasonSystem {
		return 0
	}
	for _, it := range items {
		if Fenced(it.Reason, it.Role) {
			return 0
		}
	}
	before := items[0].Tokens
	if system == "" {
		items[0] = Item{}
	} else {
		items[0].Content, items[0].Tokens = system, Estimate(system)+MessageOverhead
	}
	return cost(before) - cost(items[0].Tokens)
}

// Build fits the input into the budget. The result never exceeds the budget: when even
// the system prompt and the query do not fit, the query is shortened.
func (b *Builder) Build(_ context.Context, in Input) Context {
	ratio := in.Ratio
	if ratio <= 0 {
		ratio = 1
	}
	cost := func(t int) int { return int(math.Ceil(float64(t) * ratio)) }
	ctx := Context{Budget: in.Budget}
	used := 0
	fits := func(t int) bool { return used+cost(t) <= in.Budget }

	system := SystemText(in.System, mayFence(in))
	if len(in.Knowledge) > 0 {
		system += "\n\n" + CiteRule
	}
	sysItem := Item{Reason: ReasonSystem, Role: "system", Content: system, Tokens: Estimate(system) + MessageOverhead}
	if system == "" {
		sysItem = Item{}
	}
	queryItem := Item{Reason: ReasonQuery, Role: "user", Content: in.Query, Tokens: Estimate(in.Query) + MessageOverhead}
	if !fits(sysItem.Tokens + queryItem.Tokens) {
		// Shorten the query to what is left; the system prompt goes if nothing is left.
		room := int(float64(in.Budget)/ratio) - sysItem.Tokens - MessageOverhead - 8
		if room < 8 {
			sysItem = Item{}
			room = int(float64(in.Budget)/ratio) - MessageOverhead - 8
		}
		queryItem.Content, queryItem.Shortened = shorten(in.Query, max(room, 0)), true
		queryItem.Tokens = Estimate(queryItem.Content) + MessageOverhead
		if !fits(sysItem.Tokens + queryItem.Tokens) {
			queryItem.Content, queryItem.Tokens = "", 0
		}
	}
	used += cost(sysItem.Tokens) + cost(queryItem.Tokens)

	var head []Item // system, summary, memories, tool schemas
	if sysItem.Content != "" {
		head = append(head, sysItem)
	}
	for _, ts := range in.ToolSchemas {
		it := Item{Reason: ReasonTool, Role: "tool_schema", Content: ts, Tokens: Estimate(ts)}
		if fits(it.Tokens) {
			used += cost(it.Tokens)
			head = append(head, it)
		}
	}
	for _, mem := range in.Memories {
		c := MemoryItem(mem)
		it := Item{Reason: ReasonMemory, Role: "user", Content: c, Tokens: Estimate(c) + MessageOverhead}
		if fits(it.Tokens) {
			used += cost(it.Tokens)
			head = append(head, it)
		}
	}

	for _, k := range in.Knowledge {
		it := Item{Reason: ReasonKnowledge, Role: "user", Content: k, Tokens: Estimate(k) + MessageOverhead}
		if fits(it.Tokens) {
			used += cost(it.Tokens)
			head = append(head, it)
		}
	}

	if len(in.Documents) > 0 {
		share := b.DocumentShare
		if share <= 0 {
			share = DefaultDocumentShare
		}
		docs, c := b.documents(in.Documents, in.Query, int(float64(in.Budget-used)*share), cost)
		used += c
		head = append(head, docs...)
	}

	// Group the history into turns.
	hist := visible(in.History, in.Channel)
	var turns []*turn
	for _, m := range hist {
		if m.Role == "user" || len(turns) == 0 {
			turns = append(turns, &turn{})
		}
		t := turns[len(turns)-1]
		mi := b.info(m)
		t.msgs = append(t.msgs, m)
		t.infos = append(t.infos, mi)
		t.anchor = t.anchor || mi.anchor
		t.pinned = t.pinned || m.Pinned
		t.lastSeq = m.Seq
	}
	for _, t := range turns {
		for i, m := range t.msgs {
			if m.Role == "tool" { // shortened when long, and fenced as data
				c := ToolResult(m.ToolName, shortenTool(m.Content, b.MaxToolResultToks))
				t.msgs[i].Content = c
				t.infos[i].tokens = Estimate(c) + MessageOverhead
			}
			t.tokens += t.infos[i].tokens
		}
	}

	// The summary stands in for turns it covers that do not make it in; reserve it first.
	var summaryItem *Item
	if in.Summary != "" {
		content := SummaryItem(in.Summary)
		it := Item{Reason: ReasonSummary, Role: "user", Content: content, Tokens: Estimate(content) + MessageOverhead}
		if fits(it.Tokens) {
			used += cost(it.Tokens)
			summaryItem = &it
		}
	}

	take := func(t *turn, why Reason) bool {
		if t.chosen != "" {
			return true
		}
		c := 0
		for _, mi := range t.infos {
			c += cost(mi.tokens)
		}
		if used+c > in.Budget {
			return false
		}
		used += c
		t.chosen = why
		return true
	}

	// 1. pinned
	for _, t := range turns {
		if t.pinned {
			take(t, ReasonPinned)
		}
	}
	// 2. newest K turns
	recent := in.RecentTurns
	if recent <= 0 {
		recent = b.RecentTurns
	}
	for i, k := len(turns)-1, 0; i >= 0 && k < recent; i, k = i-1, k+1 {
		take(turns[i], ReasonRecent)
	}
	// 3. relevant older turns
	b.score(turns, in.Query)
	ranked := make([]*turn, 0, len(turns))
	for _, t := range turns {
		if t.chosen == "" && t.score >= b.RelevanceMin {
			ranked = append(ranked, t)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	for _, t := range ranked {
		take(t, ReasonRelevant)
	}
	// 4. anchors with their neighbours, most relevant then newest first
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
		if !take(turns[i], ReasonAnchor) {
			continue
		}
		if i > 0 {
			take(turns[i-1], ReasonAnchor)
		}
		if i+1 < len(turns) {
			take(turns[i+1], ReasonAnchor)
		}
	}
	// 5. newest remaining
	for i := len(turns) - 1; i >= 0; i-- {
		take(turns[i], ReasonFill)
	}

	// Assemble: head, summary (if something it covers was left out), turns in order, query.
	ctx.Items = append(ctx.Items, head...)
	var body []Item
	summaryNeeded := false
	for _, t := range turns {
		if t.chosen == "" {
			ctx.Dropped += len(t.msgs)
			if t.lastSeq <= in.SummaryUpto {
				summaryNeeded = true
			}
			continue
		}
		for i, m := range t.msgs {
			body = append(body, Item{Reason: t.chosen, Role: m.Role, Content: m.Content, Tokens: t.infos[i].tokens,
				MessageID: m.ID, Ref: m.Ref, Seq: m.Seq, Shortened: m.Role == "tool" && strings.Contains(m.Content, toolMarker)})
		}
	}
	if summaryItem != nil && (summaryNeeded || ctx.Dropped > 0) {
		ctx.Items = append(ctx.Items, *summaryItem)
	} else if summaryItem != nil {
		used -= cost(summaryItem.Tokens)
	}
	ctx.Items = append(ctx.Items, body...)
	if queryItem.Content != "" {
		ctx.Items = append(ctx.Items, queryItem)
	}
	used -= settleRule(ctx.Items, in.System, cost)
	if len(ctx.Items) > 0 && ctx.Items[0].Content == "" {
		ctx.Items = ctx.Items[1:]
	}
	ctx.Tokens = used
	for _, it := range ctx.Items {
		ctx.Estimated += it.Tokens
	}
	return ctx
}

// score sets each turn's relevance to the query: the IDF-weighted share of the query's
// terms the turn contains.
func (b *Builder) score(turns []*turn, query string) {
	qterms := dedupe(Terms(query))
	if len(qterms) == 0 || len(turns) == 0 {
		return
	}
	sets := make([]map[string]bool, len(turns))
	for i, t := range turns {
		set := map[string]bool{}
		for _, mi := range t.infos {
			for _, term := range mi.terms {
				set[term] = true
			}
		}
		sets[i] = set
	}
	for i, s := range relevance(sets, qterms) {
		turns[i].score = s
	}
}

func idfs(qterms []string, df map[string]int, docs int) map[string]float64 {
	n := float64(docs)
	idf := make(map[string]float64, len(qterms))
	for _, q := range qterms {
		idf[q] = math.Log((n+1)/(float64(df[q])+1)) + 1
	}
	return idf
}

const toolMarker = "[… tool result shortened:"

func shortenTool(s string, maxTokens int) string {
	keep := maxTokens * 3 // characters, leaving room for the marker
	r := []rune(s)
	if len(r) <= keep {
		return s
	}
	return string(r[:keep]) + fmt.Sprintf("\n%s %d more characters]", toolMarker, len(r)-keep)
}

// shorten cuts text to about maxTokens tokens with a marker.
func shorten(s string, maxTokens int) string {
	r := []rune(s)
	lo, hi := 0, len(r)
	for lo < hi { // longest prefix that fits
		mid := (lo + hi + 1) / 2
		if Estimate(string(r[:mid])) <= maxTokens {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == len(r) {
		return s
	}
	return string(r[:lo]) + " […]"
}
