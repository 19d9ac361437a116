package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest/realollama"
)

// BenchmarkVersionProcess: the whole `hermes --version` process (the command
// line as built, without the desktop libraries) against the official
// `ollama --version`, in turn, each run; reports the medians (wall ms, peak
// RSS MB) and the wall ratio. Each runs under GNU time (about 1 ms for each
// alike). HERMES_BENCH_BASELINE names another hermes
// executable (the build before) to run in the same rounds.
func BenchmarkVersionProcess(b *testing.B) {
	wd, _ := os.Getwd()
	ollama, err := realollama.FindBinary(wd)
	if err != nil {
		b.Fatal(err)
	}
	progs := map[string]string{"hermes": builtHermes(b), "ollama": ollama}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		progs["baseline"] = base
	}
	walls, peaks := map[string][]float64{}, map[string][]float64{}
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"hermes", "ollama", "baseline"} {
			if progs[name] == "" {
				continue
			}
			wall, peak := runVersion(b, progs[name])
			walls[name] = append(walls[name], wall)
			peaks[name] = append(peaks[name], peak)
		}
	}
	for name := range progs {
		b.ReportMetric(median(walls[name]), name+"-ms")
		b.ReportMetric(median(peaks[name]), name+"-peak-MB")
	}
	b.ReportMetric(median(walls["hermes"])/median(walls["ollama"]), "hermes/ollama")
}

// BenchmarkSessionListProcess: the whole `hermes session list` process on a
// data dir with 1,000 conversations of 4 messages; reports the median wall ms
// and peak RSS MB (and the baseline's, as above).
func BenchmarkSessionListProcess(b *testing.B) {
	dir := b.TempDir()
	var lines strings.Builder
	for s := range 1000 {
		for m, role := range []string{"user", "assistant", "user", "assistant"} {
			fmt.Fprintf(&lines, `{"session":"s%04d","id":"m%04d-%d","role":%q,"content":"message %d of conversation %d about the garden","created_at":"2026-01-%02dT10:%02d:00Z"}`+"\n",
				s, s, m, role, m, s, 1+s%28, m)
		}
	}
	file := filepath.Join(dir, "sessions.jsonl")
	if err := os.WriteFile(file, []byte(lines.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if r := runCLI(&testing.T{}, map[string]string{"HERMES_DATA_DIR": data}, "", "session", "import", "--jsonl", file); r.code != 0 {
		b.Fatalf("import: %+v", r)
	}
	progs := map[string]string{"hermes": builtHermes(b)}
	dirs := map[string]string{"hermes": data}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		// The build before may know an older schema: it gets a data dir of its own.
		progs["baseline"], dirs["baseline"] = base, filepath.Join(dir, "baseline")
		runProcess(b, base, "--data-dir", dirs["baseline"], "session", "import", "--jsonl", file)
	}
	walls, peaks := map[string][]float64{}, map[string][]float64{}
	for i := 0; i < b.N; i++ {
		for name, prog := range progs {
			wall, peak := runProcess(b, prog, "--data-dir", dirs[name], "session", "list")
			walls[name] = append(walls[name], wall)
			peaks[name] = append(peaks[name], peak)
		}
	}
	for name := range progs {
		b.ReportMetric(median(walls[name]), name+"-ms")
		b.ReportMetric(median(peaks[name]), name+"-peak-MB")
	}
}

// runVersion runs prog --version under GNU time (setup installs it), whose
// child starts from a fork of that small program: a child of this process
// (started by vfork) would report this process's peak as its own.
func runVersion(b *testing.B, prog string) (wallMS, peakMB float64) {
	return runProcess(b, prog, "--version")
}

// runProcess runs prog with args under GNU time (timed), with an environment
// of its own: wall ms and peak RSS MB.
func runProcess(b *testing.B, prog string, args ...string) (wallMS, peakMB float64) {
	env := []string{"OLLAMA_HOST=127.0.0.1:9", "HOME=" + b.TempDir(), "PATH=/usr/bin:/bin"}
	wallMS, _, peakMB = timed(b, filepath.Base(prog), append([]string{prog}, args...), env)
	return wallMS, peakMB
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
