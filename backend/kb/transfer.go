package kb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ExportVersion is the version of Export's format.
const ExportVersion = 1

// Exported is the knowledge base as Export writes it: references to the
// user's folders and files (their paths, sizes and content hashes), never
// their text, so a backup of it holds nothing the files do not.
type Exported struct {
	Version     int                  `json:"version"`
	Collections []ExportedCollection `json:"collections"`
}

// ExportedCollection is one collection in an export.
type ExportedCollection struct {
	Name   string         `json:"name"`
	Root   string         `json:"root"`
	Single bool           `json:"single,omitempty"`
	Files  []ExportedFile `json:"files"`
}

// ExportedFile is one file of a collection in an export.
type ExportedFile struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Hash  string `json:"sha256,omitempty"`
	State string `json:"state"`
}

// Export writes every collection as references (Exported) to w.
func (s *Store) Export(ctx context.Context, w io.Writer) error {
	cs, err := s.List(ctx)
	if err != nil {
		return err
	}
	out := Exported{Version: ExportVersion, Collections: []ExportedCollection{}}
	for _, c := range cs {
		ec := ExportedCollection{Name: c.Name, Root: c.Root, Single: c.Single, Files: []ExportedFile{}}
		rows, err := s.db.QueryContext(ctx, `SELECT path, size, hash, state FROM kb_files WHERE collection_id = ? ORDER BY path`, c.ID)
		if err != nil {
			return fmt.Errorf("export the knowledge base: %w", err)
		}
		for rows.Next() {
			var f ExportedFile
			if err := rows.Scan(&f.Path, &f.Size, &f.Hash, &f.State); err != nil {
				rows.Close()
				return fmt.Errorf("export the knowledge base: %w", err)
			}
			ec.Files = append(ec.Files, f)
		}
		rows.Close()
		out.Collections = append(out.Collections, ec)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ErrBadExport is an import that is not an export of the knowledge base.
var ErrBadExport = errors.New("not a knowledge-base export")

// Skipped is a collection Import did not add, and why.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Import adds the collections of an export whose folders are on this computer
// (their files are then read again, as Add does); a name or folder already
// added, or a folder that is not there, is skipped with the reason.
func (s *Store) Import(ctx context.Context, r io.Reader) ([]Collection, []Skipped, error) {
	var in Exported
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&in); err != nil || in.Version != ExportVersion {
		return nil, nil, fmt.Errorf("%w (want {\"version\":%d,\"collections\":[…]})", ErrBadExport, ExportVersion)
	}
	var added []Collection
	var skipped []Skipped
	for _, ec := range in.Collections {
		c, err := s.Add(ctx, ec.Root, ec.Name)
		if errors.Is(err, ErrExists) || errors.Is(err, ErrNoFolder) {
			skipped = append(skipped, Skipped{Name: ec.Name, Reason: err.Error()})
			continue
		}
		if err != nil {
			return added, skipped, err
		}
		added = append(added, c)
	}
	return added, skipped, nil
}
