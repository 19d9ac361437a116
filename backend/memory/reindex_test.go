package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"hermes/backend/embed"
)

// failingEmbedder is Ollama gone away.
type failingEmbedder struct{ embed.Embedder }

func (failingEmbedder) Name() string { return "ollama:nomic-embed-text" }
func (failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, embed.ErrUnavailable
}

func TestChangingTheEmbedderReindexes(t *testing.T) {
	ctx := context.Background()
	var progress []Progress
	e := newEnv(t, func(c *Config) { c.OnProgress = func(p Progress) { progress = append(progress, p) } })
	for _, text := range []string{"I am allergic to peanuts", "I live in Porto", "I play the cello", "我住在成都"} {
		e.add(text)
	}
	ollama := embed.NewOllama(e.llm, "nomic-embed-text")
	if err := e.s.SetEmbedder(ctx, ollama); err != nil {
		t.Fatal(err)
	}
	// Like with like: until the reindex, no vector of the new embedder exists, so
	// recall is lexical only and still works.
	if rs := e.recall(Query{Text: "peanuts"}); len(rs) != 1 {
		t.Fatalf("recall during the switch = %v", texts(rs))
	}
	if q, _ := e.s.Queue(ctx); q.Reindex != 1 {
		t.Fatalf("no reindex queued: %+v", q)
	}
	if n, err := e.s.RunJobs(ctx); n != 1 || err != nil {
		t.Fatalf("RunJobs = %d, %v", n, err)
	}
	if len(progress) < 2 || progress[len(progress)-1] != (Progress{Job: "reindex", Done: 4, Total: 4}) {
		t.Fatalf("progress = %+v", progress)
	}
	var kinds, dims int
	e.db.QueryRow(`SELECT COUNT(DISTINCT embedder), MAX(dim) FROM memory_embeddings`).Scan(&kinds, &dims)
	if kinds != 1 || dims != 64 {
		t.Fatalf("embeddings: %d embedders, dim %d", kinds, dims)
	}
	if _, idx := e.s.current(); idx.count(DefaultProfile) != 4 {
		t.Fatalf("index holds %d", idx.count(DefaultProfile))
	}
	// A restart rebuilds the index from SQLite with the stored vectors.
	e.db.Close()
	e.open(func(c *Config) { c.Embedder = embed.NewOllama(e.llm, "nomic-embed-text") })
	if _, idx := e.s.current(); idx.count(DefaultProfile) != 4 {
		t.Fatalf("rebuilt index holds %d", idx.count(DefaultProfile))
	}
	if q, _ := e.s.Queue(ctx); q.Reindex != 0 {
		t.Fatalf("reindex queued although nothing is missing")
	}
	if rs := e.recall(Query{Text: "cello"}); len(rs) != 1 || rs[0].VectorRank == 0 {
		t.Fatalf("vector recall after restart = %+v", rs)
	}
}

func TestEmbedderDownStillStores(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, func(c *Config) { c.Embedder = failingEmbedder{embed.NewHashed(0)} })
	m := e.add("I am allergic to peanuts")
	if m.Status != StatusActive {
		t.Fatal(m)
	}
	if rs := e.recall(Query{Text: "peanuts"}); len(rs) != 1 {
		t.Fatalf("lexical recall without vectors = %v", texts(rs))
	}
	if q, _ := e.s.Queue(ctx); q.Reindex != 1 {
		t.Fatalf("no reindex queued for the missing vector")
	}
	if _, err := e.s.Reindex(ctx, nil); !errors.Is(err, embed.ErrUnavailable) {
		t.Fatalf("Reindex = %v", err)
	}
	// Ollama is back (here: the offline embedder is chosen).
	if err := e.s.SetEmbedder(ctx, embed.NewHashed(0)); err != nil {
		t.Fatal(err)
	}
	if n, err := e.s.Reindex(ctx, nil); n != 1 || err != nil {
		t.Fatalf("Reindex = %d, %v", n, err)
	}
}

func TestReindexCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := newEnv(t, nil)
	lines := ""
	for i := 0; i < 3*reindexBatch; i++ {
		lines += fmt.Sprintf(`{"id": "r%d", "text": "memory number %d"}`+"\n", i, i)
	}
	if _, err := e.s.ImportJSONL(ctx, strings.NewReader(lines), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	e.s.SetEmbedder(ctx, embed.NewHashed(32))
	n, err := e.s.Reindex(ctx, func(p Progress) {
		if p.Done >= reindexBatch {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || n != reindexBatch {
		t.Fatalf("Reindex = %d, %v", n, err)
	}
	if missing, _ := e.s.missingVectors(context.Background()); missing != 2*reindexBatch {
		t.Fatalf("missing after cancel = %d", missing)
	}
}
