package intent

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkClassifyOne is one message through the featurizer and ONNX
// Runtime; it also reports the median (p50) latency.
func BenchmarkClassifyOne(b *testing.B) {
	c := openTest(b, Config{})
	texts := testTexts(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := c.Classify(ctx, texts[i%len(texts)]); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// BenchmarkClassifyBatch classifies the held-out split in one batch call and
// reports utterances per second.
func BenchmarkClassifyBatch(b *testing.B) {
	c := openTest(b, Config{})
	texts := testTexts(b)
	ctx := context.Background()
	n := 0
	for b.Loop() {
		if _, err := c.ClassifyBatch(ctx, texts); err != nil {
			b.Fatal(err)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "utterances/s")
}

// BenchmarkLoad opens and closes the classifier: reading and checking the
// model directory and creating the ONNX Runtime session (the environment is
// already started, as in a running app).
func BenchmarkLoad(b *testing.B) {
	requireLib(b)
	if err := testRT.Start(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := Open(Config{Runtime: testRT, ModelDir: modelDir})
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// BenchmarkColdStart measures, in a fresh child process each time, loading
// the ONNX Runtime library and opening the classifier (what a CLI call pays
// once); it reports the median in milliseconds.
func BenchmarkColdStart(b *testing.B) {
	requireLib(b)
	lib, _ := LocateLibrary()
	var ms []float64
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "HERMES_INTENT_HELPER=cold-start", "HERMES_INTENT_HELPER_LIB="+lib, "HERMES_INTENT_HELPER_MODEL="+modelDir)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("helper: %v %s", err, out)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			b.Fatalf("helper output %q", out)
		}
		ms = append(ms, v)
	}
	slices.Sort(ms)
	b.ReportMetric(ms[len(ms)/2], "cold-ms")
}
