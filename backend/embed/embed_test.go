package embed

import (
	"context"
	"hash/fnv"
	"strings"

	"errors"
	"golang.org/x/text/unicode/norm"
	"math"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestHashed(t *testing.T) {
	ctx := context.Background()
	h := NewHashed(0)
	if h.Dim() != DefaultHashedDim || h.Name() != HashedName {
		t.Fatalf("identity = %s/%d", h.Name(), h.Dim())
	}
	sim := func(a, b string) float64 {
		v, err := h.Embed(ctx, []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		return Cosine(v[0], v[1])
	}
	t.Run("unit length and deterministic", func(t *testing.T) {
		a, _ := h.Embed(ctx, []string{"I drive to work every day", "我每天开车上班"})
		b, _ := h.Embed(ctx, []string{"I drive to work every day", "我每天开车上班"})
		for i := range a {
			var n float64
			for j, x := range a[i] {
				n += float64(x * x)
				if x != b[i][j] {
					t.Fatal("not deterministic")
				}
			}
			if math.Abs(n-1) > 1e-5 {
				t.Errorf("vector %d has norm² %v", i, n)
			}
		}
	})
	t.Run("no words gives a zero vector", func(t *testing.T) {
		v, _ := h.Embed(ctx, []string{"?!  …"})
		for _, x := range v[0] {
			if x != 0 {
				t.Fatal("want zero vector")
			}
		}
	})
	cases := []struct{ name, a, related, unrelated string }{
		{"word forms", "I love driving my car", "Do I drive?", "My sister plays the violin"},
		{"chinese", "我对花生过敏", "我过敏吗", "我的猫叫小白"},
		{"chinese compound", "我住在北京市", "北京", "我喜欢喝咖啡"},
		{"identical wins", "I am allergic to peanuts", "I am allergic to peanuts", "I am allergic to cats"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, u := sim(tc.a, tc.related), sim(tc.a, tc.unrelated)
			if r <= u {
				t.Errorf("related %.3f <= unrelated %.3f", r, u)
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := h.Embed(c, []string{"x"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestTokensAndStem(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"I'm driving, don't stop!", []string{"im", "driving", "dont", "stop"}},
		{"我住在Berlin市", []string{"我住在", "berlin", "市"}},
		{"Café 42", []string{"café", "42"}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := Tokens(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("Tokens = %q; want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("Tokens = %q; want %q", got, tc.want)
				}
			}
		})
	}
	for w, want := range map[string]string{"driving": "driv", "drive": "driv", "drives": "driv", "cats": "cats", "allergies": "allerg", "car": "car"} {
		t.Run("stem "+w, func(t *testing.T) {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q; want %q", w, got, want)
			}
		})
	}
}

func newOllama(t *testing.T, fake *llmtest.Server) *llm.Client {
	t.Helper()
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	c, err := llm.New(llm.Config{Host: srv.URL, FirstTokenTimeout: 2 * time.Second, Backoff: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOllama(t *testing.T) {
	ctx := context.Background()
	client := newOllama(t, llmtest.New())
	t.Run("embeds in batches and learns the dimension", func(t *testing.T) {
		o := NewOllama(client, "nomic-embed-text")
		if o.Dim() != 0 {
			t.Fatal("dimension known before any call")
		}
		texts := make([]string, 150)
		for i := range texts {
			texts[i] = "text number " + string(rune('a'+i%26))
		}
		vecs, err := o.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if len(vecs) != 150 || o.Dim() != 64 || o.Name() != "ollama:nomic-embed-text" {
			t.Fatalf("got %d vectors, dim %d, name %s", len(vecs), o.Dim(), o.Name())
		}
		want := llmtest.HashEmbedding(texts[149], 64)
		if Cosine(vecs[149], want) < 0.9999 {
			t.Error("vectors out of order")
		}
	})
	t.Run("missing model is unavailable", func(t *testing.T) {
		o := NewOllama(client, "no-such-model")
		if err := o.Probe(ctx); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestChoose(t *testing.T) {
	ctx := context.Background()
	client := newOllama(t, llmtest.New())
	fallback := NewHashed(0)
	cases := []struct {
		name     string
		cands    []Embedder
		want     string
		nSkipped int
	}{
		{"ollama works", []Embedder{NewOllama(client, "nomic-embed-text")}, "ollama:nomic-embed-text", 0},
		{"ollama model missing", []Embedder{NewOllama(client, "missing")}, HashedName, 1},
		{"first working wins", []Embedder{NewOllama(client, "missing"), NewOllama(client, "nomic-embed-text")}, "ollama:nomic-embed-text", 1},
		{"no candidates", nil, HashedName, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, skipped := Choose(ctx, fallback, tc.cands...)
			if got.Name() != tc.want || len(skipped) != tc.nSkipped {
				t.Fatalf("chose %s (skipped %v); want %s with %d skipped", got.Name(), skipped, tc.want, tc.nSkipped)
			}
		})
	}
}

// The offline embedder's vectors are those of hermes-hash-v1 as first
// written (oldFeatures is its feature code as it was): FNV-1a of each "kind:feature" string through hash/fnv (vectors
// stored in a data dir must not change without a new version).
func TestHashedVectorsUnchanged(t *testing.T) {
	h := NewHashed(0)
	for _, text := range []string{"I am allergic to peanuts, and driving annoys me.", "我昨天在北京买了耳机。", "Ünïcödé façade — naïve résumé", "a", "", "Normans 10th and 11th centuries: Rollo's Vikings"} {
		want := make([]float32, h.dim)
		oldFeatures(text, func(feature string, weight float32) {
			f := fnv.New64a()
			f.Write([]byte(feature))
			sum := f.Sum64()
			if sum>>63 == 1 {
				weight = -weight
			}
			want[int(sum%uint64(h.dim))] += weight
		})
		want = Normalize(want)
		got, _ := h.Embed(context.Background(), []string{text})
		for i := range want {
			if got[0][i] != want[i] {
				t.Fatalf("%q: dimension %d is %v, was %v", text, i, got[0][i], want[i])
			}
		}
	}
}
func oldFeatures(text string, fn func(feature string, weight float32)) {
	text = strings.ToLower(norm.NFKC.String(text))
	for _, tok := range Tokens(text) {
		r := []rune(tok)
		if IsCJK(r[0]) {
			for i := 0; i+1 < len(r); i++ {
				fn("p:"+string(r[i:i+2]), wCJKPair)
			}
			for _, c := range r {
				w := float32(wCJKChar)
				if IsStopword(string(c)) {
					w = wStopword
				}
				fn("c:"+string(c), w)
			}
			continue
		}
		if IsStopword(tok) {
			fn("w:"+tok, wStopword)
			continue
		}
		fn("w:"+tok, wWord)
		fn("s:"+Stem(tok), wStem) // also for a word that is its own stem: "drive" meets "driving"
		if len(r) >= 4 {
			padded := append(append([]rune{'<'}, r...), '>')
			for i := 0; i+3 <= len(padded); i++ {
				fn("t:"+string(padded[i:i+3]), wTrigram)
			}
		}
	}
}
