package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm/llmtest/realollama"
)

// BenchmarkVersionProcess: the whole `hermes --version` process (the command
// line as built, without the desktop libraries) against the official
// `ollama --version`, in turn, each run; reports the medians (wall ms, peak
// RSS MB) and the wall ratio. HERMES_BENCH_BASELINE names another hermes
// executable (the build before) to run in the same rounds.
func BenchmarkVersionProcess(b *testing.B) {
	wd, _ := os.Getwd()
	ollama, err := realollama.FindBinary(wd)
	if err != nil {
		b.Fatal(err)
	}
	procs := map[string]proc{"hermes": plain(b, builtHermes(b), "--version"), "ollama": plain(b, ollama, "--version")}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		procs["baseline"] = plain(b, base, "--version")
	}
	m := rounds(b, procs)
	b.ReportMetric(median(m["hermes"].wall)/median(m["ollama"].wall), "hermes/ollama")
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
	procs := map[string]proc{"hermes": plain(b, builtHermes(b), "--data-dir", data, "session", "list")}
	if base := os.Getenv("HERMES_BENCH_BASELINE"); base != "" {
		// The build before may know an older schema: it gets a data dir of its own.
		other := filepath.Join(dir, "baseline")
		plain(b, base, "--data-dir", other, "session", "import", "--jsonl", file).run(b, "baseline import")
		procs["baseline"] = plain(b, base, "--data-dir", other, "session", "list")
	}
	rounds(b, procs)
}

// proc is one program a benchmark runs: its command line and environment.
type proc struct{ argv, env []string }

// plain is prog with args in an environment of its own (no Ollama to reach).
func plain(b *testing.B, prog string, args ...string) proc {
	return proc{append([]string{prog}, args...), []string{"OLLAMA_HOST=127.0.0.1:9", "HOME=" + b.TempDir(), "PATH=/usr/bin:/bin"}}
}

// measures are one program's wall ms, CPU ms (user + system) and peak RSS MB
// over the runs.
type measures struct{ wall, cpu, peak []float64 }

// rounds runs the programs one after the other (hermes, ollama, baseline),
// b.N times, and reports each one's medians as NAME-ms, NAME-cpu-ms and
// NAME-peak-MB.
func rounds(b *testing.B, procs map[string]proc) map[string]*measures {
	m := map[string]*measures{}
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"hermes", "ollama", "baseline"} {
			p, ok := procs[name]
			if !ok {
				continue
			}
			if m[name] == nil {
				m[name] = &measures{}
			}
			wall, cpu, peak := p.run(b, name)
			m[name].wall, m[name].cpu, m[name].peak = append(m[name].wall, wall), append(m[name].cpu, cpu), append(m[name].peak, peak)
		}
	}
	for name, x := range m {
		b.ReportMetric(median(x.wall), name+"-ms")
		b.ReportMetric(median(x.cpu), name+"-cpu-ms")
		b.ReportMetric(median(x.peak), name+"-peak-MB")
	}
	return m
}

// run runs p under GNU time (setup installs it), whose child starts from a
// fork of that small program: a child of this process (started by vfork)
// would report this process's peak as its own. It returns wall ms, CPU ms
// (user + system) and peak RSS MB.
func (p proc) run(b *testing.B, name string) (wallMS, cpuMS, peakMB float64) {
	report := filepath.Join(b.TempDir(), "time")
	cmd := exec.Command("/usr/bin/time", append([]string{"-o", report, "-f", "%U %S %M"}, p.argv...)...)
	cmd.Env = p.env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v: %s (setup installs /usr/bin/time: go tool task setup:apt)", name, err, out)
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

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
