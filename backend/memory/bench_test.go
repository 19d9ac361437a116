package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/embed"
	"hermes/backend/store"
)

// Benchmarks use the offline embedder and synthetic memories: sentences in English
// and Chinese over a Zipf-distributed vocabulary, like a long-lived user's notes.

var (
	enWords = func() []string {
		base := strings.Fields(`coffee tea garden music piano guitar running swimming cycling train bus car flat house city
			doctor nurse teacher manager meeting project report deadline birthday sister brother mother father daughter son
			cat dog allergy peanuts milk cheese bread rice noodles pizza sushi curry spicy vegetarian vegan book novel film
			holiday trip beach mountain snow winter summer morning evening weekend monday friday office laptop phone`)
		for i := 0; len(base) < 3000; i++ {
			base = append(base, fmt.Sprintf("%s%d", base[i%60], i))
		}
		return base
	}()
	zhWords = strings.Fields(`咖啡 茶 花园 音乐 钢琴 吉他 跑步 游泳 骑车 地铁 公交 汽车 房子 城市 医生 护士 老师 经理 会议 项目 报告
		生日 姐姐 哥哥 妈妈 爸爸 女儿 儿子 猫 狗 过敏 花生 牛奶 米饭 面条 火锅 辣 素食 小说 电影 旅行 海边 爬山 冬天 夏天 早上 晚上 周末 办公室 电脑 手机`)
)

// synthetic returns memory n: deterministic, one in five Chinese.
func synthetic(n int) string {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	zipf := func(max int) int { return min(max-1, int(r.ExpFloat64()*float64(max)/12)) }
	if n%5 == 0 {
		var b strings.Builder
		b.WriteString("我")
		for i := 0; i < 4+r.IntN(4); i++ {
			b.WriteString(zhWords[zipf(len(zhWords))])
		}
		return b.String()
	}
	words := []string{"I"}
	for i := 0; i < 6+r.IntN(8); i++ {
		words = append(words, enWords[zipf(len(enWords))])
	}
	return strings.Join(words, " ")
}

func syntheticQuery(n int) string {
	r := rand.New(rand.NewPCG(uint64(n), 99))
	if n%5 == 0 {
		return "我的" + zhWords[r.IntN(len(zhWords))] + "是什么？"
	}
	return fmt.Sprintf("what about my %s and %s?", enWords[r.IntN(200)], enWords[r.IntN(len(enWords))])
}

func importLines(from, n int) string {
	var b strings.Builder
	for i := from; i < from+n; i++ {
		fmt.Fprintf(&b, `{"id": "b%d", "text": %q, "created_at": "2025-01-01"}`+"\n", i, synthetic(i))
	}
	return b.String()
}

// seeded databases are built once per size and dimension and shared by the benchmarks.
var seeded sync.Map // seedKey -> *seedOnce

type seedKey struct{ n, dim int }

type seedOnce struct {
	once sync.Once
	path string
	keep bool // a database of HERMES_BENCH_DIR, kept
	err  error
}

func seededDB(b *testing.B, n int) string { return seededDBDim(b, n, 0) }

// seededDBDim is a database of n synthetic memories embedded by the offline
// embedder at dim dimensions (0: its default).
func seededDBDim(b *testing.B, n, dim int) string {
	v, _ := seeded.LoadOrStore(seedKey{n, dim}, &seedOnce{})
	so := v.(*seedOnce)
	so.once.Do(func() {
		// HERMES_BENCH_DIR keeps the seeded databases between runs (A/B runs of
		// two builds then share the seeding time, not the files: give each its own).
		if dir := os.Getenv("HERMES_BENCH_DIR"); dir != "" {
			name := fmt.Sprintf("hermes-%d.db", n)
			if dim > 0 {
				name = fmt.Sprintf("hermes-%d-%dd.db", n, dim)
			}
			path := filepath.Join(dir, name)
			if _, err := os.Stat(path); err == nil {
				so.path, so.keep = path, true
				return
			}
			so.keep = true
			so.path = path
		} else {
			dir, err := os.MkdirTemp("", "hermes-memory-bench-")
			if err != nil {
				so.err = err
				return
			}
			so.path = filepath.Join(dir, "hermes.db")
		}
		ctx := context.Background()
		db, err := store.Open(ctx, so.path)
		if err != nil {
			so.err = err
			return
		}
		defer db.Close()
		s, err := Open(ctx, db, Config{Embedder: embed.NewHashed(dim)})
		if err != nil {
			so.err = err
			return
		}
		for from := 0; from < n && so.err == nil; from += 10000 {
			_, so.err = s.ImportJSONL(ctx, strings.NewReader(importLines(from, min(10000, n-from))), ImportOptions{})
		}
	})
	if so.err != nil {
		b.Fatal(so.err)
	}
	return so.path
}

func openBench(b *testing.B, path string) *Store { return openBenchDim(b, path, 0) }

// openBenchDim opens path's memories with the offline embedder at dim
// dimensions (0: its default).
func openBenchDim(b *testing.B, path string, dim int) *Store {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s, err := Open(ctx, db, Config{Embedder: embed.NewHashed(dim)})
	if err != nil {
		b.Fatal(err)
	}
	s.stages = abStages()
	return s
}

// reportLatency reports the median and 95th percentile of the samples.
func reportLatency(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	pct := func(p float64) float64 {
		return float64(samples[min(len(samples)-1, int(p*float64(len(samples))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

func benchmarkRecall(b *testing.B, n, dim int) {
	s := openBenchDim(b, seededDBDim(b, n, dim), dim)
	ctx := context.Background()
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := s.Recall(ctx, Query{Text: syntheticQuery(i), K: 5, SessionID: "bench", MessageID: fmt.Sprintf("bench-%d", i)}); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	reportLatency(b, samples)
}

// BenchmarkRecall10k: hybrid recall with logging over 10,000 memories (target p95 ≤ 15 ms).
func BenchmarkRecall10k(b *testing.B) { benchmarkRecall(b, 10_000, 0) }

// BenchmarkRecall100k: the same over 100,000 memories (target p95 ≤ 80 ms).
func BenchmarkRecall100k(b *testing.B) { benchmarkRecall(b, 100_000, 0) }

// BenchmarkRecall10k768 and BenchmarkRecall100k768: the same with 768-dimension
// vectors, what an Ollama embedding model such as nomic-embed-text gives (the
// offline embedder at that size: the vector index's cost is the dimension's,
// not the model's); reported beside the targets, which are for the offline
// embedder's dimension.
func BenchmarkRecall10k768(b *testing.B) { benchmarkRecall(b, 10_000, 768) }

func BenchmarkRecall100k768(b *testing.B) { benchmarkRecall(b, 100_000, 768) }

// BenchmarkRecallPaired is the A/B for a loaded machine: each query is recalled
// with the improvements off ("before") and on ("after") one right after the
// other, in alternating order, so both see the same load; p50/p95 of each.
func BenchmarkRecallPaired(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			s := openBench(b, seededDB(b, n))
			saved := s.stages
			off := saved
			off.concepts, off.time, off.prf, off.rerank = false, false, false, false
			ctx := context.Background()
			var before, after []time.Duration
			run := func(i int, on bool) {
				s.stages = off
				if on {
					s.stages = saved
				}
				start := time.Now()
				if _, err := s.Recall(ctx, Query{Text: syntheticQuery(i), K: 5, SessionID: "bench", MessageID: fmt.Sprintf("bench-%d", i)}); err != nil {
					b.Fatal(err)
				}
				if on {
					after = append(after, time.Since(start))
				} else {
					before = append(before, time.Since(start))
				}
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				run(i, i%2 == 0)
				run(i, i%2 == 1)
			}
			for name, xs := range map[string][]time.Duration{"before": before, "after": after} {
				sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
				pct := func(p float64) float64 {
					return float64(xs[min(len(xs)-1, int(p*float64(len(xs))))].Microseconds()) / 1000
				}
				b.ReportMetric(pct(0.50), name+"-p50-ms")
				b.ReportMetric(pct(0.95), name+"-p95-ms")
			}
		})
	}
}

// BenchmarkImport10k imports 10,000 JSONL memories into a fresh database, the
// offline embedder included (target ≤ 10 s).
func BenchmarkImport10k(b *testing.B) {
	lines := importLines(0, 10_000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s := openBench(b, filepath.Join(b.TempDir(), "hermes.db"))
		b.StartTimer()
		res, err := s.ImportJSONL(ctx, strings.NewReader(lines), ImportOptions{})
		if err != nil || res.Added != 10_000 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkForgetOne erases one memory of 10,000, checkpoint and receipt included
// (target ≤ 50 ms).
func BenchmarkForgetOne(b *testing.B) {
	src := seededDB(b, 10_000)
	path := filepath.Join(b.TempDir(), "hermes.db")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	s := openBench(b, path)
	ctx := context.Background()
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		r, err := s.Forget(ctx, fmt.Sprintf("b%d", i%10_000))
		if err != nil || r.Count != 1 {
			b.Fatal(r, err)
		}
		samples = append(samples, time.Since(start))
	}
	reportLatency(b, samples)
}

func TestMain(m *testing.M) {
	code := m.Run()
	seeded.Range(func(_, v any) bool {
		if so := v.(*seedOnce); so.path != "" && !so.keep {
			os.RemoveAll(filepath.Dir(so.path))
		}
		return true
	})
	os.Exit(code)
}
