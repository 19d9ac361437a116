package netlog

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"hermes/backend/egress"
	"hermes/backend/store"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// clock is a settable Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var day0 = time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC)

func ev(part, host string, out egress.Outcome, reason string, at time.Time) egress.Event {
	return egress.Event{Part: part, Host: host, Port: "11434", Address: "127.0.0.1", Outcome: out, Reason: reason, At: at}
}

func TestListSumsDaysAndKeepsTheLatest(t *testing.T) {
	db := openDB(t)
	c := &clock{day0}
	l := Open(db.DB, Options{Every: time.Hour, Now: c.now})
	defer l.Close()
	l.Record(ev("ollama", "127.0.0.1", egress.Made, "", day0))
	l.Record(ev("ollama", "127.0.0.1", egress.Made, "", day0.Add(time.Minute)))
	if err := l.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	next := day0.Add(26 * time.Hour) // the next day: another row, one entry
	c.t = next
	l.Record(ev("ollama", "127.0.0.1", egress.Made, "", next))
	refused := ev("mcp:nas", "nas.lan", egress.Refused, egress.ReasonOffline, next.Add(time.Second))
	refused.Address = "10.255.255.1"
	l.Record(refused)
	got, err := l.List(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("entries = %+v", got)
	}
	r, o := got[0], got[1] // newest first
	if r.Part != "mcp:nas" || r.Host != "nas.lan" || r.Outcome != egress.Refused || r.Reason != egress.ReasonOffline || r.Address != "10.255.255.1" || r.Count != 1 {
		t.Fatalf("refused entry = %+v", r)
	}
	if o.Part != "ollama" || o.Count != 3 || !o.First.Equal(day0) || !o.Last.Equal(next) || o.Port != "11434" {
		t.Fatalf("ollama entry = %+v", o)
	}
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM network_log`).Scan(&rows); err != nil || rows != 3 {
		t.Fatalf("rows = %d (%v), want one per day, part, host and outcome: 3", rows, err)
	}
	if got, _ := l.List(context.Background(), 1); len(got) != 1 || got[0].Part != "mcp:nas" {
		t.Fatalf("limit 1 = %+v", got)
	}
}

func TestAnotherProcessReadsWhatWasWritten(t *testing.T) {
	db := openDB(t)
	l := Open(db.DB, Options{Every: 10 * time.Millisecond})
	l.Record(ev("tool:weather", "127.0.0.1", egress.Failed, egress.FailRefused, time.Now()))
	// The background flusher writes it without being asked.
	other, err := sql.Open("sqlite3", "file:"+db.Path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	deadline := time.Now().Add(5 * time.Second)
	for n := 0; n == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the flusher did not write within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
		_ = other.QueryRow(`SELECT count(*) FROM network_log WHERE part = 'tool:weather' AND reason = 'connection_refused'`).Scan(&n)
	}
	l.Record(ev("tool:weather", "127.0.0.1", egress.Failed, egress.FailRefused, time.Now()))
	if err := l.Close(); err != nil { // Close writes what is pending
		t.Fatal(err)
	}
	got, err := Open(other, Options{}).List(context.Background(), 0)
	if err != nil || len(got) != 1 || got[0].Count != 2 {
		t.Fatalf("another log on the file lists %+v (%v)", got, err)
	}
}

func TestRecordNeverWaitsForTheDatabase(t *testing.T) {
	db := openDB(t)
	l := Open(db.DB, Options{Every: time.Hour})
	defer l.Close()
	// Another writer holds the database.
	other, err := sql.Open("sqlite3", "file:"+db.Path+"?_busy_timeout=100")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < 1000; i++ {
		l.Record(ev("ollama", "127.0.0.1", egress.Made, "", time.Now()))
	}
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Fatalf("1000 records took %s while the database was busy", took)
	}
	start = time.Now()
	if err := l.Flush(context.Background()); err == nil {
		t.Fatal("a flush into a locked database succeeded")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a flush waited %s for the lock, not the log's own 1 s", took)
	}
	if _, err := conn.ExecContext(context.Background(), `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	got, err := l.List(context.Background(), 0) // the failed flush kept them
	if err != nil || len(got) != 1 || got[0].Count != 1000 {
		t.Fatalf("after the lock: %+v (%v)", got, err)
	}
}

func TestTheLogIsBounded(t *testing.T) {
	db := openDB(t)
	c := &clock{day0}
	l := Open(db.DB, Options{Every: time.Hour, Now: c.now, KeepDays: 30, MaxRows: 3, MaxPending: 2})
	defer l.Close()
	l.Record(ev("ollama", "a", egress.Made, "", day0))
	l.Record(ev("ollama", "b", egress.Made, "", day0))
	l.Record(ev("ollama", "c", egress.Made, "", day0)) // a third distinct row waiting: dropped
	if got, _ := l.List(context.Background(), 0); len(got) != 2 {
		t.Fatalf("pending bound: %+v", got)
	}
	for i, h := range []string{"d", "e", "f"} {
		l.Record(ev("ollama", h, egress.Made, "", day0.Add(time.Duration(i+1)*time.Minute)))
		_ = l.Flush(context.Background())
	}
	got, _ := l.List(context.Background(), 0)
	if len(got) != 3 || got[0].Host != "f" || got[2].Host != "d" {
		t.Fatalf("row cap: %+v", got)
	}
	c.t = day0.AddDate(0, 0, 31) // a month later, the old days go
	l.Record(ev("ollama", "g", egress.Made, "", c.t))
	got, _ = l.List(context.Background(), 0)
	if len(got) != 1 || got[0].Host != "g" {
		t.Fatalf("after 31 days: %+v", got)
	}
	long := string(make([]byte, 1000))
	l.Record(egress.Event{Part: long, Host: long, Outcome: egress.Made, At: c.t})
	_ = l.Flush(context.Background())
	var part, host int
	if err := db.QueryRow(`SELECT max(length(part)), max(length(host)) FROM network_log`).Scan(&part, &host); err != nil || part > maxPart || host > maxHost {
		t.Fatalf("longest part %d, host %d (%v)", part, host, err)
	}
}
