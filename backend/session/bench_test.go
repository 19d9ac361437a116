package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"hermes/backend/store"
)

var benchWords = strings.Fields(`apple river mountain coffee train ticket hotel garden music piano violin doctor meeting budget
	invoice project deadline weather umbrella jacket recipe pasta tomato garlic onion soup holiday beach camera battery laptop
	keyboard mouse screen printer paper letter email phone number address street museum painting ocean island bridge tunnel
	耳机 昨天 电脑 手机 会议 预算 天气 雨伞 咖啡 火车 酒店 花园 音乐 钢琴 医生 项目 邮件 电话 地址 博物馆 海洋 桥梁`)

// benchVocab is a synthetic vocabulary: the named words above first (the most
// frequent), then made-up words, drawn with a Zipf law as natural text is.
var benchVocab = func() []string {
	v := append([]string{}, benchWords...)
	syll := strings.Fields("ka lo mi ne ru sa to vi de pa ri go mu be la fo")
	for i := 0; len(v) < 6000; i++ {
		v = append(v, syll[i%16]+syll[(i/16)%16]+syll[(i/256)%16])
	}
	return v
}()

func benchText(rng *rand.Rand, n int) string {
	z := rand.NewZipf(rng, 1.07, 2, uint64(len(benchVocab)-1))
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(benchVocab[z.Uint64()])
		b.WriteByte(' ')
	}
	return b.String()
}

// benchStore fills a database with sessions × perSession messages.
func benchStore(b *testing.B, sessions, perSession int) *Store {
	b.Helper()
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "hermes.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	st := NewStore(db)
	rng := rand.New(rand.NewPCG(1, 1))
	lines := make([]ImportLine, 0, sessions*perSession)
	for s := 0; s < sessions; s++ {
		for m := 0; m < perSession; m++ {
			role := "user"
			if m%2 == 1 {
				role = "assistant"
			}
			lines = append(lines, ImportLine{Session: fmt.Sprintf("s%d", s), ID: fmt.Sprintf("m%d", m), Role: role,
				Content: benchText(rng, 8+rng.IntN(40)), CreatedAt: time.Date(2026, 1, 1, 0, 0, m, 0, time.UTC).Format(time.RFC3339)})
		}
	}
	if _, err := st.Import(context.Background(), lines, nil); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkLoadRecent50: open a session and load its newest 50 messages.
func BenchmarkLoadRecent50(b *testing.B) {
	st := benchStore(b, 20, 600)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := st.Get(ctx, fmt.Sprintf("s%d", i%20))
		if err != nil {
			b.Fatal(err)
		}
		msgs, err := st.Recent(ctx, s.ID, 50)
		if err != nil || len(msgs) != 50 {
			b.Fatal(err, len(msgs))
		}
	}
}

// BenchmarkSearch100k: full-text search over 100,000 messages (Zipf-distributed
// words, English and Chinese); reports p50 and p95 over a mix of one- and two-word
// queries, from common words to rare ones.
func BenchmarkSearch100k(b *testing.B) {
	st := benchStore(b, 200, 500)
	ctx := context.Background()
	queries := []string{"coffee", "piano meeting", "耳机", "预算 会议", "tomato", "laptop battery", "博物馆", "invoice", "umbr", "ocean bridge",
		benchVocab[120], benchVocab[300] + " " + benchVocab[40], benchVocab[900], benchVocab[2000]}
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		hits, err := st.Search(ctx, queries[i%len(queries)], 20)
		samples = append(samples, time.Since(start))
		if err != nil || len(hits) == 0 {
			b.Fatal(err, len(hits))
		}
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(samples[len(samples)*95/100].Microseconds()), "p95-µs")
}

// BenchmarkIndexChatsAgain100k: writing the chat index of 100,000 messages
// again, what the first start after a change of text.SegmentForm (or a
// recovery) does before the window opens.
func BenchmarkIndexChatsAgain100k(b *testing.B) {
	st := benchStore(b, 200, 500)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := st.RebuildSearch(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenSessions300: heap held by 300 open sessions, each with its newest 50
// messages in memory (what the UI and the prompt builder keep per open session).
func BenchmarkOpenSessions300(b *testing.B) {
	st := benchStore(b, 300, 60)
	ctx := context.Background()
	list, _ := st.List(ctx)
	b.ResetTimer()
	var heapMB float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		open := make([][]Message, 0, len(list))
		for _, s := range list {
			msgs, err := st.Recent(ctx, s.ID, 50)
			if err != nil {
				b.Fatal(err)
			}
			open = append(open, msgs)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heapMB = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(open)
	}
	b.ReportMetric(heapMB, "heap-MB")
}

// BenchmarkAppend: store one message at the end of a 50-message session (what a
// turn commits twice), and read a 50-message session back for a turn: from the
// database, and through History (served from memory while the session is unchanged).
func BenchmarkAppend(b *testing.B) {
	st := benchStore(b, 2, 50)
	ctx := context.Background()
	s, err := st.Get(ctx, "s0")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("append", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "what is the weather like in the mountains tomorrow"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	read := func(b *testing.B, load func(Session) ([]Message, error)) {
		for i := 0; i < b.N; i++ {
			s, err := st.Get(ctx, "s1")
			if err != nil {
				b.Fatal(err)
			}
			if msgs, err := load(s); err != nil || len(msgs) != 50 {
				b.Fatal(err, len(msgs))
			}
		}
	}
	b.Run("get+messages", func(b *testing.B) {
		read(b, func(s Session) ([]Message, error) { return st.Messages(ctx, s.ID) })
	})
	b.Run("get+history", func(b *testing.B) {
		read(b, func(s Session) ([]Message, error) { return st.History(ctx, s) })
	})
}
