package memory

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/retrieval"
)

// Reciprocal rank fusion (retrieval.RRF): score = Σ weight/(RRFK + rank). A lexical hit shares a
// content word (or its stem) with the question, so its list is trusted a little
// more than the vector list, which always returns something.
const (
	lexicalWeight = 1.0
	vectorWeight  = 0.8
	conceptWeight = 0.6
)

// candidate is a memory found by the lexical search, the vector search or both.
type candidate struct {
	Memory
	lexRank int             // 1-based; 0 when the lexical search did not find it
	vecRank int             // 1-based; 0 when the vector search did not find it
	bm25    float64         // higher is better
	sim     float64         // cosine to the query
	score   float64         // fused
	conRank int             // 1-based rank in the concept search; 0 when not found there
	inTime  bool            // created in a time the query names
	asked   map[string]bool // terms of the question it answers (replies.go)
	rr      rerankScore
}

// hybrid finds up to n active memories of profile for q: candidates from BM25 over
// the query's words, BM25 over the words of the query's concepts, vector
// similarity and, when the query names a time ("last May", "去年"), the memories
// of that time; fused by reciprocal rank fusion and reranked (rerank.go), best first.
func (s *Store) hybrid(ctx context.Context, profile, q string, n int) ([]candidate, error) {
	return s.hybridFor(ctx, profile, q, "", n)
}

// hybridFor is hybrid favouring memories of category (the intent's), when set.
func (s *Store) hybridFor(ctx context.Context, profile, q, category string, n int) ([]candidate, error) {
	a := s.analyze(ctx, q, s.now())
	a.category = category
	// The vector search and the concept search run beside the lexical search.
	var vec []vecHit
	var con []lexHit
	var conErr error
	done := make(chan struct{}, 2)
	go func() {
		defer func() { done <- struct{}{} }()
		vec = s.vectorSearch(ctx, profile, q, n)
	}()
	go func() {
		defer func() { done <- struct{}{} }()
		if s.stages.concepts && len(a.expand) > 0 {
			con, conErr = s.lexical(ctx, profile, a.expand, n)
		}
	}()
	lex, err := s.lexical(ctx, profile, a.fts, n)
	var when []lexHit
	if err == nil && s.stages.time && len(a.spans) > 0 {
		when, err = s.inSpans(ctx, profile, a.spans, 5*n)
	}
	<-done
	<-done
	if err == nil {
		err = conErr
	}
	var replies map[int64]int
	if err == nil {
		replies, err = s.replies(ctx, profile, lex)
	}
	if err != nil {
		return nil, err
	}
	byRid := map[int64]*candidate{}
	byID := map[string]*candidate{}
	get := func(rid int64) *candidate {
		c := byRid[rid]
		if c == nil {
			c = &candidate{}
			byRid[rid] = c
		}
		return c
	}
	for i, h := range lex {
		c := get(h.rid)
		c.lexRank, c.bm25 = i+1, h.score
		c.score += retrieval.RRF(lexicalWeight, i+1)
	}
	for i, h := range con {
		c := get(h.rid)
		c.conRank = i + 1
		c.score += retrieval.RRF(conceptWeight, i+1)
	}
	for _, h := range when {
		get(h.rid).inTime = true
	}
	for rid, i := range replies {
		get(rid).score += retrieval.RRF(replyWeight, i+1)
	}
	for i, h := range vec {
		byID[h.ID] = &candidate{vecRank: i + 1, sim: h.Sim, score: retrieval.RRF(vectorWeight, i+1)}
	}
	if len(byRid)+len(byID) == 0 {
		return nil, nil
	}
	mems, err := s.loadMany(ctx, keys(byRid), keysStr(byID))
	if err != nil {
		return nil, err
	}
	asked, err := s.questionsAnswered(ctx, rids(mems))
	if err != nil {
		return nil, err
	}
	out := make([]candidate, 0, len(mems))
	for _, m := range mems {
		c := candidate{Memory: m, asked: asked[m.rid]}
		if l := byRid[m.rid]; l != nil {
			c.lexRank, c.bm25, c.conRank, c.inTime, c.score = l.lexRank, l.bm25, l.conRank, l.inTime, l.score
		}
		if v := byID[m.ID]; v != nil {
			c.vecRank, c.sim = v.vecRank, v.sim
			c.score += v.score
		}
		if len(a.spans) > 0 && !c.inTime {
			c.inTime = inAnySpan(a.spans, m.CreatedAt) || s.tellsOfSpan(m, a.spans)
		}
		out = append(out, c)
	}
	s.rerank(ctx, a, out)
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

func rids(ms []Memory) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.rid
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
