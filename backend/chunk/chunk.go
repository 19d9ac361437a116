// Package chunk cuts a document's text into pieces that follow its structure:
// pages, Markdown headings, then paragraphs (a paragraph is a unit: a piece
// ends with its paragraph once it holds MinTokens), and a paragraph longer than
// MaxBlockTokens at sentence ends into pieces of about TargetTokens that
// overlap a little. Each piece knows its heading path, page and rune offsets.
// The knowledge base indexes them; see docs/architecture.md.
package chunk

import (
	"strings"
	"unicode"

	"hermes/backend/prompt"
	"hermes/backend/text"
)

// Chunk sizes, in the prompt builder's token estimate: a chunk closes at a
// paragraph's end once it holds MinTokens, and before it would pass
// TargetTokens; a paragraph over MaxBlockTokens is cut at sentence ends; a
// chunk cut for size repeats about OverlapTokens of the one before, so a
// sentence on the cut is whole in one of them.
const (
	TargetTokens  = 300
	OverlapTokens = 40
	// MaxBlockTokens: a paragraph up to this size stays whole in one chunk, so
	// an answer is not cut across two (measured on kb-dev: see the README).
	MaxBlockTokens = 3 * TargetTokens
	// MinTokens: a chunk that holds this much ends with its paragraph; shorter
	// paragraphs join the next (measured on kb-dev: see the README).
	MinTokens = 60
)

// Chunk is one piece of a document's text, as indexed and cited.
type Chunk struct {
	Seq     int    // 0-based position in the file
	Page    int    // 1-based page; 0 when the file has no pages
	Heading string // the heading path above it, " › "-separated
	Start   int    // rune offsets of Text in the document's text
	End     int
	Text    string
}

// block is a paragraph, a heading line or the part of one on one page.
type block struct {
	start, end int
	heading    int // a heading's level (1–6); 0 for a paragraph
	page       int
	sentence   bool // a piece after the first of a paragraph too long to keep whole
}

// Split cuts a document's text into chunks that follow its structure: pages
// (pages[i] is the rune offset where page i+1 begins; none for a file without
// pages), Markdown headings (when headings is set) and paragraphs.
func Split(text string, pages []int, headings bool) []Chunk {
	rs := []rune(text)
	var c chunker
	c.rs = rs
	for _, b := range blocks(rs, pages, headings) {
		c.add(b)
	}
	c.flush(false)
	return c.out
}

// chunker gathers blocks into chunks.
type chunker struct {
	rs         []rune
	out        []Chunk
	path       []string // heading titles by level (index 0 is level 1)
	start, end int      // the open chunk; start == end when none
	page       int
	tokens     int
	bare       bool // the open chunk holds only headings: it takes what follows
}

func (c *chunker) add(b block) {
	if b.heading > 0 {
		if !c.bare { // headings in a row stay with the text that follows them
			c.flush(false)
		}
		c.setHeading(b.heading, strings.TrimSpace(strings.TrimLeft(string(c.rs[b.start:b.end]), "#")))
	}
	if c.start != c.end && b.page != c.page {
		c.flush(false)
	}
	n := prompt.Estimate(string(c.rs[b.start:b.end]))
	if n > MaxBlockTokens {
		if parts := c.sentences(b); len(parts) > 1 {
			for _, p := range parts {
				c.add(p)
			}
			return
		}
	}
	switch {
	case c.start == c.end || c.bare:
	case c.tokens+n > TargetTokens:
		c.flush(true)
	case c.tokens >= MinTokens && b.heading == 0 && !b.sentence:
		c.flush(false) // a paragraph is a unit: the next one starts a chunk
	}
	if c.start == c.end {
		c.start, c.page, c.tokens, c.bare = b.start, b.page, 0, true
	}
	c.end = b.end
	c.tokens += n
	c.bare = c.bare && b.heading > 0
}

// flush closes the open chunk; with overlap, the next one starts with its tail.
func (c *chunker) flush(overlap bool) {
	if c.start == c.end {
		return
	}
	s, e := trim(c.rs, c.start, c.end)
	if s < e {
		c.out = append(c.out, Chunk{Seq: len(c.out), Page: c.page, Heading: strings.Join(c.path, " › "),
			Start: s, End: e, Text: string(c.rs[s:e])})
	}
	if !overlap {
		c.start, c.end, c.tokens = 0, 0, 0
		return
	}
	c.start = tailStart(c.rs, c.start, c.end)
	c.tokens = prompt.Estimate(string(c.rs[c.start:c.end]))
}

func (c *chunker) setHeading(level int, title string) {
	if len(c.path) >= level {
		c.path = c.path[:level-1]
	}
	for len(c.path) < level-1 {
		c.path = append(c.path, "")
	}
	c.path = append(c.path, title)
	for len(c.path) > 0 && c.path[0] == "" {
		c.path = c.path[1:]
	}
}

// sentences cuts a long block at sentence ends (or, in a run without any, at
// TargetTokens) into blocks the chunker can take.
func (c *chunker) sentences(b block) []block {
	var out []block
	from, tok, quarters := b.start, 0, 4*TargetTokens
	for i := b.start; i < b.end; i++ {
		tok += runeCost(c.rs[i])
		end := i+1 == b.end || sentenceEnd(c.rs, i)
		if (end && tok >= quarters/3) || tok >= 4*quarters/5 || i+1 == b.end {
			out = append(out, block{start: from, end: i + 1, page: b.page, sentence: len(out) > 0})
			from, tok = i+1, 0
		}
	}
	return out
}

// runeCost is a rune's share of prompt.Estimate in quarter tokens: four for a
// CJK character, one for ASCII, two for the rest.
func runeCost(r rune) int {
	switch {
	case r < 0x80:
		return 1
	case text.IsCJK(r):
		return 4
	}
	return 2
}

func sentenceEnd(rs []rune, i int) bool {
	switch rs[i] {
	case '。', '！', '？', '；', '\n':
		return true
	case '.', '!', '?':
		return i+1 == len(rs) || unicode.IsSpace(rs[i+1])
	}
	return false
}

// tailStart is where an overlap of about OverlapTokens before end begins: at a
// sentence start when one is near, else at a word start.
func tailStart(rs []rune, start, end int) int {
	budget := OverlapTokens * 4
	i := end
	for i > start && budget > 0 {
		i--
		budget -= runeCost(rs[i])
	}
	for j := i; j < end && j-i < 200; j++ {
		if j > start && sentenceEnd(rs, j-1) {
			return j
		}
	}
	for i < end && !unicode.IsSpace(rs[i]) && !text.IsCJK(rs[i]) {
		i++
	}
	return i
}

func trim(rs []rune, s, e int) (int, int) {
	for s < e && unicode.IsSpace(rs[s]) {
		s++
	}
	for e > s && unicode.IsSpace(rs[e-1]) {
		e--
	}
	return s, e
}
