package kb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/cage"
	"hermes/backend/chunk"
	"hermes/backend/embed"
	"hermes/backend/store"
)

// benchWords is a vocabulary for generated documents: English words and
// Chinese characters, so both paths of the tokenizer are measured.
var benchWords = strings.Fields(`pump valve motor capacitor housing impeller seal bearing shaft pressure flow
	water diesel generator filter hose clamp gauge switch relay fuse cable voltage current ground
	manual procedure check replace inspect tighten clean drain fill prime start stop restart
	水泵 阀门 电机 电容 外壳 叶轮 密封 轴承 压力 流量 柴油 发电机 过滤器 软管 开关 检查 更换 清洁`)

// writeFolder writes files Markdown files of about size bytes each under dir.
func writeFolder(tb testing.TB, dir string, files, size int, seed uint64) int64 {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var total int64
	for i := range files {
		var b strings.Builder
		fmt.Fprintf(&b, "# Document %d\n\n", i)
		for b.Len() < size {
			if r.IntN(12) == 0 {
				fmt.Fprintf(&b, "\n## Section %d\n\n", r.IntN(100))
			}
			for range 40 + r.IntN(60) {
				b.WriteString(benchWords[r.IntN(len(benchWords))])
				b.WriteByte(' ')
			}
			b.WriteString(".\n\n")
		}
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%05d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(b.Len())
	}
	return total
}

func benchStore(tb testing.TB) *Store {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "hermes.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	exe, _ := os.Executable()
	return New(db, Config{Reader: cage.Reader{Exe: exe}, Embedder: embed.NewHashed(0)})
}

// BenchmarkIndexText: adding and indexing a folder of Markdown files of 10 KB
// with the offline embedder, 2 MB (HERMES_KB_BENCH_MB sets another size: the
// README's 200 MB figure; HERMES_KB_BENCH_DIR indexes that folder instead);
// reports MB/s.
func BenchmarkIndexText(b *testing.B) {
	docs := b.TempDir()
	mb, _ := strconv.Atoi(os.Getenv("HERMES_KB_BENCH_MB"))
	total := writeFolder(b, docs, max(2, mb)*100, 10<<10, 1)
	if dir := os.Getenv("HERMES_KB_BENCH_DIR"); dir != "" { // a real folder: the README's kb-dev figure
		docs, total = dir, folderBytes(b, dir)
	}
	ctx := context.Background()
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		s := benchStore(b)
		start := time.Now()
		c, err := s.Add(ctx, docs, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Index(ctx, c.Name, nil); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(total)*float64(b.N)/(1<<20)/elapsed.Seconds(), "MB/s")
}

// BenchmarkIndexPassagesAgain: writing the full-text index of 100,000
// passages again (generated text, about 60 words each), what the first start
// after a change of text.SegmentForm (or a recovery) does before Hermes opens.
func BenchmarkIndexPassagesAgain(b *testing.B) {
	s := searchStore(b, 100_000)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := RebuildIndex(ctx, s.db); err != nil {
			b.Fatal(err)
		}
	}
}

// searchStore is a store holding n chunks of generated text in 100-chunk
// files of one collection, written as indexing writes them.
func searchStore(b *testing.B, n int) *Store {
	b.Helper()
	s := benchStore(b)
	ctx := context.Background()
	c, err := s.Add(ctx, b.TempDir(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 9))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(zipfWords)-1))
	for f := 0; f < n/100; f++ {
		var outs []outcome
		o := outcome{f: pendingFile{collection: c.ID, name: c.Name, rel: fmt.Sprintf("f%05d.md", f)}, hash: fmt.Sprint(f)}
		res, err := s.db.ExecContext(ctx, `INSERT INTO kb_files(collection_id, path, path_hash, state) VALUES (?, ?, ?, 'pending')`, c.ID, o.f.rel, store.Digest(o.f.rel))
		if err != nil {
			b.Fatal(err)
		}
		o.f.id, _ = res.LastInsertId()
		for i := range 100 {
			var t strings.Builder
			for range 60 {
				t.WriteString(zipfWords[zipf.Uint64()])
				t.WriteByte(' ')
			}
			o.chunks = append(o.chunks, chunk.Chunk{Seq: i, Text: t.String()})
		}
		o.vecs, o.embedder = s.embed(ctx, o.chunks)
		o.rowsOf()
		outs = append(outs, o)
		if err := s.commit(ctx, outs); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkSearch: one question against 100,000 passages (words and the
// offline embedder's vectors); reports the p95 of the runs.
func BenchmarkSearch(b *testing.B) {
	s := searchStore(b, 100_000)
	ctx := context.Background()
	qs := []string{zipfWords[3] + " " + zipfWords[700] + " " + zipfWords[9000], zipfWords[40] + " " + zipfWords[41],
		zipfWords[12000] + " " + zipfWords[5] + " " + zipfWords[300] + " " + zipfWords[2500]}
	if _, err := s.Search(ctx, Query{Text: qs[0]}); err != nil { // loads the vector index
		b.Fatal(err)
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := s.Search(ctx, Query{Text: qs[i%len(qs)], K: 5}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
}

// zipfWords is a vocabulary of 20,000 made-up words, drawn by Zipf's law as
// words of a real language are: a few very common, most rare.
var zipfWords = func() []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	r := rand.New(rand.NewPCG(5, 5))
	out := make([]string, 20_000)
	for i := range out {
		b := make([]byte, 4+r.IntN(6))
		for j := range b {
			b[j] = letters[r.IntN(len(letters))]
		}
		out[i] = string(b)
	}
	return out
}()

// BenchmarkChangedFileSearchable: in a watched collection of 1,000 files, the
// time from saving one file to its new words being found (the watcher's
// settle time, the folder's rescan, the file's reading and indexing).
func BenchmarkChangedFileSearchable(b *testing.B) {
	docs := b.TempDir()
	writeFolder(b, docs, 1000, 2<<10, 2)
	s := benchStore(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := s.Add(ctx, docs, "watched")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Index(ctx, c.Name, nil); err != nil {
		b.Fatal(err)
	}
	go s.Watch(ctx)
	for s.watcher() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	target := filepath.Join(docs, "d004", "f00400.md")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		word := fmt.Sprintf("zqxmarker%d", i)
		start := time.Now()
		if err := os.WriteFile(target, []byte("# Changed\n\nThe new word is "+word+".\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			hits, _ := s.Search(ctx, Query{Text: word, K: 1})
			if len(hits) > 0 && strings.Contains(hits[0].Text, word) {
				break
			}
			if time.Since(start) > 20*time.Second {
				b.Fatal("the change was not searchable within 20 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms-to-searchable")
	}
}

// folderBytes is the size of the files under dir.
func folderBytes(b *testing.B, dir string) int64 {
	b.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
