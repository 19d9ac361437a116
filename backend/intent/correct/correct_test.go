package correct

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestStore: a later correction of the same text (case and spacing aside)
// replaces the earlier one; Lookup follows the file as it changes; a damaged
// file is ErrInvalid and Clear still empties it.
func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	s := NewStore(path)
	if list, err := s.List(); err != nil || len(list) != 0 {
		t.Fatalf("empty store = %v, %v", list, err)
	}
	for _, c := range []Correction{{"Note: passport expires 2028", "remember"}, {"ping the NAS", "task"}, {"note:  PASSPORT expires 2028", "task"}} {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List()
	if err != nil || len(list) != 2 || list[1].Label != "task" || list[1].Text != "note:  PASSPORT expires 2028" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if l, ok := s.Lookup("NOTE: passport   expires 2028"); !ok || l != "task" {
		t.Fatalf("lookup = %q %v", l, ok)
	}
	if err := os.WriteFile(path, []byte("{\"text\": \"x\", \"label\": \"nonsense\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Lookup("ping the NAS"); ok {
		t.Error("lookup used a stale copy of a changed file")
	}
	if _, err := s.List(); !errors.Is(err, ErrInvalid) {
		t.Errorf("damaged file: %v", err)
	}
	if n, err := s.Clear(); err != nil || n != 0 {
		t.Errorf("clear = %d, %v", n, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
}
