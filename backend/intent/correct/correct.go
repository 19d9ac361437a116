// Package correct keeps the user's corrections of the intent chip (only each
// text and the label the user chose, in a JSON Lines file of the data dir) and
// retrains the intent model on this computer with them.
package correct

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hermes/backend/intent/dataset"
)

// File, in the data dir, keeps the corrections: one {"text","label"} a line.
const File = "intent-corrections.jsonl"

// ErrInvalid is a corrections file that cannot be read.
var ErrInvalid = errors.New("invalid intent corrections")

// Correction is one corrected message: its text and the label the user chose.
type Correction struct {
	Text  string `json:"text"`
	Label string `json:"label"`
}

// Key is what makes two texts the same correction (case and spacing aside).
func Key(text string) string {
	return strings.Join(strings.Fields(strings.ToLower(text)), " ")
}

// Store reads and writes a corrections file. Safe for concurrent use.
type Store struct {
	path string

	mu    sync.Mutex
	stamp time.Time // modification time of what byKey holds
	size  int64
	byKey map[string]string // Key(text) -> label
}

// NewStore keeps the corrections in the file at path.
func NewStore(path string) *Store { return &Store{path: path} }

// List reads every correction, in the order they were made.
func (s *Store) List() ([]Correction, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return []Correction{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read intent corrections: %w", err)
	}
	out := []Correction{}
	for n, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c Correction
		if err := json.Unmarshal(line, &c); err != nil || strings.TrimSpace(c.Text) == "" || !slices.Contains(dataset.Labels, c.Label) {
			return nil, fmt.Errorf("read intent corrections: %s line %d: want {\"text\": \"...\", \"label\": one of %s}: %w",
				s.path, n+1, strings.Join(dataset.Labels, ", "), ErrInvalid)
		}
		out = append(out, c)
	}
	return out, nil
}

// Add stores a correction; a later correction of the same text replaces the earlier one.
func (s *Store) Add(c Correction) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.List()
	if err != nil {
		return err
	}
	k := Key(c.Text)
	list = slices.DeleteFunc(list, func(o Correction) bool { return Key(o.Text) == k })
	return s.write(append(list, c))
}

// Clear removes every correction and says how many there were.
func (s *Store) Clear() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.List()
	if err != nil && !errors.Is(err, ErrInvalid) {
		return 0, err
	}
	return len(list), s.write(nil)
}

// Forget removes the corrections of these texts (compared by Key) and says how
// many there were; the file is rewritten atomically, or removed when none is
// left. A file that cannot be read is ErrInvalid and stays as it is.
func (s *Store) Forget(texts []string) (int, error) {
	if len(texts) == 0 {
		return 0, nil
	}
	gone := make(map[string]bool, len(texts))
	for _, t := range texts {
		gone[Key(t)] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.List()
	if err != nil {
		return 0, fmt.Errorf("forget intent corrections: %w", err)
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(c Correction) bool { return gone[Key(c.Text)] })
	if len(kept) == len(list) {
		return 0, nil
	}
	return len(list) - len(kept), s.write(kept)
}

// Lookup returns the label the user gave this text, if any; the file is read
// again only when it changed.
func (s *Store) Lookup(text string) (string, bool) {
	if s == nil || s.path == "" {
		return "", false
	}
	st, err := os.Stat(s.path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.byKey, s.stamp, s.size = nil, time.Time{}, 0
		return "", false
	}
	if s.byKey == nil || !st.ModTime().Equal(s.stamp) || st.Size() != s.size {
		list, err := s.List()
		if err != nil {
			return "", false
		}
		s.byKey = make(map[string]string, len(list))
		for _, c := range list {
			s.byKey[Key(c.Text)] = c.Label
		}
		s.stamp, s.size = st.ModTime(), st.Size()
	}
	label, ok := s.byKey[Key(text)]
	return label, ok
}

// write replaces the file with list (atomically: a synced temporary file
// renamed over it, then the folder synced); an empty list removes it.
func (s *Store) write(list []Correction) error {
	if len(list) == 0 {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("clear intent corrections: %w", err)
		}
		return syncDir(filepath.Dir(s.path))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, c := range list {
		enc.Encode(c)
	}
	if err := replaceFile(s.path, buf.Bytes()); err != nil {
		return fmt.Errorf("save intent corrections: %w", err)
	}
	return nil
}

// replaceFile writes b to a temporary file beside path, syncs it, renames it
// over path and syncs the folder, so path holds either the old or the new
// bytes after a crash.
func replaceFile(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes a rename or removal in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
