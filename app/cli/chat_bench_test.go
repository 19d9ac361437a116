package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm/llmtest/realollama"
)

// BenchmarkOneShotChat: whole processes against one real Ollama (the version
// in go.mod) and its tiny model (realollama.WriteTinyModel, 16 tokens a reply):
// `hermes chat --model tiny WORDS` and the official `ollama run tiny WORDS` in
// turn, each under GNU time (the Modelfile sets num_ctx, which Hermes asks for
// too: a different one makes Ollama reload the model on every switch); reports the medians of wall ms, CPU ms (user +
// system) and peak RSS MB of each, and Hermes's ratios. HERMES_BENCH_BASELINE
// names another hermes executable (the build before) for the same rounds.
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
	type prog struct {
		argv []string
		env  []string
	}
	progs := map[string]prog{
		"hermes": {[]string{builtHermes(b), "chat", "--model", "tiny", "hello", "there"}, hermesEnv},
		"ollama": {[]string{srv.Binary, "run", "tiny", "hello", "there"}, ollamaEnv},
	}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		// The build before may know an older schema: it gets a data dir of its own.
		baseEnv := append(os.Environ(), "OLLAMA_HOST="+srv.URL, "HERMES_DATA_DIR="+filepath.Join(dir, "baseline"))
		progs["baseline"] = prog{[]string{base, "chat", "--model", "tiny", "hello", "there"}, baseEnv}
	}
	for name, p := range progs { // the first run loads the model into the server
		timed(b, name, p.argv, p.env)
	}
	stats := map[string][3][]float64{}
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"hermes", "ollama", "baseline"} {
			if p, ok := progs[name]; ok {
				wall, cpu, peak := timed(b, name, p.argv, p.env)
				s := stats[name]
				s[0], s[1], s[2] = append(s[0], wall), append(s[1], cpu), append(s[2], peak)
				stats[name] = s
			}
		}
	}
	for name, s := range stats {
		b.ReportMetric(median(s[0]), name+"-wall-ms")
		b.ReportMetric(median(s[1]), name+"-cpu-ms")
		b.ReportMetric(median(s[2]), name+"-peak-MB")
	}
	b.ReportMetric(median(stats["hermes"][0])/median(stats["ollama"][0]), "wall-ratio")
	b.ReportMetric(median(stats["hermes"][1])/median(stats["ollama"][1]), "cpu-ratio")
}

// timed runs argv under GNU time: wall ms, CPU ms (user + system), peak RSS MB.
func timed(b *testing.B, name string, argv, env []string) (wallMS, cpuMS, peakMB float64) {
	report := filepath.Join(b.TempDir(), "time")
	cmd := exec.Command("/usr/bin/time", append([]string{"-o", report, "-f", "%U %S %M"}, argv...)...)
	cmd.Env = env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v: %s", name, err, out)
	}
	wallMS = float64(time.Since(start).Microseconds()) / 1000
	data, err := os.ReadFile(report)
	f := strings.Fields(string(data))
	if err != nil || len(f) != 3 {
		b.Fatalf("time's report %q: %v", data, err)
	}
	user, _ := strconv.ParseFloat(f[0], 64)
	sys, _ := strconv.ParseFloat(f[1], 64)
	kb, _ := strconv.ParseFloat(f[2], 64)
	return wallMS, (user + sys) * 1000, kb / 1024
}
