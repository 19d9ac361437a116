package retrieval

import (
	"cmp"
	"slices"
)

func sortStable(s []Scored) {
	slices.SortStableFunc(s, func(a, b Scored) int { return cmp.Compare(b.Score, a.Score) })
}
