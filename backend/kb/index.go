package kb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	for {
		batch, err := s.pending(ctx, id, 32)
		if err != nil || len(batch) == 0 {
			p.Finished, p.Current = err == nil, ""
			s.progress(p, each)
			return p, err
		}
		for _, f := range batch {
			p.Current = f.rel
			failed, err := s.indexFile(ctx, f)
			if err != nil {
				return p, err
			}
			p.Done++
			if failed {
				p.Failed++
			}
			p.DoneBytes += f.size
			p.rate(time.Since(start))
			s.progress(p, each)
			s.changed(f.name)
		}
	}
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

func (s *Store) pending(ctx context.Context, id int64, n int) ([]pendingFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.id, f.collection_id, c.name, c.root, c.single, f.path, f.hash, f.size
		FROM kb_files f JOIN kb_collections c ON c.id = f.collection_id
		WHERE f.state = 'pending' AND (? = 0 OR f.collection_id = ?) ORDER BY f.id LIMIT ?`, id, id, n)
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

// indexFile reads one file and replaces its chunks; failed says it could not
// be read (recorded on its row). Only a database error or ctx stops the pass.
func (s *Store) indexFile(ctx context.Context, f pendingFile) (failed bool, err error) {
	data, err := readFile(f.path())
	if errors.Is(err, os.ErrNotExist) {
		return false, s.removeFile(ctx, f.collection, f.rel)
	}
	if err != nil {
		return true, s.fail(ctx, f, "unreadable", err.Error())
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	if h == f.hash {
		_, err := s.db.ExecContext(ctx, `UPDATE kb_files SET state = 'indexed' WHERE id = ?`, f.id)
		return false, err
	}
	doc, err := s.cfg.Reader.ExtractText(ctx, filepath.Base(f.rel), data)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var r *document.Refusal
	if errors.As(err, &r) {
		return true, s.fail(ctx, f, r.Reason, r.Message())
	}
	if err != nil {
		return true, s.fail(ctx, f, document.RefusedReaderFailed, err.Error())
	}
	chunks := chunk.Split(doc.Text, doc.Pages, doc.Kind != document.KindCode && doc.Kind != document.KindCSV)
	vecs, embedder := s.embed(ctx, chunks)
	return false, s.replace(ctx, f, doc, h, chunks, vecs, embedder)
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

// fail records why a file could not be read, and erases what it had indexed.
func (s *Store) fail(ctx context.Context, f pendingFile, reason, detail string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.eraseFileChunks(ctx, tx, f.id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE kb_files SET state = 'failed', reason = ?, detail = ?, hash = '', chunks = 0,
			indexed_at = ? WHERE id = ?`, reason, detail, s.now(), f.id)
		return err
	})
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
