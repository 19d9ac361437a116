package kb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"hermes/backend/store"
)

// Collection is a folder (or one file) added to the knowledge base, with
// what its files came to.
type Collection struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Root    string `json:"root"`
	Single  bool   `json:"single"`
	Scanned bool   `json:"scanned"` // the folder's files are all listed
	Files   int    `json:"files"`
	Indexed int    `json:"indexed"`
	Pending int    `json:"pending"`
	Failed  int    `json:"failed"`
	Chunks  int    `json:"chunks"`
	Bytes   int64  `json:"bytes"`
	Created string `json:"created"`
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Add makes a collection of root (a folder, or one file) named name (the
// folder's name when empty) and lists its files to be indexed; Index reads them.
func (s *Store) Add(ctx context.Context, root, name string) (Collection, error) {
	abs, single, err := checkRoot(root)
	if err != nil {
		return Collection{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = filepath.Base(abs)
	}
	if other, err := s.byRoot(ctx, abs); err == nil {
		return Collection{}, fmt.Errorf("add %s: %w: %q already holds it", abs, ErrExists, other)
	}
	var id int64
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO kb_collections(name, name_hash, root, single, state, created_at)
			VALUES (?, ?, ?, ?, 'scanning', ?) ON CONFLICT(name_hash) DO NOTHING`, name, store.Digest(name), abs, single, s.now())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: %q", ErrExists, name)
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return Collection{}, fmt.Errorf("add collection: %w", err)
	}
	if _, err := s.Scan(ctx, id); err != nil {
		return Collection{}, err
	}
	s.changed(name)
	c, err := s.Get(ctx, name)
	if w := s.watcher(); w != nil && err == nil {
		w.follow(c)
	}
	return c, err
}

func checkRoot(root string) (string, bool, error) {
	abs, err := filepath.Abs(strings.TrimSpace(root))
	if err != nil || strings.TrimSpace(root) == "" {
		return "", false, fmt.Errorf("add %q: %w", root, ErrNoFolder)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", false, fmt.Errorf("add %s: %w", abs, ErrNoFolder)
	}
	return abs, !fi.IsDir(), nil
}

func (s *Store) byRoot(ctx context.Context, root string) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, `SELECT name FROM kb_collections WHERE root = ?`, root).Scan(&name)
	return name, err
}

const collectionSelect = `SELECT c.id, c.name, c.root, c.single, c.state = 'ready', c.created_at,
	COUNT(f.id), COALESCE(SUM(f.state = 'indexed'), 0), COALESCE(SUM(f.state = 'pending'), 0),
	COALESCE(SUM(f.state = 'failed'), 0), COALESCE(SUM(f.chunks), 0), COALESCE(SUM(f.size), 0)
	FROM kb_collections c LEFT JOIN kb_files f ON f.collection_id = c.id`

// List is every collection, by name.
func (s *Store) List(ctx context.Context) ([]Collection, error) {
	rows, err := s.db.QueryContext(ctx, collectionSelect+` GROUP BY c.id ORDER BY c.name`)
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	defer rows.Close()
	var out []Collection
	for rows.Next() {
		c, err := scanCollection(rows)
		if err != nil {
			return nil, fmt.Errorf("list collections: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Get is the collection named name (or, when name is a number, of that id).
func (s *Store) Get(ctx context.Context, name string) (Collection, error) {
	row := s.db.QueryRowContext(ctx, collectionSelect+` WHERE c.name_hash = ? OR c.id = ? GROUP BY c.id`, store.Digest(name), name)
	c, err := scanCollection(row)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && c.ID == 0) {
		return Collection{}, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return Collection{}, fmt.Errorf("read collection %q: %w", name, err)
	}
	return c, nil
}

type scanner interface{ Scan(...any) error }

func scanCollection(r scanner) (Collection, error) {
	var c Collection
	err := r.Scan(&c.ID, &c.Name, &c.Root, &c.Single, &c.Scanned, &c.Created,
		&c.Files, &c.Indexed, &c.Pending, &c.Failed, &c.Chunks, &c.Bytes)
	return c, err
}

// Reindex reads every file of a collection again (after a reader changed, or
// to be sure).
func (s *Store) Reindex(ctx context.Context, name string) (Collection, error) {
	c, err := s.Get(ctx, name)
	if err != nil {
		return Collection{}, err
	}
	if _, err := s.Scan(ctx, c.ID); err != nil {
		return Collection{}, err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE kb_files SET state = 'pending', hash = '' WHERE collection_id = ?`, c.ID)
	if err != nil {
		return Collection{}, fmt.Errorf("reindex %q: %w", name, err)
	}
	s.changed(c.Name)
	return s.Get(ctx, name)
}
