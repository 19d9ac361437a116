// Package embed turns text into vectors for memory recall: the configured Ollama
// embedding model, or an offline fallback that needs nothing but the text. Every
// embedder has an identity (a name and a dimension) that is stored with each
// vector, so vectors from different embedders are never compared.
package embed

import (
	"context"
	"errors"
	"math"
)

// Embedder turns texts into vectors of Dim() numbers, one per text, L2-normalized.
// Name identifies the embedder and its version: vectors with different names are
// not comparable.
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrUnavailable means the embedder cannot embed now (Ollama down, model missing).
var ErrUnavailable = errors.New("embedder unavailable")

// Normalize scales v to unit length in place and returns it; a zero vector stays zero.
func Normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	n := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= n
	}
	return v
}

// Cosine is the cosine similarity of two vectors of the same length (0 when they
// differ in length or one is zero).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
