package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/store"
)

// writeImportFile writes n short import lines, perSession to a conversation,
// the same bytes every time.
func writeImportFile(t testing.TB, n, perSession int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "import.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(w, `{"session":"s%d","id":"m%d","role":%q,"content":"short line %d of the import","created_at":"2026-01-01T00:00:00Z"}`+"\n",
			i/perSession, i%perSession, role, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportFromAFileOrAPipe: a checked file is imported whole from a file
// (read twice) and from a pipe (kept as read), with progress up to its line
// count, and the titles come from each conversation's first user message.
func TestImportFromAFileOrAPipe(t *testing.T) {
	ctx := context.Background()
	p := writeImportFile(t, 3000, 50) // two chunks and more
	for _, how := range []string{"file", "pipe"} {
		t.Run(how, func(t *testing.T) {
			st, _ := newStore(t)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var r io.Reader = f
			if how == "pipe" {
				r = io.MultiReader(f) // no Seek
			}
			checked, err := CheckImport(r)
			if err != nil || checked.Len() != 3000 {
				t.Fatalf("check: %d lines, %v", checked.Len(), err)
			}
			var last, total int
			res, err := st.ImportFrom(ctx, checked, func(d, tot int) { last, total = d, tot })
			if err != nil || res != (ImportResult{Sessions: 60, Messages: 3000}) || last != 3000 || total != 3000 {
				t.Fatalf("import = %+v, %v; progress %d of %d", res, err, last, total)
			}
			s, err := st.Get(ctx, "s7")
			if err != nil || s.MessageCount != 50 || s.Title != "short line 350 of the import" {
				t.Fatalf("s7 = %+v, %v", s, err)
			}
		})
	}
}

// TestImportRefusesAFileChangedAfterItsCheck: a file rewritten between the
// check and the import (a line that no longer passes, or other good lines) is
// refused as ErrInvalid, and nothing of it stays.
func TestImportRefusesAFileChangedAfterItsCheck(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, replace, says string }{
		{"a line now bad", `"role":"user","content":"short line 2500 `, `line 2501: "role" is "robot"`},
		{"other good lines", `"content":"short line 2500 `, "it is not what was checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := newStore(t)
			p := writeImportFile(t, 3000, 50)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			checked, err := CheckImport(f)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(p)
			with := strings.Replace(tc.replace, "user", "robot", 1)
			if with == tc.replace {
				with = strings.Replace(tc.replace, "short", "SHORT", 1)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), tc.replace, with, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err = st.ImportFrom(ctx, checked, nil)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "the file changed while it was imported") || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v", err)
			}
			var sessions, messages, jobs int
			st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions`).Scan(&sessions)
			st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages`).Scan(&messages)
			st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports`).Scan(&jobs)
			if sessions+messages+jobs != 0 {
				t.Errorf("left %d sessions, %d messages, %d import jobs", sessions, messages, jobs)
			}
		})
	}
}

// TestCheckImportNamesBadLinesAndKeepsNothing: the check names each bad line,
// and a good file checked holds none of its lines (ParseImport's copy of the
// same 100,000 lines is megabytes).
func TestCheckImportNamesBadLinesAndKeepsNothing(t *testing.T) {
	bad := `{"session":"s1","id":"m1","role":"user","content":"fine"}` + "\nnot json\n" + `{"session":"s1","role":"user","content":"x"}` + "\n"
	if _, err := CheckImport(strings.NewReader(bad)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "line 2: not a JSON object") || !strings.Contains(err.Error(), `line 3: "id"`) {
		t.Fatalf("bad file: %v", err)
	}
	p := writeImportFile(t, 100_000, 100)
	held := func(read func(r io.Reader) (any, error)) uint64 {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v, err := read(f)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(v)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	checked := held(func(r io.Reader) (any, error) { return CheckImport(r) })
	parsed := held(func(r io.Reader) (any, error) { return ParseImport(r) })
	t.Logf("held after reading 100,000 lines: checked %d bytes, parsed %d bytes", checked, parsed)
	if checked > 1<<20 || parsed < 10<<20 {
		t.Errorf("checked holds %d bytes, parsed %d", checked, parsed)
	}
}

// BenchmarkImportMillionLines imports 1,000,000 short lines (10,000
// conversations of 100) from a file into a fresh database and reports the
// peak of the heap (sampled every 10 ms) and the seconds it took:
// how=checked is the streaming import (CheckImport, ImportFrom), how=parsed
// holds every line first (ParseImport, Import), as every import did before.
func BenchmarkImportMillionLines(b *testing.B) {
	p := writeImportFile(b, 1_000_000, 100)
	for _, how := range []string{"checked", "parsed"} {
		b.Run("how="+how, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "hermes.db"))
				if err != nil {
					b.Fatal(err)
				}
				st := NewStore(db)
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				peak, stop := heapPeak()
				b.StartTimer()
				res, err := importFile(st, f, how)
				b.StopTimer()
				stop()
				f.Close()
				db.Close()
				if err != nil || res.Messages != 1_000_000 {
					b.Fatalf("%+v, %v", res, err)
				}
				b.ReportMetric(float64(peak.Load())/1e6, "peak-heap-MB")
				if rss := peakRSS(); rss > 0 {
					b.ReportMetric(float64(rss)/1e6, "peak-rss-MB") // the process's: run one how per process
				}
			}
		})
	}
}

func importFile(st *Store, f *os.File, how string) (ImportResult, error) {
	ctx := context.Background()
	if how == "parsed" {
		lines, err := ParseImport(f)
		if err != nil {
			return ImportResult{}, err
		}
		return st.Import(ctx, lines, nil)
	}
	checked, err := CheckImport(f)
	if err != nil {
		return ImportResult{}, err
	}
	return st.ImportFrom(ctx, checked, nil)
}

// peakRSS is the process's peak resident set (VmHWM), 0 where /proc does not say.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb)
			return kb << 10
		}
	}
	return 0
}

// heapPeak samples the heap (HeapAlloc) every 10 ms until stop.
func heapPeak() (*atomic.Uint64, func()) {
	var peak atomic.Uint64
	done, finished := make(chan struct{}), make(chan struct{})
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > peak.Load() {
			peak.Store(m.HeapAlloc)
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				sample()
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return &peak, func() { close(done); <-finished }
}
