package kb

import (
	"context"
	"fmt"
)

// File is one file of a collection and what became of it.
type File struct {
	Path    string `json:"path"` // relative to the collection's folder
	Size    int64  `json:"size"`
	State   string `json:"state"` // pending, indexed or failed
	Kind    string `json:"kind,omitempty"`
	Reason  string `json:"reason,omitempty"` // why it failed (document.Refused*)
	Detail  string `json:"detail,omitempty"`
	Pages   int    `json:"pages,omitempty"`
	Chunks  int    `json:"chunks"`
	Indexed string `json:"indexed,omitempty"`
}

// Files lists a collection's files, failed first, then by path.
func (s *Store) Files(ctx context.Context, name string) ([]File, error) {
	c, err := s.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT path, size, state, kind, reason, detail, pages, chunks, COALESCE(indexed_at, '')
		FROM kb_files WHERE collection_id = ? ORDER BY state <> 'failed', path`, c.ID)
	if err != nil {
		return nil, fmt.Errorf("list files of %q: %w", name, err)
	}
	defer rows.Close()
	var out []File
	for rows.Next() {
		var f File
		if err := rows.Scan(&f.Path, &f.Size, &f.State, &f.Kind, &f.Reason, &f.Detail, &f.Pages, &f.Chunks, &f.Indexed); err != nil {
			return nil, fmt.Errorf("list files of %q: %w", name, err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
