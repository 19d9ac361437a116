// Package bench measures the built web UI in a real browser: `hermes serve` with the fake
// Ollama, driven in Debian's chromium by ui.mjs (see its header for what each figure is).
//
//	go tool task build && go tool task bench:ui
//
// It skips, saying why, when the built binaries, node, the frontend's packages or chromium are
// missing.
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// uiFigures is ui.mjs's last line: the medians of its runs.
type uiFigures struct {
	Median struct {
		OpenMs       float64 `json:"openMs"`
		P95FrameMs   float64 `json:"p95FrameMs"`
		BlankFrames  float64 `json:"blankFrames"`
		CPUPct       float64 `json:"cpuPct"`
		IdleCPUPct   float64 `json:"idleCpuPct"`
		TokensPerSec float64 `json:"tokensPerSec"`
		DOMMessages  float64 `json:"domMessages"`
	} `json:"median"`
	Runs int `json:"runs"`
}

// BenchmarkUI2000Messages opens a 2,000-message conversation, scrolls it and streams a reply
// at 50 tokens/s into it, b.N times in one browser; it reports the medians as ms-open,
// p95-frame-ms, blank-frames (of 150 scrolled, untimed), cpu-% (of one core, the page's main
// thread), idle-cpu-% (the same with nothing happening) and tokens/s.
func BenchmarkUI2000Messages(b *testing.B) {
	frontend, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	binDir := os.Getenv("HERMES_BIN_DIR")
	if binDir == "" {
		binDir = filepath.Join(frontend, "..", "build", "bin")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	for _, need := range []struct{ path, fix string }{
		{filepath.Join(binDir, "hermes"), "run `go tool task build`"},
		{filepath.Join(binDir, "fake-ollama"), "run `go tool task build`"},
		{filepath.Join(frontend, "node_modules", "playwright-core"), "run `go tool task setup:npm`"},
		{chromium, "install Debian's chromium (`go tool task setup:apt`) or set CHROMIUM"},
	} {
		if _, err := os.Stat(need.path); err != nil {
			b.Skipf("UI benchmark skipped: %s is missing (%s)", need.path, need.fix)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("UI benchmark skipped: node is not on PATH")
	}

	b.ResetTimer()
	cmd := exec.Command(node, "bench/ui.mjs", "--runs", fmt.Sprint(b.N))
	cmd.Dir = frontend
	cmd.Env = append(os.Environ(), "HERMES_BIN_DIR="+binDir, "CHROMIUM="+chromium)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("bench/ui.mjs: %v\n%s\n%s", err, stdout.String(), tail(stderr.String(), 4000))
	}
	b.StopTimer()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var f uiFigures
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &f); err != nil || f.Runs != b.N {
		b.Fatalf("bench/ui.mjs: no medians in its output (%v):\n%s", err, stdout.String())
	}
	b.ReportMetric(f.Median.OpenMs, "ms-open")
	b.ReportMetric(f.Median.P95FrameMs, "p95-frame-ms")
	b.ReportMetric(f.Median.BlankFrames, "blank-frames")
	b.ReportMetric(f.Median.CPUPct, "cpu-%")
	b.ReportMetric(f.Median.IdleCPUPct, "idle-cpu-%")
	b.ReportMetric(f.Median.TokensPerSec, "tokens/s")
	b.ReportMetric(f.Median.DOMMessages, "dom-messages")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
