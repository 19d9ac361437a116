package memory

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
)

// Query asks for the memories that may help answer a message.
type Query struct {
	Profile string
	Text    string
	// K is how many facts to offer at most (default 5, at most 20); profile
	// memories come on top of them.
	K int
	// SessionID lets the session's working memories in.
	SessionID string
	// MessageID is the message the recall is for; when set, what was offered is
	// logged for "why did it say that?".
	MessageID string
	// Incognito reads nothing and logs nothing.
	Incognito bool
	// Category, when set (the intent's memory category), favours memories of it.
	Category string
}

// Recalled is a memory offered to the model.
type Recalled struct {
	Memory      Memory  `json:"memory"`
	Score       float64 `json:"score"` // fused rank score; 0 for profile memories
	LexicalRank int     `json:"lexical_rank"`
	VectorRank  int     `json:"vector_rank"`
	Similarity  float64 `json:"similarity"`
	// Always marks a profile memory, offered with every recall.
	Always bool `json:"always"`
	// Source says where it comes from: "you told me on 2026-11-02".
	Source string `json:"source"`
	// Prompt is what the model sees: the source, then the text.
	Prompt string `json:"prompt"`
	// Rerank is the reranker's score; Reason says why it was offered.
	Rerank float64 `json:"rerank"`
	Reason string  `json:"reason,omitempty"`
}

// dropped is a reranked candidate that was not offered, and why (for the recall log).
type dropped struct {
	c      candidate
	reason string
}

// Recall returns the memories to offer the model for q: the profile memories, then
// up to K facts (and working memories of the session) found by hybrid search,
// filtered to the profile and to active, valid, not decayed memories, above the
// injection threshold, without duplicates. Call it only when the turn's plan asks
// for recall.
func (s *Store) Recall(ctx context.Context, q Query) ([]Recalled, error) {
	if q.Incognito {
		return nil, nil
	}
	q.Profile = s.profileOr(q.Profile)
	if q.K <= 0 {
		q.K = 5
	}
	q.K = min(q.K, 20)
	now := s.now()
	prof, err := s.profileMemories(ctx, q.Profile)
	if err != nil {
		return nil, fmt.Errorf("recall: %w", err)
	}
	var out []Recalled
	seen := map[string]bool{}
	for _, m := range prof {
		seen[dedupKey(m)] = true
		out = append(out, s.recalled(m, now, candidate{}, true))
	}
	cands, err := s.hybridFor(ctx, q.Profile, q.Text, q.Category, max(4*q.K, 20))
	if err != nil {
		return nil, fmt.Errorf("recall: %w", err)
	}
	facts := 0
	var drops []dropped
	var decayed []candidate // active facts dropped only for their strength
	for _, c := range cands {
		why := ""
		switch {
		case c.Profile == q.Profile && c.Layer == LayerFact && c.Offerable(now) && s.strength(c.Memory, now) < s.cfg.ArchiveBelow:
			why = "decayed below the archive threshold"
			decayed = append(decayed, c)
		case c.Profile != q.Profile || !s.offerable(c.Memory, q.SessionID, now):
			why = "not offerable (another profile, not active, decayed or another session's)"
		case s.stages.rerank && c.rr.Total+c.rr.Offer < s.stages.threshold:
			why = fmt.Sprintf("below the threshold %.2f: %s", s.stages.threshold, c.rr.why())
		case !s.stages.rerank && !(c.lexRank > 0 || c.sim >= s.minSimilarity()):
			why = "found by similarity only, below the similarity threshold"
		case facts == q.K:
			why = fmt.Sprintf("beyond the %d offered", q.K)
		}
		if why == "" {
			if k := dedupKey(c.Memory); seen[k] {
				why = "says the same as a memory offered"
			} else {
				seen[k] = true
			}
		}
		if why != "" {
			if len(drops) < 20 {
				drops = append(drops, dropped{c, why})
			}
			continue
		}
		r := s.recalled(c.Memory, now, c, false)
		r.Rerank, r.Reason = c.rr.Total, c.rr.why()
		out = append(out, r)
		facts++
	}
	if facts == 0 {
		old, err := s.fromArchive(ctx, q, decayed, now)
		if err != nil {
			return out, err
		}
		out = append(out, old...)
	}
	if q.MessageID != "" && (len(out) > 0 || len(drops) > 0) {
		if err := s.logRecall(ctx, q, out, drops, now); err != nil {
			return out, fmt.Errorf("recall: %w", err)
		}
	}
	return out, nil
}

// minSimilarity is the cosine a memory found only by vector needs to be offered:
// the configured threshold, raised for small dimensions, where unrelated vectors
// reach high cosines by chance (4.5 standard deviations of a random cosine).
func (s *Store) minSimilarity() float64 {
	_, idx := s.current()
	if d := idx.dimension(); d > 0 {
		return max(s.cfg.MinSimilarity, 4.5/math.Sqrt(float64(d)))
	}
	return s.cfg.MinSimilarity
}

// offerable: active, valid, strong enough, and a working memory only in its session.
func (s *Store) offerable(m Memory, sessionID string, now time.Time) bool {
	if !m.Offerable(now) {
		return false
	}
	if m.Layer == LayerWorking && (sessionID == "" || m.SessionID != sessionID) {
		return false
	}
	return s.strength(m, now) >= s.cfg.ArchiveBelow
}

// dedupKey identifies memories that say the same: the same key and value, or the
// same normalized text.
func dedupKey(m Memory) string {
	if m.Key != "" && m.Value != "" {
		return "k\x00" + m.Key + "\x00" + normalize(m.Value)
	}
	return "t\x00" + normalize(m.Text)
}

func (s *Store) recalled(m Memory, now time.Time, c candidate, always bool) Recalled {
	m = s.withStrength(m, now)
	src := s.source(m)
	return Recalled{Memory: m, Score: c.score, LexicalRank: c.lexRank, VectorRank: c.vecRank, Similarity: c.sim,
		Always: always, Source: src, Prompt: s.PromptLine(m)}
}

// PromptLine is how a memory is offered to the model: where it comes from, then its
// text (what recall's Prompt holds).
func (s *Store) PromptLine(m Memory) string { return s.source(m) + ": " + m.Text }

// source words where a memory comes from, for the model and the user.
func (s *Store) source(m Memory) string {
	day := func(t time.Time) string { return t.In(s.cfg.Location).Format("2006-01-02") }
	switch {
	case m.Layer == LayerProfile:
		return "from your profile (confirmed " + day(m.LastConfirmedAt) + ")"
	case m.Layer == LayerWorking:
		return "you said earlier in this conversation"
	case m.Origin == OriginImport:
		return "from your imported notes (dated " + day(m.CreatedAt) + ")"
	case m.AssertedBy == AssertedByModel:
		return "I inferred on " + day(m.CreatedAt)
	case m.AssertedBy == AssertedByTool:
		return "I noted on " + day(m.CreatedAt)
	}
	return "you told me on " + day(m.CreatedAt)
}

func (s *Store) profileMemories(ctx context.Context, profile string) ([]Memory, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryCols+` FROM memories m
		WHERE m.profile = ? AND m.layer = 'profile' AND m.status = 'active' AND (m.valid_until IS NULL OR m.valid_until > ?)
		ORDER BY m.last_confirmed_at DESC LIMIT ?`, profile, ts(s.now()), s.cfg.MaxProfileItems)
	if err != nil {
		return nil, fmt.Errorf("profile memories: %w", err)
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, fmt.Errorf("profile memories: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// logRecall logs what was offered (kept, in order; profile memories "always"),
// then the reranked candidates that were dropped, each with its scores and reason.
func (s *Store) logRecall(ctx context.Context, q Query, out []Recalled, drops []dropped, now time.Time) error {
	// One statement for all rows: a recall logs up to 25 of them.
	var vals []string
	var args []any
	row := func(rid int64, rank int, score float64, lr, vr int, sim float64, kept bool, rerank float64, reason string) {
		vals = append(vals, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, q.MessageID, nullStr(q.SessionID), rid, rank, score, lr, vr, sim, ts(now), kept, rerank, reason)
	}
	for i, r := range out {
		reason := "kept: " + r.Reason
		if r.Always {
			reason = "kept: confirmed profile memory, always offered"
		}
		row(r.Memory.rid, i+1, r.Score, r.LexicalRank, r.VectorRank, r.Similarity, true, r.Rerank, reason)
	}
	for i, d := range drops {
		row(d.c.rid, len(out)+i+1, d.c.score, d.c.lexRank, d.c.vecRank, d.c.sim, false, d.c.rr.Total, "dropped: "+d.reason)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO memory_recalls(message_id, session_id, memory_rid, rank, score, lexical_rank, vector_rank, similarity, at, kept, rerank, reason)
		VALUES `+strings.Join(vals, ", "), args...)
	if err != nil {
		return fmt.Errorf("log recall: %w", err)
	}
	return nil
}

// RecallCandidate is one candidate of a recall as the log keeps it: offered or
// dropped, its scores and the reason.
type RecallCandidate struct {
	RecallEntry
	Kept   bool    `json:"kept"`
	Rerank float64 `json:"rerank"`
	Reason string  `json:"reason"`
}

// RecallCandidates returns every candidate logged for a message, offered ones
// first: the recall log's answer to "why was this (not) offered?".
func (s *Store) RecallCandidates(ctx context.Context, messageID string) ([]RecallCandidate, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryCols+`, r.rank, r.score, r.lexical_rank, r.vector_rank, r.similarity, r.at, r.kept, r.rerank, r.reason
		FROM memory_recalls r JOIN memories m ON m.rid = r.memory_rid WHERE r.message_id = ? ORDER BY r.id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("recall candidates for %s: %w", messageID, err)
	}
	defer rows.Close()
	var out []RecallCandidate
	now := s.now()
	for rows.Next() {
		var c RecallCandidate
		var at string
		m, err := scanMemory(scanWith(rows, &c.Rank, &c.Score, &c.LexicalRank, &c.VectorRank, &c.Similarity, &at, &c.Kept, &c.Rerank, &c.Reason))
		if err != nil {
			return nil, fmt.Errorf("recall candidates for %s: %w", messageID, err)
		}
		c.Memory, c.At = s.withStrength(m, now), parseTS(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// RecallEntry is one memory that was offered for a message.
type RecallEntry struct {
	Memory      Memory    `json:"memory"`
	Rank        int       `json:"rank"`
	Score       float64   `json:"score"`
	LexicalRank int       `json:"lexical_rank"`
	VectorRank  int       `json:"vector_rank"`
	Similarity  float64   `json:"similarity"`
	At          time.Time `json:"at"`
}

// WhyRecalled answers "why did it say that?": the memories offered for a message,
// in the order they were offered. Forgotten memories are gone from the log too.
func (s *Store) WhyRecalled(ctx context.Context, messageID string) ([]RecallEntry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryCols+`, r.rank, r.score, r.lexical_rank, r.vector_rank, r.similarity, r.at
		FROM memory_recalls r JOIN memories m ON m.rid = r.memory_rid WHERE r.message_id = ? AND r.kept = 1 ORDER BY r.id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("why recalled for %s: %w", messageID, err)
	}
	defer rows.Close()
	var out []RecallEntry
	now := s.now()
	for rows.Next() {
		var e RecallEntry
		var at string
		m, err := scanMemory(scanWith(rows, &e.Rank, &e.Score, &e.LexicalRank, &e.VectorRank, &e.Similarity, &at))
		if err != nil {
			return nil, fmt.Errorf("why recalled for %s: %w", messageID, err)
		}
		e.Memory, e.At = s.withStrength(m, now), parseTS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// RecallBatch keeps the entries of the first recall made at or after at: one recall
// logs its memories with one time, and a continued turn recalls again for the same
// message. A zero at (a recipe without it) keeps the newest batch.
func RecallBatch(entries []RecallEntry, at time.Time) []RecallEntry {
	var batch time.Time
	for _, e := range entries {
		switch {
		case at.IsZero() && e.At.After(batch):
			batch = e.At
		case !at.IsZero() && !e.At.Before(at) && (batch.IsZero() || e.At.Before(batch)):
			batch = e.At
		}
	}
	var out []RecallEntry
	for _, e := range entries {
		if e.At.Equal(batch) {
			out = append(out, e)
		}
	}
	return out
}

// scanWith scans a memory followed by extra columns.
func scanWith(row interface{ Scan(...any) error }, extra ...any) interface{ Scan(...any) error } {
	return scanFunc(func(dest ...any) error { return row.Scan(append(dest, extra...)...) })
}

type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }
