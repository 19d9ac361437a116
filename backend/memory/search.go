package memory

import (
	"context"
	"fmt"
	"strings"
)

// Hit is one search result (docs/architecture.md, "Command-line contract": memory_id, ref, text, score).
type Hit struct {
	MemoryID string  `json:"memory_id"`
	Ref      string  `json:"ref"`
	Text     string  `json:"text"`
	Score    float64 `json:"score"`
	Memory   Memory  `json:"-"`
}

// Search ranks the active memories of profile for query by the hybrid score and
// returns the top k (default 10, at most 100) without the injection threshold:
// what the memory browser and `hermes memory search` show.
func (s *Store) Search(ctx context.Context, profile, query string, k int) ([]Hit, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("search memories: %w: the query is empty", ErrInvalid)
	}
	if k <= 0 {
		k = 10
	}
	k = min(k, 100)
	profile = s.profileOr(profile)
	cands, err := s.hybrid(ctx, profile, query, max(2*k, 20))
	if err != nil {
		return nil, fmt.Errorf("search memories: %w", err)
	}
	now := s.now()
	out := make([]Hit, 0, k)
	for _, c := range cands {
		if len(out) == k {
			break
		}
		if c.Status != StatusActive || c.Profile != profile {
			continue
		}
		m := s.withStrength(c.Memory, now)
		out = append(out, Hit{MemoryID: m.ID, Ref: m.Ref, Text: m.Text, Score: c.score, Memory: m})
	}
	return out, nil
}
