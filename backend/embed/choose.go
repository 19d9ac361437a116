package embed

import (
	"context"
	"fmt"
	"time"
)

// Prober is an embedder that can check it works before it is chosen.
type Prober interface {
	Probe(ctx context.Context) error
}

// probeTimeout bounds how long a candidate may take to answer the probe.
const probeTimeout = 10 * time.Second

// Choose returns the first candidate that works: one that is not a Prober is taken
// as it is; a Prober must answer its probe. fallback is returned when none works,
// with the reasons the others were passed over (nil when the first was taken).
// Typical use: Choose(ctx, NewHashed(0), NewOllama(client, model)).
func Choose(ctx context.Context, fallback Embedder, candidates ...Embedder) (Embedder, []error) {
	var skipped []error
	for _, c := range candidates {
		if c == nil {
			continue
		}
		p, ok := c.(Prober)
		if !ok {
			return c, skipped
		}
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		err := p.Probe(pctx)
		cancel()
		if err == nil {
			return c, skipped
		}
		skipped = append(skipped, fmt.Errorf("choose embedder: %s: %w", c.Name(), err))
	}
	return fallback, skipped
}
