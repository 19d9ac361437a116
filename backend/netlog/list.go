package netlog

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// List is the log over the days kept, one entry per part, host, port and
// outcome (the days summed), the most recent first; limit <= 0 lists all.
// What this process recorded and has not written yet is included.
func (l *Log) List(ctx context.Context, limit int) ([]Entry, error) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	_ = l.flushLocked(ctx) // what is still pending after a failed write is added below
	rows, err := l.db.QueryContext(ctx, `SELECT part, host, port, outcome, address, reason, first_at, last_at, count
		FROM network_log ORDER BY last_at`)
	if err != nil {
		return nil, fmt.Errorf("list network log: %w", err)
	}
	defer rows.Close()
	sum := map[key]*Entry{}
	for rows.Next() {
		var e Entry
		var first, last string
		if err := rows.Scan(&e.Part, &e.Host, &e.Port, &e.Outcome, &e.Address, &e.Reason, &first, &last, &e.Count); err != nil {
			return nil, fmt.Errorf("list network log: %w", err)
		}
		e.First, _ = time.Parse(stamp, first)
		e.Last, _ = time.Parse(stamp, last)
		merge(sum, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list network log: %w", err)
	}
	l.mu.Lock()
	for _, p := range l.pending {
		merge(sum, *p)
	}
	l.mu.Unlock()
	return sorted(sum, limit), nil
}

// merge adds e to the entry of its part, host, port and outcome.
func merge(sum map[key]*Entry, e Entry) {
	k := key{part: e.Part, host: e.Host, port: e.Port, outcome: string(e.Outcome)}
	s, ok := sum[k]
	if !ok {
		sum[k] = &e
		return
	}
	s.Count += e.Count
	if e.First.Before(s.First) {
		s.First = e.First
	}
	if !e.Last.Before(s.Last) {
		s.Last, s.Address, s.Reason = e.Last, e.Address, e.Reason
	}
}

func sorted(sum map[key]*Entry, limit int) []Entry {
	out := make([]Entry, 0, len(sum))
	for _, e := range sum {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Last.Equal(out[j].Last) {
			return out[i].Last.After(out[j].Last)
		}
		return out[i].Part+out[i].Host < out[j].Part+out[j].Host
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
