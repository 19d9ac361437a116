// Package netlog keeps the list of the connections Hermes made, refused or
// failed to make (egress.Event) in SQLite, for every door to read: one row per
// UTC day, part, host, port and outcome, with its count, first and last time,
// and the last address and reason. Never what was sent.
//
// Record never waits for the database: events are summed in memory and a
// background flusher writes them a moment later; a write that fails is tried
// again at the next flush, and what waits in memory is bounded.
package netlog

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"hermes/backend/egress"
)

// Options bound the log; zero fields take the defaults.
type Options struct {
	Every      time.Duration    // how long events gather before a write; default 1 s
	KeepDays   int              // days kept; default 90
	MaxRows    int              // rows kept; default 5,000
	MaxPending int              // distinct rows waiting in memory; default 1,000
	Wait       time.Duration    // longest wait for another writer; default 1 s
	Now        func() time.Time // default time.Now
}

func (o Options) withDefaults() Options {
	if o.Every <= 0 {
		o.Every = time.Second
	}
	if o.KeepDays <= 0 {
		o.KeepDays = 90
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 5000
	}
	if o.MaxPending <= 0 {
		o.MaxPending = 1000
	}
	if o.Wait <= 0 {
		o.Wait = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Longest part and host kept; longer ones are cut.
const (
	maxPart = 128
	maxHost = 255
)

// Entry is one line of the list: a part's connections to one host and port
// with one outcome.
type Entry struct {
	Part    string
	Host    string
	Port    string
	Address string
	Outcome egress.Outcome
	Reason  string
	First   time.Time
	Last    time.Time
	Count   int64
}

// key is a row of the table.
type key struct{ day, part, host, port, outcome string }

// Log is the network log of one database.
type Log struct {
	db   *sql.DB
	opts Options

	mu      sync.Mutex
	pending map[key]*Entry
	wmu     sync.Mutex // held by a write

	kick      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	startOnce sync.Once
	closeOnce sync.Once
}

// Open returns the log of db; its flusher starts with the first event, and
// Close stops it after a last write.
func Open(db *sql.DB, opts Options) *Log {
	return &Log{db: db, opts: opts.withDefaults(), pending: map[key]*Entry{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// Record adds one connection attempt; it never blocks on the database.
func (l *Log) Record(e egress.Event) {
	at := e.At
	if at.IsZero() {
		at = l.opts.Now()
	}
	at = at.UTC()
	k := key{day: at.Format(time.DateOnly), part: cut(e.Part, maxPart), host: cut(e.Host, maxHost), port: cut(e.Port, 16), outcome: string(e.Outcome)}
	l.mu.Lock()
	p, ok := l.pending[k]
	if !ok && len(l.pending) >= l.opts.MaxPending {
		l.mu.Unlock()
		return // the database is not keeping up; the log stays bounded
	}
	if !ok {
		p = &Entry{Part: k.part, Host: k.host, Port: k.port, Outcome: e.Outcome, First: at}
		l.pending[k] = p
	}
	p.Count++
	if !at.Before(p.Last) {
		p.Last, p.Address, p.Reason = at, cut(e.Address, maxHost), e.Reason
	}
	l.mu.Unlock()
	l.startOnce.Do(func() { go l.flusher() })
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// flusher writes what gathered a moment after the first event of a batch.
func (l *Log) flusher() {
	defer close(l.done)
	for {
		select {
		case <-l.stop:
			return
		case <-l.kick:
		}
		select {
		case <-l.stop:
			return
		case <-time.After(l.opts.Every):
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = l.Flush(ctx) // kept for the next flush; the log never fails a connection
		cancel()
	}
}

// Close writes what is pending (waiting at most two seconds) and stops the flusher.
func (l *Log) Close() error {
	var err error
	l.closeOnce.Do(func() {
		close(l.stop)
		l.startOnce.Do(func() { close(l.done) }) // never started: nothing to wait for
		<-l.done
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err = l.Flush(ctx)
	})
	return err
}

// cut keeps at most n bytes of s, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
