package correct

import (
	"bytes"
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

// TestForget: the corrections of the texts given go (case and spacing aside),
// the others stay in order, no temporary file is left, the last one removes
// the file, and a damaged file is refused unchanged.
func TestForget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	s := NewStore(path)
	for _, c := range []Correction{{"zqx canary one", "remember"}, {"ping the NAS", "task"}, {"what if I moved", "hypothetical"}} {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Forget([]string{"ZQX  canary one", "never corrected"}); err != nil || n != 1 {
		t.Fatalf("Forget = %d, %v", n, err)
	}
	list, err := s.List()
	if err != nil || len(list) != 2 || list[0].Text != "ping the NAS" || list[1].Text != "what if I moved" {
		t.Fatalf("left %+v, %v", list, err)
	}
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("canary")) {
		t.Fatalf("the file still holds the text: %s", b)
	}
	if n, err := s.Forget([]string{"nothing like it"}); err != nil || n != 0 {
		t.Fatalf("Forget of no correction = %d, %v", n, err)
	}
	if n, err := s.Forget([]string{"ping the nas", "What if I moved"}); err != nil || n != 2 {
		t.Fatalf("Forget of the rest = %d, %v", n, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("an empty corrections file is still there: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files left in the folder: %v", entries)
	}
	damaged := []byte("{\"text\": \"zqx\", \"label\": \"nonsense\"}\n")
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Forget([]string{"zqx"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("damaged file: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, damaged) {
		t.Errorf("a refused Forget changed the file: %s", b)
	}
}
