package kbtool

import (
	"context"
	"sync"

	"hermes/backend/kb"
)

// Book numbers the passages one turn offers, the ones offered at once and the
// tool's, in one list: a passage offered twice keeps its number, so [n] in the
// reply means one passage.
type Book struct {
	mu   sync.Mutex
	list []Source
	by   map[int64]int // chunk -> index in list
}

// NewBook is an empty book.
func NewBook() *Book { return &Book{by: map[int64]int{}} }

// Add numbers hits (new ones after those already in) and returns them as
// sources, in the hits' order.
func (b *Book) Add(hits []kb.Hit) []Source {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Source, 0, len(hits))
	for _, h := range hits {
		i, ok := b.by[h.Chunk]
		if !ok {
			i = len(b.list)
			b.by[h.Chunk] = i
			b.list = append(b.list, Source{N: i + 1, Chunk: h.Chunk, File: h.File, Page: h.Page, Heading: h.Heading,
				Collection: h.Collection, Text: h.Text})
		}
		out = append(out, b.list[i])
	}
	return out
}

// All is every passage numbered so far.
func (b *Book) All() []Source {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Source(nil), b.list...)
}

type bookKey struct{}

// WithBook returns ctx carrying a turn's book to the tool.
func WithBook(ctx context.Context, b *Book) context.Context {
	return context.WithValue(ctx, bookKey{}, b)
}

// BookFrom is the book WithBook put in ctx, or nil.
func BookFrom(ctx context.Context) *Book {
	b, _ := ctx.Value(bookKey{}).(*Book)
	return b
}
