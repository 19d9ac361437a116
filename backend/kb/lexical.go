package kb

import (
	"context"
	"sync"

	"hermes/backend/retrieval"
)

// termCounts caches how many passages each full-text term matches, for the
// common-term rule (retrieval.SplitCommon); emptied by every write.
type termCounts struct {
	mu   sync.Mutex
	rows int // passages in the index; -1 unknown
	by   map[string]int
}

func (t *termCounts) reset() {
	t.mu.Lock()
	t.rows, t.by = -1, nil
	t.mu.Unlock()
}

// split parts a question's terms into rare and common ones.
func (s *Store) split(ctx context.Context, terms []string) (rare, common []string) {
	return retrieval.SplitCommon(terms, func(term string) int { return s.termRows(ctx, term) }, retrieval.CommonFrom(s.chunkCount(ctx)))
}

func (s *Store) chunkCount(ctx context.Context) int {
	s.terms.mu.Lock()
	n := s.terms.rows
	s.terms.mu.Unlock()
	if n >= 0 {
		return n
	}
	if s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM kb_chunks`).Scan(&n) != nil {
		return 0
	}
	s.terms.mu.Lock()
	s.terms.rows = n
	s.terms.mu.Unlock()
	return n
}

func (s *Store) termRows(ctx context.Context, term string) int {
	s.terms.mu.Lock()
	n, ok := s.terms.by[term]
	s.terms.mu.Unlock()
	if ok {
		return n
	}
	n = retrieval.TermRows(ctx, func(ctx context.Context, q string, args ...any) retrieval.Row {
		return s.db.QueryRowContext(ctx, q, args...)
	}, "kb_fts_vocab", term)
	s.terms.mu.Lock()
	if s.terms.by == nil {
		s.terms.by = map[string]int{}
	}
	s.terms.by[term] = n
	s.terms.mu.Unlock()
	return n
}
