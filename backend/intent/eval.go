package intent

import (
	"context"
	"fmt"

	"hermes/backend/intent/dataset"
	"hermes/backend/intent/train"
)

// Predictions classifies labelled examples and returns, for each, the most
// likely of the model's labels (never Unknown) with its probability, in the
// form train.Evaluate scores.
func Predictions(ctx context.Context, c *Classifier, exs []dataset.Example) ([]train.Prediction, error) {
	texts := make([]string, len(exs))
	for i, ex := range exs {
		texts[i] = ex.Text
	}
	results, err := c.ClassifyBatch(ctx, texts)
	if err != nil {
		return nil, err
	}
	labels := c.Labels()
	out := make([]train.Prediction, len(results))
	for i, r := range results {
		best := 0
		for j, l := range labels {
			if r.Scores[l] > r.Scores[labels[best]] {
				best = j
			}
		}
		idx := dataset.LabelIndex(labels[best])
		if idx < 0 {
			return nil, fmt.Errorf("evaluate intents: model label %q is not in the label set", labels[best])
		}
		out[i] = train.Prediction{Label: idx, Confidence: float64(r.Scores[labels[best]])}
	}
	return out, nil
}
