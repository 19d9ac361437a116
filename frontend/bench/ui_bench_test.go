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
	var f uiFigures
	runScript(b, "bench/ui.mjs", &f, &f.Runs)
	b.ReportMetric(f.Median.OpenMs, "ms-open")
	b.ReportMetric(f.Median.P95FrameMs, "p95-frame-ms")
	b.ReportMetric(f.Median.BlankFrames, "blank-frames")
	b.ReportMetric(f.Median.CPUPct, "cpu-%")
	b.ReportMetric(f.Median.IdleCPUPct, "idle-cpu-%")
	b.ReportMetric(f.Median.TokensPerSec, "tokens/s")
	b.ReportMetric(f.Median.DOMMessages, "dom-messages")
}

// meterFigures is meter.mjs's last line: the medians of its runs.
type meterFigures struct {
	Median struct {
		P50Ms      float64 `json:"p50Ms"`
		P95Ms      float64 `json:"p95Ms"`
		PlainP50Ms float64 `json:"plainP50Ms"`
		LateFrames float64 `json:"lateFrames"`
	} `json:"median"`
	Runs int `json:"runs"`
}

// BenchmarkComposerMeter types 60 keystrokes at the end of a 200,000-character draft, b.N times:
// p50-ms and p95-ms from each keystroke to the next frame, plain-p50-ms the same in a plain
// textarea of the same text (the browser's own cost), late-frames the keystrokes whose meter was
// not updated in that frame (issue #35: within one frame of typing).
func BenchmarkComposerMeter(b *testing.B) {
	var f meterFigures
	runScript(b, "bench/meter.mjs", &f, &f.Runs)
	b.ReportMetric(f.Median.P50Ms, "p50-ms")
	b.ReportMetric(f.Median.P95Ms, "p95-ms")
	b.ReportMetric(f.Median.PlainP50Ms, "plain-p50-ms")
	b.ReportMetric(f.Median.LateFrames, "late-frames")
}

// runScript runs a bench script with --runs b.N in chromium against the built app and decodes its
// last line into into (runs is where it says how many runs it made). It skips, saying why, when
// the built binaries, node, the frontend's packages or chromium are missing.
func runScript(b *testing.B, script string, into any, runs *int) {
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
			b.Fatalf("UI benchmark: %s is missing (%s)", need.path, need.fix)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Fatal("UI benchmark: node is not on PATH (install Node 20)")
	}

	b.ResetTimer()
	cmd := exec.Command(node, script, "--runs", fmt.Sprint(b.N))
	cmd.Dir = frontend
	cmd.Env = append(os.Environ(), "HERMES_BIN_DIR="+binDir, "CHROMIUM="+chromium)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s\n%s", script, err, stdout.String(), tail(stderr.String(), 4000))
	}
	b.StopTimer()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), into); err != nil || *runs != b.N {
		b.Fatalf("%s: no medians in its output (%v):\n%s", script, err, stdout.String())
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
