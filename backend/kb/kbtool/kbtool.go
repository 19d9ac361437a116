// Package kbtool offers the knowledge base to the model as the read-only tool
// knowledge_search: passages from the user's own documents, numbered so the
// reply can cite them as [1], [2].
package kbtool

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"hermes/backend/kb"
	"hermes/backend/tools"
)

// Name is the tool's name.
const Name = "knowledge_search"

// Searcher is what the tool uses; the app's knowledge service satisfies it.
type Searcher interface {
	// RelevantIn finds up to k passages for query in the collections ids (nil:
	// every one) that pass the relevance rule (none rather than a guess).
	RelevantIn(ctx context.Context, query string, ids []int64, k int) ([]kb.Hit, error)
	// CollectionID is the id of the collection named name.
	CollectionID(ctx context.Context, name string) (int64, error)
}

// Source is one passage as the model reads it.
type Source struct {
	N          int    `json:"n"`
	Chunk      int64  `json:"-"`
	File       string `json:"file"`
	Page       int    `json:"page,omitempty"`
	Heading    string `json:"heading,omitempty"`
	Collection string `json:"collection"`
	Text       string `json:"text"`
}

// Result is the tool's answer.
type Result struct {
	Sources []Source `json:"sources"`
	Note    string   `json:"note"`
}

const (
	citeNote    = "Answer from these sources and cite each one you use as [n] (its number). Do not cite anything else."
	nothingNote = "Nothing in the user's documents matches this. Say so; do not invent sources or citations."
)

// New is the knowledge_search tool over s.
func New(s Searcher) tools.Tool {
	return &tools.Func{
		ToolName: Name,
		ToolDescription: "Search the user's own documents (folders they added to the knowledge base) for passages that answer a question. " +
			"Use it for questions about their manuals, notes, procedures or files. Results are numbered sources to cite as [n].",
		Params: json.RawMessage(`{"type":"object","properties":{
			"query":{"type":"string","minLength":1,"maxLength":500,"description":"the question or the words to look for"},
			"collection":{"type":"string","maxLength":200,"description":"search only this collection (default: all)"},
			"limit":{"type":"integer","minimum":1,"maximum":10,"description":"how many passages (default 5)"}},
			"required":["query"],"additionalProperties":false}`),
		Annots: tools.Annotations{ReadOnly: true},
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct {
				Query      string `json:"query"`
				Collection string `json:"collection"`
				Limit      int    `json:"limit"`
			}
			if err := tools.ReadArgs("search the knowledge base", args, &in); err != nil {
				return nil, err
			}
			if in.Limit == 0 {
				in.Limit = kb.DefaultK
			}
			ids, err := scope(ctx, s, in.Collection)
			if err != nil {
				return nil, err
			}
			var hits []kb.Hit
			if ids == nil || len(ids) > 0 {
				if hits, err = s.RelevantIn(ctx, in.Query, ids, in.Limit); err != nil {
					return nil, fmt.Errorf("search the knowledge base: %w", err)
				}
			}
			book := BookFrom(ctx)
			if book == nil {
				book = NewBook()
			}
			return tools.JSONResult("search the knowledge base", result(book.Add(hits)))
		},
	}
}

// scope is the collections a call may search: the chat's limit (nil: every
// collection), narrowed to the one the model named.
func scope(ctx context.Context, s Searcher, name string) ([]int64, error) {
	limit := CollectionsFrom(ctx)
	if name == "" {
		return limit, nil
	}
	id, err := s.CollectionID(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("search the knowledge base: %w", err)
	}
	if limit != nil && !slices.Contains(limit, id) {
		return []int64{}, nil // this chat may not cite it: nothing found
	}
	return []int64{id}, nil
}

type collectionsKey struct{}

// WithCollections returns ctx carrying a chat's limit on the collections it
// may cite (nil: every one).
func WithCollections(ctx context.Context, ids []int64) context.Context {
	return context.WithValue(ctx, collectionsKey{}, ids)
}

// CollectionsFrom is the limit WithCollections put in ctx (nil: none).
func CollectionsFrom(ctx context.Context) []int64 {
	ids, _ := ctx.Value(collectionsKey{}).([]int64)
	return ids
}

// result is the tool's answer for numbered sources.
func result(sources []Source) Result {
	r := Result{Sources: append([]Source{}, sources...), Note: nothingNote}
	if len(sources) > 0 {
		r.Note = citeNote
	}
	return r
}

// Register adds the tool to reg in the read-only group (question and task
// turns see it), on as active says; the user's switch goes to onSwitch, which
// applies it with reg.Activate (the owner offers the tool only while a
// collection exists and the user has not switched it off).
func Register(reg *tools.Registry, s Searcher, active bool, onSwitch func(name string, on bool) error) error {
	if err := reg.Register(New(s), tools.WithGroups(tools.GroupReadOnly), tools.WithSwitch(onSwitch), tools.WithOwnSchemas()); err != nil {
		return fmt.Errorf("register %s: %w", Name, err)
	}
	return reg.Activate(Name, active)
}
