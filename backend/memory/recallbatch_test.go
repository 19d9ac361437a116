package memory

import (
	"testing"
	"time"
)

func TestRecallBatchPicksTheReplysOwnRecall(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	first, second := t0.Add(time.Millisecond), t0.Add(5*time.Second) // a stopped turn, then its continuation
	entries := []RecallEntry{
		{Rank: 1, At: first, Memory: Memory{ID: "a"}},
		{Rank: 2, At: first, Memory: Memory{ID: "b"}},
		{Rank: 1, At: second, Memory: Memory{ID: "c"}},
	}
	ids := func(es []RecallEntry) (out []string) {
		for _, e := range es {
			out = append(out, e.Memory.ID)
		}
		return out
	}
	cases := []struct {
		name string
		at   time.Time
		want []string
	}{
		{"the stopped reply", t0, []string{"a", "b"}},
		{"its continuation", t0.Add(4 * time.Second), []string{"c"}},
		{"a recipe without the time: the newest", time.Time{}, []string{"c"}},
		{"after every recall: none", t0.Add(time.Minute), nil},
	}
	for _, tc := range cases {
		got := ids(RecallBatch(entries, tc.at))
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v; want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("%s: %v; want %v", tc.name, got, tc.want)
			}
		}
	}
}
