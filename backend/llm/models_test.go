package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
)

func TestModelDetails(t *testing.T) {
	fake := llmtest.New()
	fake.Models = append(fake.Models, llmtest.Model{Name: "llava", ContextLength: 4096, Capabilities: []string{"completion", "vision"}})
	fake.Loaded = []string{"llama3.2"}
	c := newClient(t, fake, nil)
	list, err := c.ModelDetails(context.Background())
	if err != nil || len(list) != 3 {
		t.Fatalf("details = %+v, %v", list, err)
	}
	byName := map[string]ModelDetail{}
	for _, m := range list {
		byName[m.Name] = m
	}
	chat, embed, vision := byName["llama3.2"], byName["nomic-embed-text"], byName["llava"]
	if !chat.Can(CapChat) || !chat.Can(CapTools) || chat.Can(CapEmbedding) || !chat.Loaded || chat.ContextLength != 8192 ||
		chat.ParameterSize == "" || chat.Quantization == "" || chat.Size == 0 {
		t.Errorf("chat model = %+v", chat)
	}
	if embed.Can(CapChat) || !embed.Can(CapEmbedding) || embed.Loaded {
		t.Errorf("embedder = %+v", embed)
	}
	if !vision.Can(CapVision) {
		t.Errorf("vision model = %+v", vision)
	}
}

func TestPullWithProgressAndCancel(t *testing.T) {
	fake := llmtest.New()
	fake.Pullable = map[string]llmtest.PullScript{
		"qwen2.5": {Model: llmtest.Model{Name: "qwen2.5", ContextLength: 32768, Capabilities: []string{"completion", "tools"}}, Size: 4 << 30, Steps: 8, Delay: 5 * time.Millisecond},
		"slow":    {Model: llmtest.Model{Name: "slow"}, Size: 1 << 30, Steps: 1000, Delay: 20 * time.Millisecond},
		"broken":  {Model: llmtest.Model{Name: "broken"}, Size: 1 << 30, Steps: 10, FailAt: 3},
	}
	c := newClient(t, fake, nil)
	ctx := context.Background()
	var seen []Progress
	if err := c.Pull(ctx, "qwen2.5", func(p Progress) error { seen = append(seen, p); return nil }); err != nil {
		t.Fatal(err)
	}
	last := seen[len(seen)-1]
	var downloading []Progress
	for _, p := range seen {
		if strings.HasPrefix(p.Status, "pulling ") && p.Total > 0 {
			downloading = append(downloading, p)
		}
	}
	if len(downloading) != 8 || downloading[7].Percent != 100 || downloading[3].Percent != 50 || last.Status != "success" {
		t.Fatalf("progress = %+v", seen)
	}
	if list, _ := c.ModelDetails(ctx); len(list) != 3 {
		t.Errorf("after the pull: %+v", list)
	}

	t.Run("cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		var once sync.Once
		err := c.Pull(cctx, "slow", func(p Progress) error {
			if p.Completed > 0 {
				once.Do(cancel)
			}
			return nil
		})
		if err == nil || !strings.Contains(err.Error(), "cancelled") || !strings.Contains(err.Error(), "resumes") {
			t.Fatalf("cancelled pull: %v", err)
		}
	})
	t.Run("fails mid-way: clear error, nothing listed", func(t *testing.T) {
		err := c.Pull(ctx, "broken", nil)
		if err == nil || !strings.Contains(err.Error(), "connection reset") {
			t.Fatalf("broken pull: %v", err)
		}
		list, _ := c.ModelDetails(ctx)
		for _, m := range list {
			if m.Name == "broken" || m.Name == "slow" {
				t.Errorf("%s is listed after a failed pull", m.Name)
			}
		}
	})
	t.Run("Ollama's disk fills mid-pull: ErrDiskFull, its words kept", func(t *testing.T) {
		fake.DiskFull = true
		defer func() { fake.DiskFull = false }()
		var got int
		err := c.Pull(ctx, "qwen2.5", func(p Progress) error { got++; return nil })
		if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "no space left on device") || got < 2 {
			t.Fatalf("pull onto a full disk: %v (%d progress lines before)", err, got)
		}
	})
	t.Run("Hermes's own write failing is not Ollama's disk", func(t *testing.T) {
		mine := errors.New("write /dev/stdout: no space left on device")
		err := c.Pull(ctx, "qwen2.5", func(Progress) error { return mine })
		if !errors.Is(err, mine) || errors.Is(err, ErrDiskFull) {
			t.Fatalf("a progress callback's error: %v", err)
		}
	})
	t.Run("unknown model", func(t *testing.T) {
		if err := c.Pull(ctx, "no-such-model", nil); err == nil || !strings.Contains(err.Error(), "file does not exist") {
			t.Fatalf("unknown: %v", err)
		}
	})
}

func TestImportGGUF(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.gguf")
	if err := llmtest.WriteGGUF(file, 9<<20); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Run("imports offline with progress", func(t *testing.T) {
		fake := llmtest.New()
		c := newClient(t, fake, nil)
		statuses := map[string]bool{}
		var lastUpload Progress
		err := c.ImportGGUF(ctx, file, "tiny", "PARAMETER temperature 0.2\nSYSTEM \"\"\"You are terse.\nVery.\"\"\"", func(p Progress) error {
			statuses[p.Status] = true
			if p.Status == "uploading" {
				lastUpload = p
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !statuses["hashing"] || !statuses["uploading"] || !statuses["success"] || lastUpload.Percent != 100 {
			t.Errorf("progress: %v, last upload %+v", statuses, lastUpload)
		}
		list, _ := c.ModelDetails(ctx)
		found := false
		for _, m := range list {
			found = found || (m.Name == "tiny" && m.Can(CapChat))
		}
		if !found {
			t.Errorf("tiny not listed: %+v", list)
		}
	})
	t.Run("a file that is not GGUF is refused before uploading", func(t *testing.T) {
		fake := llmtest.New()
		c := newClient(t, fake, nil)
		notGGUF := filepath.Join(dir, "model.bin")
		os.WriteFile(notGGUF, []byte("PK\x03\x04 a zip file, not a model"), 0o600)
		uploads := 0
		err := c.ImportGGUF(ctx, notGGUF, "x", "", func(p Progress) error {
			if p.Status == "uploading" {
				uploads++
			}
			return nil
		})
		if !errors.Is(err, ErrNotGGUF) || uploads != 0 || !strings.Contains(err.Error(), `starts with "PK`) {
			t.Fatalf("not GGUF: %v (%d uploads)", err, uploads)
		}
	})
	t.Run("full disk", func(t *testing.T) {
		fake := llmtest.New()
		fake.DiskFull = true
		c := newClient(t, fake, nil)
		err := c.ImportGGUF(ctx, file, "tiny", "", nil)
		if err == nil || !strings.Contains(err.Error(), "Ollama's disk is full") || !errors.Is(err, ErrDiskFull) {
			t.Fatalf("disk full: %v", err)
		}
		if list, _ := c.ModelDetails(ctx); len(list) != 2 {
			t.Errorf("a model was created on a full disk: %+v", list)
		}
	})
	t.Run("Ollama too old", func(t *testing.T) {
		fake := llmtest.New()
		fake.Version = "0.4.7"
		c := newClient(t, fake, nil)
		if err := c.ImportGGUF(ctx, file, "tiny", "", nil); !errors.Is(err, ErrTooOld) || !strings.Contains(err.Error(), "update Ollama to 0.5.5") {
			t.Fatalf("old server: %v", err)
		}
	})
	t.Run("each Modelfile refusal says its line, word and reason", func(t *testing.T) {
		c := newClient(t, llmtest.New(), nil)
		for _, tc := range []struct {
			text, word, reason string
			line               int
		}{
			{"# notes\nSYSTEM \"\"\"be terse\nand kind", "SYSTEM", ModelfileUnclosed, 2},
			{"PARAMETER temperature 0.2\n\nPARAMETER num_ctx", "PARAMETER", ModelfileNoValue, 3},
			{"TEMPLATE {{ .Prompt }}\nadapter ./lora.gguf", "adapter", ModelfileNotDirective, 2},
		} {
			err := c.ImportGGUF(ctx, file, "tiny", tc.text, nil)
			var mf *ModelfileError
			if !errors.As(err, &mf) || !errors.Is(err, ErrModelfile) || mf.Line != tc.line || mf.Word != tc.word || mf.Reason != tc.reason ||
				!strings.Contains(err.Error(), fmt.Sprintf("Modelfile line %d: ", tc.line)) {
				t.Errorf("%q: %v (%+v)", tc.text, err, mf)
			}
		}
	})
	t.Run("bad Modelfile", func(t *testing.T) {
		c := newClient(t, llmtest.New(), nil)
		if err := c.ImportGGUF(ctx, file, "tiny", "ADAPTER ./lora.gguf", nil); err == nil || !strings.Contains(err.Error(), "Modelfile line 1: ADAPTER") {
			t.Fatalf("bad Modelfile: %v", err)
		}
	})
}

func TestDeleteAndCopy(t *testing.T) {
	c := newClient(t, llmtest.New(), nil)
	ctx := context.Background()
	if err := c.Copy(ctx, "llama3.2", "my-llama"); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "llama3.2"); err != nil {
		t.Fatal(err)
	}
	list, _ := c.ModelDetails(ctx)
	if len(list) != 2 || list[0].Name != "my-llama" || !list[0].Can(CapTools) {
		t.Fatalf("after copy and delete: %+v", list)
	}
	if err := c.Delete(ctx, "llama3.2"); !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("delete again: %v", err)
	}
}

// A failed pull is worded by what Ollama said: no model of that name in its
// library, or a library out of reach; other errors keep their own kind.
func TestClassifyPull(t *testing.T) {
	stream := func(s string) error { return fromOllama{errors.New(s)} }
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"no such model", stream("pull model manifest: file does not exist"), ErrNotInLibrary},
		{"no network", stream(`pull model manifest: Get "https://library.invalid/v2/x/manifests/latest": dial tcp: lookup library.invalid: no such host`), ErrLibraryOffline},
		{"a proxy refusing", stream(`pull model manifest: Get "https://library.invalid/v2/x/manifests/latest": proxyconnect tcp: dial tcp 127.0.0.1:9: connect: connection refused`), ErrLibraryOffline},
		{"Ollama's disk", stream("write /models/blobs/x: no space left on device"), ErrDiskFull},
		{"Ollama itself unreachable", &net.OpError{Op: "dial", Err: errors.New("connect: connection refused")}, ErrUnreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := classifyPull("x", c.err); !errors.Is(got, c.want) {
				t.Errorf("classifyPull = %v; want %v", got, c.want)
			}
		})
	}
}
