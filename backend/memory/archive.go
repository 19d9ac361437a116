package memory

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// The archive is where decayed facts go: not offered with every question, but
// a question that names one directly still finds it, marked as old (the user
// may be asking precisely because it was long ago).

// archiveCover is how much of a question's weight an archived fact must cover
// to be recalled from the archive: the question names it, not just a word of it.
const archiveCover = 0.5

// archiveScan is how many archived facts of a profile the fallback reads,
// newest confirmed first.
const archiveScan = 2000

// archiveOffered is how many archived facts one recall may bring back.
const archiveOffered = 2

// fromArchive is recall's fallback when no fact was offered: the archived (or
// decayed, not yet swept) facts of q's profile that the question names, best
// first, at most archiveOffered, each marked old. decayed are the candidates
// recall dropped only for their strength.
func (s *Store) fromArchive(ctx context.Context, q Query, decayed []candidate, now time.Time) ([]Recalled, error) {
	archived, err := queryMemories(ctx, s.db, `m.profile = ? AND m.layer = 'fact' AND m.status = 'archived'
		AND (m.valid_until IS NULL OR m.valid_until > ?) ORDER BY m.last_confirmed_at DESC LIMIT ?`, q.Profile, ts(now), archiveScan)
	if err != nil {
		return nil, fmt.Errorf("recall from the archive: %w", err)
	}
	cands := append([]candidate(nil), decayed...)
	for _, m := range archived {
		cands = append(cands, candidate{Memory: m})
	}
	if len(cands) == 0 {
		return nil, nil
	}
	a := s.analyze(ctx, q.Text, now)
	a.category = q.Category
	if len(a.terms) == 0 {
		return nil, nil
	}
	for i := range cands { // scored by the words the question shares with each, as the reranker scores
		cands[i].rr = s.scoreOne(a, &cands[i], termPositions(cands[i].Memory), termFields(cands[i].Memory), nil, now)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].rr.Total > cands[j].rr.Total })
	var out []Recalled
	for _, c := range cands {
		if len(out) == archiveOffered {
			break
		}
		if c.rr.Cover < archiveCover {
			continue
		}
		r := s.recalled(c.Memory, now, c, false)
		r.Source = s.source(c.Memory) + " (long ago: archived, may be out of date)"
		r.Prompt = r.Source + ": " + c.Text
		r.Rerank, r.Reason = c.rr.Total, "from the archive: the question names it ("+c.rr.why()+")"
		out = append(out, r)
	}
	return out, nil
}
