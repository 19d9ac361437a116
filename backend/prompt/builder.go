package prompt

import (
	"context"
	"fmt"
	"math"
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

// relevanceMin is the share of the query's weighted terms (the turn's own and
// its neighbours', see neighbours) an older turn needs to be taken as relevant
// before the newest remaining ones. At 0.25, with neighbours, the relevant
// turns left room that newest-first filling spent on turns without the
// evidence: locomo-dev keeps 0.816 of its evidence at 2,048 tokens at 0.25,
// 0.825 at 0.125 (0.818 at 0.19; 0.826 at 0, which takes every older turn by
// score and none by recency).
const relevanceMin = 0.125

// NewBuilder returns a builder with the default policy.
func NewBuilder() *Builder {
	return &Builder{RecentTurns: 4, RelevanceMin: relevanceMin, MaxToolResultToks: 400, cache: map[string]msgInfo{}}
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
	s := &build{b: b, in: in, ratio: ratio}
	sysItem, queryItem := s.systemAndQuery()
	head := s.head(sysItem)
	turns := s.turns()
	summary := s.summary()
	s.choose(turns)
	return s.assemble(head, summary, turns, queryItem)
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
	said := relevance(sets, qterms)
	before := relevance(neighbours(turns, sets, -1), qterms)
	after := relevance(neighbours(turns, sets, +1), qterms)
	for i := range turns {
		turns[i].score = said[i] + before[i] + wAfter*after[i]
	}
}

// A turn is also known by its neighbours' words: the message before it (what
// it answers: "How long have you been married?" -> "5 years already!") and,
// at wAfter, the message after it (what answered it: "Guess what came this
// morning!" -> "The kayak paddle I ordered"). Each is scored on its own and
// added to the turn's share. On locomo-dev, evidence kept at 2,048 tokens:
// 0.720 with the turn's own words; 0.780 with the message before (0.755 when
// only a question lends its words, 0.770 merged into the turn's own terms);
// 0.809 once every search's term rule (text.Terms, stemmed) replaced this
// package's own; 0.816 with the message after at 0.5 (0.814 at 1).
const wAfter = 0.5

// neighbours are, for each turn, the terms of the message next to it (dir -1:
// the last message of the turn before; +1: the first of the turn after) that
// the turn lacks.
func neighbours(turns []*turn, own []map[string]bool, dir int) []map[string]bool {
	out := make([]map[string]bool, len(turns))
	for i := range turns {
		out[i] = map[string]bool{}
		j := i + dir
		if j < 0 || j >= len(turns) {
			continue
		}
		infos := turns[j].infos
		next := infos[0]
		if dir < 0 {
			next = infos[len(infos)-1]
		}
		for _, t := range next.terms {
			if !own[i][t] {
				out[i][t] = true
			}
		}
	}
	return out
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
