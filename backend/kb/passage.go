package kb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
)

// ErrNoPassage is a passage id the index does not hold (erased meanwhile).
var ErrNoPassage = errors.New("no such passage")

// Passage is a cited passage in its surroundings, for a viewer: the text of
// its page (or of its whole file, for a file without pages), and where in it
// the passage is (rune offsets). Changed says the file was saved since it was
// indexed: Text is then the passage alone.
type Passage struct {
	Chunk      int64  `json:"chunk"`
	Collection string `json:"collection"`
	File       string `json:"file"`
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Page       int    `json:"page,omitempty"`
	Pages      int    `json:"pages,omitempty"`
	Heading    string `json:"heading,omitempty"`
	Text       string `json:"text"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
	Changed    bool   `json:"changed,omitempty"`
}

// PassageOf reads the passage chunk in its file again (through the Reader, as
// indexing did).
func (s *Store) PassageOf(ctx context.Context, chunk int64) (Passage, error) {
	p, hash, single, root, err := s.passageRow(ctx, chunk)
	if err != nil {
		return Passage{}, err
	}
	p.Path = root
	if !single {
		p.Path = filepath.Join(root, filepath.FromSlash(p.File))
	}
	data, err := readFile(p.Path)
	sum := sha256.Sum256(data)
	if err != nil || hex.EncodeToString(sum[:]) != hash {
		return p.alone(true), nil
	}
	doc, err := s.cfg.Reader.ExtractText(ctx, filepath.Base(p.File), data)
	if err != nil {
		return p.alone(true), nil
	}
	return p.within([]rune(doc.Text), doc.Pages), nil
}

func (s *Store) passageRow(ctx context.Context, chunk int64) (p Passage, hash string, single bool, root string, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT k.id, c.name, c.root, c.single, f.path, f.kind, f.hash, f.pages, k.page, k.heading, k.text, k.start_at, k.end_at
		FROM kb_chunks k JOIN kb_files f ON f.id = k.file_id JOIN kb_collections c ON c.id = f.collection_id WHERE k.id = ?`, chunk).
		Scan(&p.Chunk, &p.Collection, &root, &single, &p.File, &p.Kind, &hash, &p.Pages, &p.Page, &p.Heading, &p.Text, &p.Start, &p.End)
	if errors.Is(err, sql.ErrNoRows) {
		return p, "", false, "", fmt.Errorf("%w: %d", ErrNoPassage, chunk)
	}
	if err != nil {
		return p, "", false, "", fmt.Errorf("read passage %d: %w", chunk, err)
	}
	return p, hash, single, root, nil
}

// within sets Text to the passage's page (or the whole text) and the offsets
// to the passage's place in it.
func (p Passage) within(rs []rune, pages []int) Passage {
	from, to := 0, len(rs)
	if p.Page > 0 && p.Page <= len(pages) {
		from = pages[p.Page-1]
		if p.Page < len(pages) {
			to = pages[p.Page]
		}
	}
	if p.End > len(rs) || p.Start < from || p.End > to {
		return p.alone(false) // the reader's text changed shape
	}
	p.Text, p.Start, p.End = string(rs[from:to]), p.Start-from, p.End-from
	return p
}

// alone is the passage without its surroundings, all of it highlighted.
func (p Passage) alone(changed bool) Passage {
	p.Start, p.End, p.Changed = 0, len([]rune(p.Text)), changed
	return p
}
