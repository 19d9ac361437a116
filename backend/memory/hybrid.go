package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Reciprocal rank fusion: score = Σ weight/(rrfK + rank). A lexical hit shares a
// content word (or its stem) with the question, so its list is trusted a little
// more than the vector list, which always returns something.
const (
	rrfK          = 60
	lexicalWeight = 1.0
	vectorWeight  = 0.8
)

// candidate is a memory found by the lexical search, the vector search or both.
type candidate struct {
	Memory
	lexRank int     // 1-based; 0 when the lexical search did not find it
	vecRank int     // 1-based; 0 when the vector search did not find it
	bm25    float64 // higher is better
	sim     float64 // cosine to the query
	score   float64 // fused
}

// hybrid finds up to n active memories of profile for text by BM25 and by vector
// similarity, and fuses both rankings by reciprocal rank fusion, best first.
func (s *Store) hybrid(ctx context.Context, profile, text string, n int) ([]candidate, error) {
	// The two searches run side by side: one in SQLite, one in the vector index.
	var vec []vecHit
	done := make(chan struct{})
	go func() {
		defer close(done)
		vec = s.vectorSearch(ctx, profile, text, n)
	}()
	lex, err := s.lexical(ctx, profile, queryTerms(text), n)
	<-done
	if err != nil {
		return nil, err
	}
	byRid := map[int64]*candidate{}
	byID := map[string]*candidate{}
	for i, h := range lex {
		byRid[h.rid] = &candidate{lexRank: i + 1, bm25: h.score}
	}
	for i, h := range vec {
		byID[h.ID] = &candidate{vecRank: i + 1, sim: h.Sim}
	}
	if len(byRid)+len(byID) == 0 {
		return nil, nil
	}
	mems, err := s.loadMany(ctx, keys(byRid), keysStr(byID))
	if err != nil {
		return nil, err
	}
	out := make([]candidate, 0, len(mems))
	for _, m := range mems {
		c := candidate{Memory: m}
		if l := byRid[m.rid]; l != nil {
			c.lexRank, c.bm25 = l.lexRank, l.bm25
		}
		if v := byID[m.ID]; v != nil {
			c.vecRank, c.sim = v.vecRank, v.sim
		}
		if c.lexRank > 0 {
			c.score += lexicalWeight / float64(rrfK+c.lexRank)
		}
		if c.vecRank > 0 {
			c.score += vectorWeight / float64(rrfK+c.vecRank)
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].sim > out[j].sim
	})
	return out, nil
}

// vectorSearch embeds text with the current embedder and searches its index; an
// embedder that fails leaves recall lexical (and is logged).
func (s *Store) vectorSearch(ctx context.Context, profile, text string, n int) []vecHit {
	emb, idx := s.current()
	if idx.count(profile) == 0 {
		return nil
	}
	vecs, err := emb.Embed(ctx, []string{text})
	if err != nil || len(vecs) != 1 {
		s.cfg.Logf("memory: vector search skipped: %v", err)
		return nil
	}
	hits, err := idx.query(ctx, profile, vecs[0], n)
	if err != nil {
		s.cfg.Logf("memory: vector search failed: %v", err)
		return nil
	}
	return hits
}

// loadMany reads memories by rowid and by id.
func (s *Store) loadMany(ctx context.Context, rids []int64, ids []string) ([]Memory, error) {
	var conds []string
	var args []any
	if len(rids) > 0 {
		conds = append(conds, "m.rid IN ("+placeholders(len(rids))+")")
		for _, r := range rids {
			args = append(args, r)
		}
	}
	if len(ids) > 0 {
		conds = append(conds, "m.id IN ("+placeholders(len(ids))+")")
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryCols+` FROM memories m WHERE `+strings.Join(conds, " OR "), args...)
	if err != nil {
		return nil, fmt.Errorf("load memories: %w", err)
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, fmt.Errorf("load memories: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

func keys(m map[int64]*candidate) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func keysStr(m map[string]*candidate) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
