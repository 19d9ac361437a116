package cli

import (
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm/llmtest/realollama"
)

// BenchmarkOneShotChat: whole processes against one real Ollama (the version
// in go.mod) and its tiny model (realollama.WriteTinyModel, 16 tokens a reply):
// `hermes chat --model tiny WORDS` and the official `ollama run tiny WORDS` in
// turn (rounds); reports the medians of each and Hermes's wall and CPU ratios.
// The Modelfile sets num_ctx, which Hermes asks for too: a different one makes
// Ollama reload the model on every switch. HERMES_BENCH_BASELINE names another
// hermes executable (the build before) for the same rounds.
func BenchmarkOneShotChat(b *testing.B) {
	srv := realollama.Start(b)
	dir := b.TempDir()
	gguf, modelfile := filepath.Join(dir, "tiny.gguf"), filepath.Join(dir, "Modelfile")
	if err := realollama.WriteTinyModel(gguf); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(modelfile, []byte("PARAMETER num_predict 16\nPARAMETER num_ctx 512\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if r := runCLI(&testing.T{}, map[string]string{"HERMES_DATA_DIR": data, "OLLAMA_HOST": srv.URL},
		"", "model", "import", gguf, "--name", "tiny", "--modelfile", modelfile); r.code != 0 {
		b.Fatalf("import: %+v", r)
	}
	hermesEnv := append(os.Environ(), "OLLAMA_HOST="+srv.URL, "HERMES_DATA_DIR="+data)
	ollamaEnv := []string{"OLLAMA_HOST=" + srv.URL, "HOME=" + b.TempDir(), "PATH=/usr/bin:/bin"}
	procs := map[string]proc{
		"hermes": {[]string{builtHermes(b), "chat", "--model", "tiny", "hello", "there"}, hermesEnv},
		"ollama": {[]string{srv.Binary, "run", "tiny", "hello", "there"}, ollamaEnv},
	}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		// The build before may know an older schema: it gets a data dir of its own.
		baseEnv := append(os.Environ(), "OLLAMA_HOST="+srv.URL, "HERMES_DATA_DIR="+filepath.Join(dir, "baseline"))
		procs["baseline"] = proc{[]string{base, "chat", "--model", "tiny", "hello", "there"}, baseEnv}
	}
	for name, p := range procs { // the first run loads the model into the server
		p.run(b, name)
	}
	m := rounds(b, procs)
	b.ReportMetric(median(m["hermes"].wall)/median(m["ollama"].wall), "wall-ratio")
	b.ReportMetric(median(m["hermes"].cpu)/median(m["ollama"].cpu), "cpu-ratio")
}
