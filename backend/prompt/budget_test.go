package prompt

import "testing"

func TestContextSizeAndBudget(t *testing.T) {
	for _, c := range []struct{ asked, limit, reserve, numCtx, budget int }{
		{8192, 0, 1024, 8192, 7168},      // the model's limit unknown: the setting
		{8192, 4096, 1024, 4096, 3072},   // a smaller model limit wins
		{8192, 131072, 1024, 8192, 7168}, // a larger one does not
		{1024, 0, 1000, 1024, MinBudget}, // never under the minimum
	} {
		n := ContextSize(c.asked, c.limit)
		if b := Budget(n, c.reserve); n != c.numCtx || b != c.budget {
			t.Errorf("%+v: numCtx %d budget %d", c, n, b)
		}
	}
}
