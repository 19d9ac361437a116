package app

import (
	"context"
	"strconv"

	"hermes/backend/agent"
	"hermes/backend/kb"
	"hermes/backend/kb/kbtool"
	"hermes/backend/prompt"
)

// autoPassages is how many passages a question is offered at once.
const autoPassages = 4

// Open starts a turn's sources (agent.Knowledge): with auto, the passages that
// pass the relevance rule are offered at once; the knowledge_search tool
// numbers its own after them. No collection: no sources.
func (k *Knowledge) Open(ctx context.Context, sessionID, text string, auto bool) (context.Context, agent.Sources) {
	if !knowledgeExists(ctx, k.c.db) {
		return ctx, nil
	}
	cs, _ := k.c.sessions.EffectiveChatSettings(ctx, sessionID) // its own, else its project's
	ids, all := parseIDs(cs.Knowledge)
	if !all && len(ids) == 0 {
		return ctx, nil // this chat cites no collection
	}
	ts := &turnSources{book: kbtool.NewBook()}
	if auto {
		if hits, err := k.store().Search(ctx, kb.Query{Text: text, Collections: ids, K: autoPassages}); err == nil {
			ts.auto = ts.book.Add(k.relevant(hits))
		}
	}
	return kbtool.WithBook(kbtool.WithCollections(ctx, ids), ts.book), ts
}

// turnSources are one turn's passages.
type turnSources struct {
	book *kbtool.Book
	auto []kbtool.Source
}

// Items are the passages offered at once, fenced and numbered.
func (s *turnSources) Items() []string {
	out := make([]string, len(s.auto))
	for i, src := range s.auto {
		out[i] = prompt.KnowledgeItem(src.N, src.File, src.Page, src.Heading, src.Text)
	}
	return out
}

// List is every passage the turn offered.
func (s *turnSources) List() []agent.Source {
	all := s.book.All()
	out := make([]agent.Source, len(all))
	for i, src := range all {
		out[i] = agent.Source{N: src.N, Chunk: strconv.FormatInt(src.Chunk, 10), Collection: src.Collection,
			File: src.File, Page: src.Page, Heading: src.Heading}
	}
	return out
}

var _ agent.Knowledge = (*Knowledge)(nil)
