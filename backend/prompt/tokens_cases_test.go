package prompt

import (
	"encoding/json"
	"os"
	"testing"
)

// The composer's meter estimates tokens in the page (frontend/src/lib/tokens.ts)
// with this rule; both are held to the same cases, so the two cannot drift.
func TestEstimateSharedCases(t *testing.T) {
	data, err := os.ReadFile("../../frontend/src/lib/tokens.cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Text   string `json:"text"`
		Tokens int    `json:"tokens"`
	}
	if err := json.Unmarshal(data, &cases); err != nil || len(cases) < 5 {
		t.Fatalf("cases: %d, %v", len(cases), err)
	}
	for _, c := range cases {
		if got := Estimate(c.Text); got != c.Tokens {
			t.Errorf("Estimate(%q) = %d, the cases say %d", c.Text, got, c.Tokens)
		}
	}
}
