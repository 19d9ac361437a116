package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// TestFirstRunToWorkingChat: Ollama answers but has only an embedding model;
// the setup says to pull, a pull (with progress events) makes the chat ready,
// an embedding model is refused as the chat model, and a GGUF import and a
// delete change the list.
func TestFirstRunToWorkingChat(t *testing.T) {
	a, core, fake, ev := newTestApp(t, llmtest.Echo(0, 0))
	fake.Models = fake.Models[1:] // only nomic-embed-text
	fake.Pullable = map[string]llmtest.PullScript{"llama3.2": {
		Model: llmtest.Model{Name: "llama3.2", ContextLength: 8192, Capabilities: []string{"completion", "tools"}},
		Size:  2 << 30, Steps: 5, Delay: 30 * time.Millisecond}}

	st, err := a.Models.Setup()
	if err != nil || st.Ollama != "running" || st.Step != "pull" || st.ChatReady || !st.EmbedReady || len(st.Recommended) == 0 {
		t.Fatalf("setup before = %+v, %v", st, err)
	}
	if models, _ := a.Models.ListModels(); len(models) != 0 {
		t.Errorf("the picker offers %+v (an embedding model cannot chat)", models)
	}
	if _, err := a.Models.UseModel("nomic-embed-text", false); err == nil || !strings.Contains(err.Error(), "is an embedding model and cannot chat") {
		t.Errorf("embedder as chat model: %v", err)
	}
	m, err := a.Models.PullModel("pull-1", "llama3.2")
	if err != nil || m.Name != "llama3.2" || !m.IsChat || !m.Can(llm.CapChat) {
		t.Fatalf("pull = %+v, %v", m, err)
	}
	progress, changed := 0, false
	ev.mu.Lock()
	for _, e := range ev.got {
		progress += boolInt(strings.HasPrefix(e, "model:progress:pull-1 "))
		changed = changed || strings.HasPrefix(e, "setup:changed ")
	}
	ev.mu.Unlock()
	if progress < 3 || !changed {
		t.Errorf("%d progress events, setup:changed %v", progress, changed)
	}
	if st, _ = a.Models.Setup(); st.Step != "" || !st.ChatReady {
		t.Errorf("setup after the pull = %+v", st)
	}

	file := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := llmtest.WriteGGUF(file, 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Models.ImportModel("imp-1", file, "tiny", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Models.UseModel("tiny", false); err != nil {
		t.Fatal(err)
	}
	if s, _ := core.settings.Load(context.Background()); s.ChatModel != "tiny" {
		t.Errorf("chat model = %s", s.ChatModel)
	}
	if _, err := a.Models.UseModel("tiny", true); err == nil || !strings.Contains(err.Error(), "cannot make embeddings") {
		t.Errorf("chat model as embedder: %v", err)
	}
	if err := a.Models.DeleteModel("tiny"); err != nil {
		t.Fatal(err)
	}
	if st, _ = a.Models.Setup(); st.Step != "choose" || st.ChatReady {
		t.Errorf("setup after deleting the chat model = %+v", st)
	}
}

func TestPullCancel(t *testing.T) {
	a, _, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	fake.Pullable = map[string]llmtest.PullScript{"big": {Model: llmtest.Model{Name: "big"}, Size: 8 << 30, Steps: 500, Delay: 20 * time.Millisecond}}
	done := make(chan error, 1)
	go func() { _, err := a.Models.PullModel("pull-big", "big"); done <- err }()
	time.Sleep(150 * time.Millisecond)
	a.Models.CancelModelJob("pull-big")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "Cancelled") {
			t.Fatalf("cancelled pull: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pull did not stop")
	}
}

// Ollama's disk fills in the middle of a pull (an {"error"} line after the
// progress began): disk_full, which the UI words in the user's language.
func TestPullOntoAFullDisk(t *testing.T) {
	a, _, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	fake.Pullable = map[string]llmtest.PullScript{"big": {Model: llmtest.Model{Name: "big"}, Size: 8 << 30, Steps: 10}}
	fake.DiskFull = true
	_, err := a.Models.PullModel("pull-full", "big")
	if b := errorBody(err); b.Code != CodeDiskFull || !strings.Contains(b.Error, "Ollama's disk is full") {
		t.Fatalf("pull onto a full disk: %+v", b)
	}
	if st, _ := a.Models.Setup(); slices.ContainsFunc(st.Models, func(m ModelDetail) bool { return m.Name == "big" }) {
		t.Error("a model half pulled onto a full disk is listed")
	}
}

// A name Ollama's library does not have is said so, with the installed names
// close to it; a library out of reach says to import a GGUF file instead.
func TestPullErrorsInWords(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(0, 0)) // llama3.2 and nomic-embed-text installed
	_, err := a.Models.PullModel("pull-typo", "llama3.3")
	if b := errorBody(err); b.Code != CodePullUnknown || b.Params["models"] != "llama3.2" || b.Params["model"] != "llama3.3" ||
		!strings.Contains(b.Error, "has no model named llama3.3") || strings.Contains(b.Error, "file does not exist") {
		t.Fatalf("unknown name: %+v", b)
	}
	_, err = a.Models.PullModel("pull-far", "zzzz-none")
	if b := errorBody(err); b.Code != CodePullUnknown || b.Params["models"] != "" {
		t.Fatalf("a name close to nothing: %+v", b)
	}
	offline := a.Models.modelErr(context.Background(), "qwen3", fmt.Errorf("pull model qwen3: %w", llm.ErrLibraryOffline))
	if b := errorBody(offline); b.Code != CodePullOffline || !strings.Contains(b.Error, "import a GGUF file instead") || strings.Contains(b.Error, "dial tcp") {
		t.Fatalf("offline: %+v", b)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestModelErrorsCarryTheirParts: a failed model operation reaches the UI with a
// code and every part its words name (the model, the host, the file), never a
// code whose text would show a bare placeholder.
func TestModelErrorsCarryTheirParts(t *testing.T) {
	a, core, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	for _, tc := range []struct {
		op   string
		call func() error
	}{
		{"delete", func() error { return a.Models.DeleteModel("no-such-model") }},
		{"copy", func() error { _, err := a.Models.CopyModel("no-such-model", "other"); return err }},
	} {
		// not_found, not model_missing: that one's words say to pull the model.
		b := errorBody(tc.call())
		if b.Code != CodeNotFound || b.Params["model"] != "no-such-model" || !strings.Contains(b.Error, "not found") {
			t.Errorf("%s an unknown model: %+v", tc.op, b)
		}
	}
	notGGUF := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notGGUF, []byte("just some notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := a.Models.ImportModel("imp-x", notGGUF, "notes", "")
	if b := errorBody(err); b.Code != CodeNotGGUF || b.Params["file"] != "notes.txt" || !strings.Contains(b.Error, "not a GGUF model file") {
		t.Errorf("import of a text file: %+v", b)
	}
	// A GGUF file of a version Hermes does not read: gguf_version, with the file and the version.
	v9 := filepath.Join(t.TempDir(), "future.gguf")
	if err := os.WriteFile(v9, []byte("GGUF\x09\x00\x00\x00 the rest"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = a.Models.ImportModel("imp-v9", v9, "future", "")
	if b := errorBody(err); b.Code != CodeGGUFVersion || b.Params["file"] != "future.gguf" || b.Params["version"] != "9" || !IsBadInput(err) {
		t.Errorf("import of a GGUF version 9 file: %+v", b)
	}
	// Ollama's disk fills up during an import: disk_full (the UI's words say to free space).
	gguf := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := llmtest.WriteGGUF(gguf, 4096); err != nil {
		t.Fatal(err)
	}
	fake.DiskFull = true
	_, err = a.Models.ImportModel("imp-full", gguf, "tiny", "")
	fake.DiskFull = false
	if b := errorBody(err); b.Code != CodeDiskFull || !strings.Contains(b.Error, "Ollama's disk is full") {
		t.Errorf("import onto a full disk: %+v", b)
	}
	// A Modelfile line an import cannot use, and an Ollama too old to import: coded,
	// with the parts the UI words them by.
	_, err = a.Models.ImportModel("imp-mf", gguf, "tiny", "SYSTEM \"\"\"terse\nPARAMETER top_k 20")
	if b := errorBody(err); b.Code != CodeBadModelfile || b.Params["line"] != "1" || b.Params["word"] != "SYSTEM" || b.Params["reason"] != llm.ModelfileUnclosed ||
		!strings.Contains(b.Error, `Modelfile line 1: the """ opened for SYSTEM is never closed`) {
		t.Errorf("import with an unclosed Modelfile value: %+v", b)
	}
	was := fake.Version
	fake.Version = "0.4.7"
	_, err = a.Models.ImportModel("imp-old", gguf, "tiny", "")
	fake.Version = was
	if b := errorBody(err); b.Code != CodeOllamaTooOld || b.Params["version"] != "0.4.7" || b.Params["need"] != llm.MinImportVersion || !strings.Contains(b.Error, "update Ollama to 0.5.5") {
		t.Errorf("import on an Ollama too old: %+v", b)
	}
	host := closedHost(t)
	if err := core.settings.Set(context.Background(), "manage_ollama", "never"); err != nil {
		t.Fatal(err)
	}
	if err := core.settings.Set(context.Background(), "ollama_host", host); err != nil {
		t.Fatal(err)
	}
	if b := errorBody(a.Models.DeleteModel("llama3.2")); b.Code != CodeOllamaUnreachable || b.Params["host"] != host {
		t.Errorf("delete with Ollama gone: %+v", b)
	}
	// An Ollama Hermes starts that stops at once: ollama_exited, naming it and its log.
	standIn := filepath.Join(t.TempDir(), "ollama")
	if err := os.WriteFile(standIn, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"manage_ollama": "auto", "ollama_path": standIn} {
		if err := core.settings.Set(context.Background(), k, v); err != nil {
			t.Fatal(err)
		}
	}
	_, err = a.Models.StartOllama()
	if b := errorBody(err); b.Code != CodeOllamaExited || b.Params["binary"] != standIn || !strings.HasSuffix(b.Params["log"], ".log") || !strings.Contains(b.Error, "exited at once") {
		t.Errorf("start of an Ollama that exits at once: %+v", b)
	}
}

// TestImportIntoTheOllamaHermesStarted: with the Ollama Hermes started itself
// (a stand-in for ollama that runs the fake, which keeps its blobs in
// OLLAMA_MODELS as Ollama does), an import writes the model's blob straight
// into that folder (the fake keeps uploads in memory and never writes one),
// and the model is created from it.
func TestImportIntoTheOllamaHermesStarted(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	bin := filepath.Join(t.TempDir(), "fake-ollama")
	if out, err := exec.Command("go", "build", "-o", bin, "hermes/backend/llm/llmtest/cmd/fake-ollama").CombinedOutput(); err != nil {
		t.Fatalf("build fake-ollama: %v\n%s", err, out)
	}
	standIn := filepath.Join(t.TempDir(), "ollama")
	script := "#!/bin/sh\n[ \"$1\" = serve ] || exit 2\nexec " + bin + " --addr \"$OLLAMA_HOST\"\n"
	if err := os.WriteFile(standIn, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	models := t.TempDir()
	t.Setenv("OLLAMA_MODELS", models)
	host := closedHost(t)
	for k, v := range map[string]string{"manage_ollama": "auto", "ollama_path": standIn, "ollama_host": host} {
		if err := core.settings.Set(context.Background(), k, v); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := a.Models.StartOllama(); err != nil || !st.Managed {
		t.Fatalf("start = %+v, %v", st, err)
	}
	file := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := llmtest.WriteGGUF(file, 3<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Models.ImportModel("imp-store", file, "tiny", ""); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(file)
	blobs, _ := filepath.Glob(filepath.Join(models, "blobs", "*"))
	if len(blobs) != 1 || !strings.HasPrefix(filepath.Base(blobs[0]), "sha256-") {
		t.Fatalf("blobs folder: %v", blobs)
	}
	if got, _ := os.ReadFile(blobs[0]); !slices.Equal(got, want) {
		t.Errorf("the blob is not the file (%d bytes of %d)", len(got), len(want))
	}
	list, err := a.Models.ListModelDetails()
	if err != nil || !slices.ContainsFunc(list, func(m ModelDetail) bool { return m.Name == "tiny" }) {
		t.Errorf("models after the import: %+v, %v", list, err)
	}
}
