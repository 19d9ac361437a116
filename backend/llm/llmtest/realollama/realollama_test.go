package realollama

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/fs/ggml"
)

func TestFindBinary(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := FindBinary(wd)
	if err != nil {
		t.Fatal(err) // CI always has it: its absence is a failure, with how to get it
	}
	if info, err := os.Stat(bin); err != nil || info.Mode()&0o111 == 0 {
		t.Fatalf("%s: %v", bin, err)
	}

	t.Setenv("PATH", t.TempDir())    // no ollama there
	_, err = FindBinary(t.TempDir()) // and no repository above it
	if err == nil || !strings.Contains(err.Error(), "../shared/tools/ollama") || !strings.Contains(err.Error(), "on PATH") {
		t.Fatalf("no program anywhere: %v", err)
	}
}

func TestTinyModelIsTheSameGGUFEachTime(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.gguf"), filepath.Join(dir, "b.gguf")
	for _, p := range []string{a, b} {
		if err := WriteTinyModel(p); err != nil {
			t.Fatal(err)
		}
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ab, bb) {
		t.Fatal("two writes, two models: the weights are not seeded")
	}
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := ggml.Decode(f, -1)
	if err != nil {
		t.Fatal(err)
	}
	kv, tensors := g.KV(), g.Tensors().Items()
	tokens := kv.Strings("tokenizer.ggml.tokens")
	if kv.Architecture() != "llama" || kv.BlockCount() != 1 || kv.ContextLength() != tinyContext || len(tokens) != 3+256+len(tinyWords) ||
		tokens[tokEOS] != "</s>" || tokens[firstByte+'\n'] != "<0x0A>" || len(tensors) != 11 {
		t.Fatalf("arch %s, %d blocks, context %d, %d tokens, %d tensors", kv.Architecture(), kv.BlockCount(), kv.ContextLength(), len(tokens), len(tensors))
	}
}

func TestStartServesAndStopsWithTheTest(t *testing.T) {
	var url string
	t.Run("serve", func(t *testing.T) {
		s := Start(t)
		url = s.URL
		resp, err := http.Get(s.URL + "/api/version")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(s.Models, os.TempDir()) {
			t.Fatalf("version: %d; models in %s", resp.StatusCode, s.Models)
		}
	})
	c := http.Client{Timeout: 2 * time.Second}
	if resp, err := c.Get(url + "/"); err == nil {
		resp.Body.Close()
		t.Fatalf("%s still answers after its test ended", url)
	}
}
