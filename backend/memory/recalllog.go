package memory

import (
	"context"
	"time"
)

// Offered is what the recall of queryID at time at offered the model, by rank:
// each memory's prompt line as the memory is now (a memory forgotten since is
// missing). It is the context inspector's view of a stored turn's memories.
func (s *Store) Offered(ctx context.Context, queryID string, at time.Time) (map[int]string, error) {
	entries, err := s.WhyRecalled(ctx, queryID)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, e := range RecallBatch(entries, at) {
		out[e.Rank] = s.PromptLine(e.Memory)
	}
	return out, nil
}
