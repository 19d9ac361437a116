package embed

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Client embeds texts with a named model; *llm.Client satisfies it.
type Client interface {
	Embed(ctx context.Context, model string, input []string) ([][]float32, error)
}

// ollamaBatch is how many texts go to Ollama in one request.
const ollamaBatch = 64

// Ollama embeds with an Ollama embedding model. Its dimension is learned from the
// first vectors it returns (Probe learns it up front).
type Ollama struct {
	client Client
	model  string

	mu  sync.Mutex
	dim int
}

// NewOllama returns an embedder for model on client.
func NewOllama(client Client, model string) *Ollama {
	return &Ollama{client: client, model: model}
}

// Name is "ollama:" followed by the model name.
func (o *Ollama) Name() string { return "ollama:" + o.model }

// Dim is the model's vector length, 0 until the model has answered once.
func (o *Ollama) Dim() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dim
}

// Probe embeds a short text to check the model works and learn its dimension.
func (o *Ollama) Probe(ctx context.Context) error {
	_, err := o.Embed(ctx, []string{"hermes"})
	return err
}

// Embed returns one unit vector per text, in batches. Any failure is wrapped with
// ErrUnavailable so callers can fall back.
func (o *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += ollamaBatch {
		end := min(start+ollamaBatch, len(texts))
		vecs, err := o.client.Embed(ctx, o.model, texts[start:end])
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("embed with %s: %w", o.Name(), ctx.Err())
			}
			return nil, fmt.Errorf("embed with %s: %w: %w", o.Name(), ErrUnavailable, err)
		}
		if len(vecs) != end-start {
			return nil, fmt.Errorf("embed with %s: %w: got %d vectors for %d texts", o.Name(), ErrUnavailable, len(vecs), end-start)
		}
		for _, v := range vecs {
			if err := o.checkDim(len(v)); err != nil {
				return nil, err
			}
			out = append(out, Normalize(v))
		}
	}
	return out, nil
}

func (o *Ollama) checkDim(n int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if n == 0 {
		return fmt.Errorf("embed with %s: %w: empty vector", o.Name(), ErrUnavailable)
	}
	if o.dim == 0 {
		o.dim = n
	}
	if n != o.dim {
		return fmt.Errorf("embed with %s: %w", o.Name(), errors.New("the model changed its vector length; reindex"))
	}
	return nil
}
