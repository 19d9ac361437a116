package kb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"hermes/backend/chunk"
	"hermes/backend/document"
)

// Progress is an indexing pass as it goes: files and bytes to read, done so
// far, the file being read, the rate and the time left.
type Progress struct {
	Collection string  `json:"collection"`
	Files      int     `json:"files"`
	Done       int     `json:"done"`
	Failed     int     `json:"failed"`
	Bytes      int64   `json:"bytes"`
	DoneBytes  int64   `json:"done_bytes"`
	Current    string  `json:"current"`
	MBps       float64 `json:"mbps"`
	ETASeconds float64 `json:"eta_seconds"`
	Finished   bool    `json:"finished"`
	Stopped    bool    `json:"stopped"` // cancelled (a quit, Cancel): the rest waits
}

// pendingFile is a file waiting to be indexed.
type pendingFile struct {
	id, collection int64
	name, root     string
	single         bool
	rel, hash      string
	size           int64
}

// maxRead bounds what is read of one file: the readers' own limits are lower.
const maxRead = 64 << 20

// Index reads the waiting files of the collection named name ("" every
// collection) until none is left or ctx ends; a file that cannot be read is
// marked failed with the reason, and the pass goes on. Work is rows: a pass
// cut short by a crash or a quit resumes where it stopped. each (may be nil)
// hears the progress after every file, as Config.OnProgress does.
func (s *Store) Index(ctx context.Context, name string, each func(Progress)) (Progress, error) {
	s.work.Lock()
	defer s.work.Unlock()
	if s.paused.Load() {
		return Progress{Collection: name, Stopped: true}, ErrPaused
	}
	var id int64
	if name != "" {
		c, err := s.Get(ctx, name)
		if err != nil {
			return Progress{}, err
		}
		id = c.ID
	}
	p := Progress{Collection: name}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(size), 0) FROM kb_files
		WHERE state = 'pending' AND (? = 0 OR collection_id = ?)`, id, id).Scan(&p.Files, &p.Bytes); err != nil {
		return p, fmt.Errorf("index: %w", err)
	}
	start := time.Now()
	ready := s.prepareAhead(ctx, id)
	for b := range ready {
		err := b.err
		if err == nil && s.paused.Load() {
			err = ErrPaused
		}
		if err == nil {
			err = s.commit(ctx, b.outs)
		}
		if err != nil {
			cancelAhead(ready)
			p.Stopped, p.Current = ctx.Err() != nil || errors.Is(err, ErrPaused), ""
			s.progress(p, each)
			return p, err
		}
		for _, o := range b.outs {
			p.Done++
			if o.failed {
				p.Failed++
			}
			p.DoneBytes += o.f.size
			p.Current = o.f.rel
			p.rate(time.Since(start))
			s.progress(p, each)
		}
		s.changed(b.outs[0].f.name)
	}
	p.Finished, p.Current = true, ""
	s.progress(p, each)
	return p, nil
}

// prepared is a batch of files read and cut, or why the reading stopped.
type prepared struct {
	outs []outcome
	err  error
}

// prepareAhead reads the waiting files batch by batch while the caller writes
// the one before (a channel of one: reading stays at most a batch ahead).
func (s *Store) prepareAhead(ctx context.Context, id int64) chan prepared {
	ready := make(chan prepared, 1)
	go func() {
		defer close(ready)
		var after int64
		for {
			batch, err := s.pending(ctx, id, after, batchFiles)
			if err != nil {
				ready <- prepared{err: err}
				return
			}
			if len(batch) == 0 {
				return
			}
			batch = cut(batch)
			after = batch[len(batch)-1].id
			outs, err := s.prepareAll(ctx, batch)
			ready <- prepared{outs: outs, err: err}
			if err != nil {
				return
			}
		}
	}()
	return ready
}

// cancelAhead drains what the reader still sends after the writer stopped.
func cancelAhead(ready chan prepared) {
	go func() {
		for range ready {
		}
	}()
}

// A batch is the files one transaction writes (fewer commits; a file is still
// written whole or not at all): up to batchFiles files and batchBytes bytes
// (at least one file), so a batch of big files (scans) still reports often.
// 64 files rather than 32: kb-dev's 258 small files (1.6 KB on average) are 5
// commits instead of 9, +27 % MB/s (BenchmarkIndexText, 5 runs each,
// alternating), and the generated 10 KB files +6 %; 128, 256 or a byte budget
// alone (128 KB to 512 KB) did no better, as one batch being read while the
// one before is written is lost with fewer, larger batches.
const (
	batchFiles = 64
	batchBytes = 2 << 20
)

// cut is the batch's first files within batchBytes (at least one).
func cut(batch []pendingFile) []pendingFile {
	var size int64
	for i, f := range batch {
		if size += f.size; i > 0 && size > batchBytes {
			return batch[:i]
		}
	}
	return batch
}

func (p *Progress) rate(elapsed time.Duration) {
	if sec := elapsed.Seconds(); sec > 0 {
		p.MBps = float64(p.DoneBytes) / (1 << 20) / sec
		if p.DoneBytes > 0 {
			p.ETASeconds = sec * float64(p.Bytes-p.DoneBytes) / float64(p.DoneBytes)
		}
	}
}

func (s *Store) progress(p Progress, each func(Progress)) {
	if each != nil {
		each(p)
	}
	if s.cfg.OnProgress != nil {
		s.cfg.OnProgress(p)
	}
}

// pending lists up to n waiting files of collection id (0: all) after the
// file id after.
func (s *Store) pending(ctx context.Context, id, after int64, n int) ([]pendingFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.id, f.collection_id, c.name, c.root, c.single, f.path, f.hash, f.size
		FROM kb_files f JOIN kb_collections c ON c.id = f.collection_id
		WHERE f.state = 'pending' AND (? = 0 OR f.collection_id = ?) AND f.id > ? ORDER BY f.id LIMIT ?`, id, id, after, n)
	if err != nil {
		return nil, fmt.Errorf("index: list waiting files: %w", err)
	}
	defer rows.Close()
	var out []pendingFile
	for rows.Next() {
		var f pendingFile
		if err := rows.Scan(&f.id, &f.collection, &f.name, &f.root, &f.single, &f.rel, &f.hash, &f.size); err != nil {
			return nil, fmt.Errorf("index: list waiting files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// path is the file on disk.
func (f pendingFile) path() string {
	if f.single {
		return f.root
	}
	return filepath.Join(f.root, filepath.FromSlash(f.rel))
}

// outcome is one file read and cut, ready to be written: gone from disk,
// unchanged (same content hash), failed (with the reason), or its chunks.
type outcome struct {
	f              pendingFile
	gone, same     bool
	failed         bool
	reason, detail string
	doc            document.Doc
	hash           string
	chunks         []chunk.Chunk
	vecs           [][]float32
	embedder       string
	bodies         []string // each chunk's full-text body (rowsOf)
	blobs          [][]byte // each chunk's vector bytes, nil without one
}

// prepareAll reads and cuts a batch of files, readerWorkers at a time.
func (s *Store) prepareAll(ctx context.Context, batch []pendingFile) ([]outcome, error) {
	outs := make([]outcome, len(batch))
	errs := make([]error, len(batch))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(readerWorkers(), len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outs[i], errs[i] = s.prepare(ctx, batch[i])
			}
		}()
	}
	for i := range batch {
		next <- i
	}
	close(next)
	wg.Wait()
	return outs, errors.Join(errs...)
}

// readerWorkers is how many files are read at once: one per core.
func readerWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }

// prepare reads one file (no database write); only ctx stops it.
func (s *Store) prepare(ctx context.Context, f pendingFile) (outcome, error) {
	o := outcome{f: f}
	data, err := readFile(f.path())
	switch {
	case errors.Is(err, os.ErrNotExist):
		o.gone = true
		return o, nil
	case err != nil:
		o.failed, o.reason, o.detail = true, "unreadable", err.Error()
		return o, nil
	}
	sum := sha256.Sum256(data)
	o.hash = hex.EncodeToString(sum[:])
	if o.same = o.hash == f.hash; o.same {
		return o, nil
	}
	doc, err := s.cfg.Reader.ExtractText(ctx, filepath.Base(f.rel), data)
	if ctx.Err() != nil {
		return o, ctx.Err()
	}
	var r *document.Refusal
	switch {
	case errors.As(err, &r):
		o.failed, o.reason, o.detail = true, r.Reason, r.Message()
	case err != nil:
		o.failed, o.reason, o.detail = true, document.RefusedReaderFailed, err.Error()
	default:
		o.doc = doc
		o.chunks = chunk.Split(doc.Text, doc.Pages, doc.Kind != document.KindCode && doc.Kind != document.KindCSV)
		o.vecs, o.embedder = s.embed(ctx, o.chunks)
		o.rowsOf()
	}
	return o, nil
}

func readFile(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxRead {
		return nil, fmt.Errorf("the file is %d MB; files up to %d MB are read", fi.Size()>>20, maxRead>>20)
	}
	return os.ReadFile(p)
}

// embed is the chunks' vectors and the embedder's name; none when the
// embedder fails (the chunks are still found by their words, and embedded
// later by Embed).
func (s *Store) embed(ctx context.Context, chunks []chunk.Chunk) ([][]float32, string) {
	if s.cfg.Embedder == nil || len(chunks) == 0 {
		return nil, ""
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = embedText(c)
	}
	vecs, err := s.cfg.Embedder.Embed(ctx, texts)
	if err != nil || len(vecs) != len(chunks) {
		return nil, ""
	}
	return vecs, s.cfg.Embedder.Name()
}

// embedText is what the embedder sees of a chunk: its heading path and text.
func embedText(c chunk.Chunk) string {
	if c.Heading == "" {
		return c.Text
	}
	return c.Heading + "\n" + c.Text
}
