// Package kb is the knowledge base: folders and files on this computer, added
// by the user as named collections, read through the parser cage, cut into
// chunks that follow the documents' structure, and searched by the shared
// retrieval rules (backend/retrieval) over a full-text index and chromem-go
// vectors. Files are kept as references: the chunks, their index entries and
// vectors are all Hermes stores of them, and removing a collection erases them
// with a receipt. See docs/architecture.md, "The knowledge base".
package kb

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"hermes/backend/document"
	"hermes/backend/retrieval"
	"hermes/backend/store"
	"hermes/backend/vector"
)

// Reader reads a file's text for the index (package cage: the parsers in a
// child process; images and scans through text recognition).
type Reader interface {
	ExtractText(ctx context.Context, name string, data []byte) (document.Doc, error)
}

// Embedder turns texts into vectors (package embed).
type Embedder interface {
	Name() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Errors a caller words for the user.
var (
	ErrNotFound   = errors.New("no such collection")
	ErrExists     = errors.New("collection already exists")
	ErrNoFolder   = errors.New("folder not found")
	ErrEmptyQuery = errors.New("empty query")
	// ErrPaused is an indexing pass that Pause stopped or did not let start.
	ErrPaused = errors.New("indexing is paused")
)

// Config wires a Store.
type Config struct {
	Reader   Reader
	Embedder Embedder
	// VectorWeight is the vectors' weight beside the words' (1) when results
	// are fused; 0 puts the vectors' results after the words' instead (right
	// for the offline embedder, a hashed bag of words that only adds noise to
	// a word match: measured on kb-dev, see the README).
	VectorWeight float64
	// OnProgress hears indexing progress (after each file); nil: nobody.
	OnProgress func(Progress)
	// OnChange hears that a collection's files or state changed; nil: nobody.
	OnChange func(collection string)
	Now      func() time.Time
}

// Store is the knowledge base of one data dir. It is safe for concurrent use.
type Store struct {
	db  *store.DB
	cfg Config

	work   sync.Mutex  // one indexing pass at a time
	paused atomic.Bool // Pause: passes stop at the next batch until Resume

	vmu    sync.Mutex
	vecs   *vector.Index // loaded on the first search or write
	loaded bool

	words *retrieval.Index        // the passages' full-text index (kb_fts)
	watch atomic.Pointer[watcher] // the running Watch, if any
}

// New is the knowledge base over db.
func New(db *store.DB, cfg Config) *Store {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Store{db: db, cfg: cfg, vecs: vector.New(), words: retrieval.NewIndex(db, "kb_fts", `SELECT COUNT(*) FROM kb_chunks`)}
}

// Pause stops indexing (the pass under way at its next batch, the watcher's
// too) until Resume; the files not read wait.
func (s *Store) Pause() { s.paused.Store(true) }

// Resume lets indexing run again (Index then reads the waiting files).
func (s *Store) Resume() { s.paused.Store(false) }

// Paused is whether indexing is paused.
func (s *Store) Paused() bool { return s.paused.Load() }

func (s *Store) now() string { return s.cfg.Now().UTC().Format(time.RFC3339Nano) }

func (s *Store) changed(collection string) {
	if s.cfg.OnChange != nil {
		s.cfg.OnChange(collection)
	}
}

// scope is a collection's token in the full-text index's scope column.
func scope(id int64) string { return "k" + itoa(id) }

// vectorName is a collection's collection in the vector index.
func vectorName(id int64) string { return vector.Name("knowledge", itoa(id)) }
