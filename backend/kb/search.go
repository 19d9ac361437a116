package kb

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"hermes/backend/retrieval"
)

// Query is a knowledge-base search.
type Query struct {
	Text        string
	Collections []int64 // nil: every collection
	K           int     // results wanted; 0 is DefaultK
}

// DefaultK is the results a search returns unless asked.
const DefaultK = 5

// Hit is one chunk found, with where it comes from.
type Hit struct {
	Chunk      int64   `json:"chunk"`
	Collection string  `json:"collection"`
	File       string  `json:"file"` // relative to the collection's folder
	Path       string  `json:"path"` // on disk
	Page       int     `json:"page,omitempty"`
	Heading    string  `json:"heading,omitempty"`
	Text       string  `json:"text"`
	Start      int     `json:"start"`
	End        int     `json:"end"`
	Score      float64 `json:"score"`
	Words      bool    `json:"words"`   // found by its words
	Meaning    bool    `json:"meaning"` // found by its vector
}

// lexicalWeight is the words' list's weight in the fusion (Config.VectorWeight
// the vectors').
const lexicalWeight = 1.0

// Search finds the chunks that best answer q: BM25 over the query's terms
// (the shared retrieval rules) and the nearest vectors, fused by rank.
func (s *Store) Search(ctx context.Context, q Query) ([]Hit, error) {
	if strings.TrimSpace(q.Text) == "" {
		return nil, ErrEmptyQuery
	}
	k := q.K
	if k <= 0 {
		k = DefaultK
	}
	n := max(4*k, 40)
	colls, err := s.collections(ctx, q.Collections)
	if err != nil || len(colls) == 0 {
		return nil, err
	}
	lex, near, err := s.candidates(ctx, q.Text, q.Collections, colls, k, n)
	if err != nil {
		return nil, fmt.Errorf("search the knowledge base: %w", err)
	}
	fused := s.fuse(lex, near)
	if len(fused) > k {
		fused = fused[:k]
	}
	hits, err := s.load(ctx, fused, lex, near)
	if err != nil {
		return nil, fmt.Errorf("search the knowledge base: %w", err)
	}
	return hits, nil
}

// candidates are the passages the words find and those nearest in meaning, n
// of each. Fused (VectorWeight > 0), both searches run side by side; else the
// vectors are asked only when the words find fewer than k.
func (s *Store) candidates(ctx context.Context, text string, filter, colls []int64, k, n int) (lex, near []int64, err error) {
	if s.cfg.VectorWeight <= 0 {
		if lex, err = s.lexical(ctx, text, filter, n); err != nil || len(lex) >= k {
			return lex, nil, err
		}
		return lex, s.nearest(ctx, colls, text, n), nil
	}
	vecIDs := make(chan []int64, 1)
	go func() { vecIDs <- s.nearest(ctx, colls, text, n) }()
	lex, err = s.lexical(ctx, text, filter, n)
	return lex, <-vecIDs, err
}

// Relevant is whether a hit passes the relevance rule: found by its words, or
// by its meaning when the embedder is a model (VectorWeight > 0); the offline
// embedder's nearest vectors alone are not evidence.
func (s *Store) Relevant(h Hit) bool { return h.Words || (h.Meaning && s.cfg.VectorWeight > 0) }

// fuse ranks the words' and the vectors' results together; with no vector
// weight, the vectors' only follow the words' (they find what shares no word).
func (s *Store) fuse(lex, near []int64) []retrieval.Scored {
	if s.cfg.VectorWeight > 0 {
		return retrieval.Fuse(retrieval.Ranked{IDs: lex, Weight: lexicalWeight}, retrieval.Ranked{IDs: near, Weight: s.cfg.VectorWeight})
	}
	first := retrieval.Fuse(retrieval.Ranked{IDs: lex, Weight: lexicalWeight})
	seen := set(lex)
	for i, id := range near {
		if !seen[id] {
			first = append(first, retrieval.Scored{ID: id, Score: retrieval.RRF(lexicalWeight, len(lex)+i+1)})
		}
	}
	return first
}

// collections is ids, or every collection's id when ids is nil.
func (s *Store) collections(ctx context.Context, ids []int64) ([]int64, error) {
	if ids != nil {
		return ids, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM kb_collections`)
	if err != nil {
		return nil, fmt.Errorf("search the knowledge base: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func (s *Store) lexical(ctx context.Context, q string, colls []int64, n int) ([]int64, error) {
	var scopes []string
	for _, id := range colls {
		scopes = append(scopes, scope(id))
	}
	rare, common := s.words.Split(ctx, retrieval.QueryTerms(q))
	if len(rare) == 0 { // only common words: rank by the rarest of them
		slices.SortStableFunc(common, func(a, b string) int { return s.words.TermRows(ctx, a) - s.words.TermRows(ctx, b) })
		rare = common[:min(2, len(common))]
	}
	hits, err := s.words.Rank(ctx, retrieval.Ranking{Expr: retrieval.MatchAny(rare, scopes), Limit: n})
	return retrieval.IDs(hits), err
}

// nearest is the chunks nearest to q by meaning; none without an embedder or
// when it fails (the words still find them).
func (s *Store) nearest(ctx context.Context, colls []int64, q string, n int) []int64 {
	if s.cfg.Embedder == nil || s.loadVectors(ctx) != nil {
		return nil
	}
	vecs, err := s.cfg.Embedder.Embed(ctx, []string{q})
	if err != nil || len(vecs) != 1 {
		return nil
	}
	return s.queryVectors(ctx, colls, vecs[0], n)
}

// load reads the fused chunks, best first.
func (s *Store) load(ctx context.Context, fused []retrieval.Scored, lex, near []int64) ([]Hit, error) {
	if len(fused) == 0 {
		return nil, nil
	}
	ids := make([]any, len(fused))
	marks := make([]string, len(fused))
	for i, f := range fused {
		ids[i], marks[i] = f.ID, "?"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT k.id, c.name, c.root, c.single, f.path, k.page, k.heading, k.text, k.start_at, k.end_at
		FROM kb_chunks k JOIN kb_files f ON f.id = k.file_id JOIN kb_collections c ON c.id = f.collection_id
		WHERE k.id IN (`+strings.Join(marks, ",")+`)`, ids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[int64]Hit{}
	for rows.Next() {
		var h Hit
		var root string
		var single bool
		if err := rows.Scan(&h.Chunk, &h.Collection, &root, &single, &h.File, &h.Page, &h.Heading, &h.Text, &h.Start, &h.End); err != nil {
			return nil, err
		}
		h.Path = root
		if !single {
			h.Path = filepath.Join(root, filepath.FromSlash(h.File))
		}
		byID[h.Chunk] = h
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return ordered(fused, byID, set(lex), set(near)), nil
}

func ordered(fused []retrieval.Scored, byID map[int64]Hit, lex, near map[int64]bool) []Hit {
	out := make([]Hit, 0, len(fused))
	for _, f := range fused {
		h, ok := byID[f.ID]
		if !ok {
			continue // erased meanwhile
		}
		h.Score, h.Words, h.Meaning = f.Score, lex[f.ID], near[f.ID]
		out = append(out, h)
	}
	return out
}

func set(ids []int64) map[int64]bool {
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}
