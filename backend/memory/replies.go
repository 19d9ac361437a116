package memory

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hermes/backend/text"
)

// A turn of an imported conversation is linked to the turn before it when both
// were said in one sitting (replyGap): "5 years already!" answers "How long have
// you been married?", and a question about the marriage should find the answer.
// Only the link is stored (memories.reply_to, cleared when that turn is erased);
// recall reads the earlier turn's words when it asks something (asksQuestion):
// the turns after a statement gain nothing from it (measured on locomo-dev: with
// every earlier turn hit@1 fell from 0.36 to 0.32; with questions only it rose).

// replyGap is the longest pause between two lines of an import that still makes
// the second a reply to the first.
const replyGap = 30 * time.Minute

// Weights of the earlier turn (tuned on ../shared/eval/locomo-dev; README,
// "Memory"): replyWeight is the RRF weight of the list of replies to the lexical
// hits, wReplyCover the share of the cover weight a term earns when only the
// question it answers has it.
const (
	replyWeight = 1.0
	wReplyCover = 1.0
)

// asksQuestion reports whether a turn asks something anywhere in it. It is
// not the write gate's isQuestion (the whole message phrased as a question):
// a turn often asks and goes on ("What concert was it? The advocacy event
// was…"); with isQuestion locomo-dev's hit@10 fell from 0.791 to 0.787.
func asksQuestion(s string) bool { return strings.ContainsAny(s, "?？") }

// follows reports whether an import's line answers the line before it (prev):
// both carry a time of day (a created_at with only a date says the day, not
// the sitting), and it follows prev within replyGap.
func follows(prev, l ImportLine) bool {
	timed := func(l ImportLine) bool { return len(l.CreatedAt) > len("2006-01-02") }
	if !timed(prev) || !timed(l) {
		return false
	}
	from, err1 := parseDay(prev.CreatedAt)
	to, err2 := parseDay(l.CreatedAt)
	gap := to.Sub(from)
	return err1 == nil && err2 == nil && gap >= 0 && gap <= replyGap
}

// replies finds the active memories of profile that answer one of hits (a
// ranked list): each with the 0-based rank of the best hit it answers.
func (s *Store) replies(ctx context.Context, profile string, hits []lexHit) (map[int64]int, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	rank := make(map[int64]int, len(hits))
	args := []any{profile}
	for i, h := range hits {
		if _, ok := rank[h.rid]; !ok {
			rank[h.rid] = i
		}
		args = append(args, h.rid)
	}
	// The unary pluses keep the planner on memories_by_reply: on
	// memories_by_status it read every active memory (80 ms at 100,000).
	rows, err := s.db.QueryContext(ctx, `SELECT rid, reply_to FROM memories WHERE +profile = ? AND +status = 'active'
		AND reply_to IN (`+placeholders(len(hits))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("replies: %w", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var rid, to int64
		if err := rows.Scan(&rid, &to); err != nil {
			return nil, fmt.Errorf("replies: %w", err)
		}
		if r, ok := out[rid]; !ok || rank[to] < r {
			out[rid] = rank[to]
		}
	}
	return out, rows.Err()
}

// questionsAnswered maps each of rids that answers a question to that
// question's terms.
func (s *Store) questionsAnswered(ctx context.Context, rids []int64) (map[int64]map[string]bool, error) {
	if len(rids) == 0 {
		return nil, nil
	}
	args := make([]any, len(rids))
	for i, r := range rids {
		args[i] = r
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.rid, p.text FROM memories m JOIN memories p ON p.rid = m.reply_to
		WHERE m.rid IN (`+placeholders(len(rids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("questions answered: %w", err)
	}
	defer rows.Close()
	out := map[int64]map[string]bool{}
	for rows.Next() {
		var rid int64
		var q string
		if err := rows.Scan(&rid, &q); err != nil {
			return nil, fmt.Errorf("questions answered: %w", err)
		}
		if !asksQuestion(q) {
			continue
		}
		terms := map[string]bool{}
		for _, t := range text.Terms(q) {
			terms[t.Text] = true
		}
		out[rid] = terms
	}
	return out, rows.Err()
}
