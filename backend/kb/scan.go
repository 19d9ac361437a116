package kb

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/document"
	"hermes/backend/store"
)

// seen is a file found on disk.
type seen struct {
	rel   string
	size  int64
	mtime int64
}

// ScanResult is what a scan found: files listed for indexing, files gone, and
// files of kinds Hermes does not read (left alone).
type ScanResult struct {
	Changed int `json:"changed"`
	Removed int `json:"removed"`
	Skipped int `json:"skipped"`
}

// Scan lists a collection's files on disk: a new or changed file (size or time)
// waits to be indexed, a file gone is erased from the index.
func (s *Store) Scan(ctx context.Context, id int64) (ScanResult, error) {
	var root string
	var single bool
	if err := s.db.QueryRowContext(ctx, `SELECT root, single FROM kb_collections WHERE id = ?`, id).Scan(&root, &single); err != nil {
		return ScanResult{}, fmt.Errorf("scan collection %d: %w", id, err)
	}
	files, skipped, err := walk(ctx, root, single)
	if err != nil {
		return ScanResult{}, fmt.Errorf("scan %s: %w", root, err)
	}
	res := ScanResult{Skipped: skipped}
	known, err := s.knownFiles(ctx, id)
	if err != nil {
		return res, err
	}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, f := range files {
			k, ok := known[f.rel]
			delete(known, f.rel)
			if ok && k.size == f.size && k.mtime == f.mtime {
				continue
			}
			res.Changed++
			if err := upsertFile(ctx, tx, id, f); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE kb_collections SET state = 'ready' WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("scan %s: %w", root, err)
	}
	for rel := range known {
		if err := s.removeFile(ctx, id, rel); err != nil {
			return res, err
		}
		res.Removed++
	}
	return res, nil
}

func upsertFile(ctx context.Context, tx *sql.Tx, id int64, f seen) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO kb_files(collection_id, path, path_hash, size, mtime, state)
		VALUES (?, ?, ?, ?, ?, 'pending')
		ON CONFLICT(collection_id, path_hash) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, state = 'pending'`,
		id, f.rel, store.Digest(f.rel), f.size, f.mtime)
	return err
}

func (s *Store) knownFiles(ctx context.Context, id int64) (map[string]seen, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, size, mtime FROM kb_files WHERE collection_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	defer rows.Close()
	out := map[string]seen{}
	for rows.Next() {
		var f seen
		if err := rows.Scan(&f.rel, &f.size, &f.mtime); err != nil {
			return nil, fmt.Errorf("list files: %w", err)
		}
		out[f.rel] = f
	}
	return out, rows.Err()
}

// walk lists the readable files under root (or root itself, a single file):
// hidden files and folders and symbolic links are not followed.
func walk(ctx context.Context, root string, single bool) ([]seen, int, error) {
	if single {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, 0, err
		}
		return []seen{{rel: filepath.Base(root), size: fi.Size(), mtime: fi.ModTime().UnixNano()}}, 0, nil
	}
	var out []seen
	skipped := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out, not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if !Readable(d.Name()) {
			skipped++
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, seen{rel: filepath.ToSlash(rel), size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		return nil
	})
	return out, skipped, err
}

// Readable is whether the knowledge base reads files of this name's kind.
func Readable(name string) bool { return document.KindOf(name) != "" }
