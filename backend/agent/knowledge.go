package agent

import (
	"context"
	"hermes/backend/lazyre"
	"slices"
	"strconv"
)

// Knowledge is the user's documents as a turn uses them (the knowledge base,
// through the app); nil: none.
type Knowledge interface {
	// Open starts the turn's sources. With auto (a question), the passages that
	// answer text are offered at once, numbered from 1; the returned ctx
	// carries the list to the knowledge_search tool, whose passages continue
	// the numbering. Nil Sources: there is no knowledge base to cite.
	Open(ctx context.Context, sessionID, text string, auto bool) (context.Context, Sources)
}

// Sources are the passages a turn offered, numbered as the reply cites them.
type Sources interface {
	Items() []string // the passages offered at once, fenced (prompt.KnowledgeItem)
	List() []Source  // every passage offered in the turn, tools' included
}

// Source is a passage a reply may cite as [N].
type Source struct {
	N          int    `json:"n"`
	Chunk      string `json:"chunk"`
	Collection string `json:"collection"`
	File       string `json:"file"`
	Page       int    `json:"page,omitempty"`
	Heading    string `json:"heading,omitempty"`
}

// autoKnowledge is whether a turn's plan asks for passages at once: a question.
func autoKnowledge(p Plan) bool { return p.Intent == "question" }

// citation finds "[3]" and "[1, 2]" in a reply.
var citation = lazyre.New(`\[(\d{1,3}(?:\s*[,，]\s*\d{1,3})*)\]`)

// citedNumber is one number of a citation.
var citedNumber = lazyre.New(`\d+`)

// BadCitations are the numbers a reply cites that no offered source has, in
// the order written, each once.
func BadCitations(reply string, offered []Source) []int {
	have := map[int]bool{}
	for _, s := range offered {
		have[s.N] = true
	}
	var bad []int
	for _, m := range citation.FindAllStringSubmatch(reply, -1) {
		for _, part := range citedNumber.FindAllString(m[1], -1) {
			n, _ := strconv.Atoi(part)
			if !have[n] && !slices.Contains(bad, n) {
				bad = append(bad, n)
			}
		}
	}
	return bad
}
