package kb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A running watcher reads a saved file again alone and drops a deleted one,
// within seconds, and follows a collection added after it started.
func TestWatchFollowsSavesAndDeletes(t *testing.T) {
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.write(t, "sub/notes.md", "# Notes\n\nThe spare impeller is in the blue box.")
	e.add(t, "docs")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	synced := make(chan int64, 16)
	done := make(chan error, 1)
	go func() { done <- e.s.Watch(ctx) }()
	waitWatcher(t, e.s, synced)

	e.write(t, "sub/notes.md", "# Notes\n\nThe spare impeller is in the green crate by the door.")
	waitSynced(t, synced)
	if h := e.top(t, "where is the spare impeller"); !strings.Contains(h.Text, "green crate") {
		t.Fatalf("the saved text is not found: %q", h.Text)
	}
	os.Remove(filepath.Join(e.docs, "pump.md"))
	waitSynced(t, synced)
	if c, _ := e.s.Get(ctx, "docs"); c.Files != 1 {
		t.Fatalf("after the delete the collection has %d files", c.Files)
	}
	other := t.TempDir()
	if _, err := e.s.Add(ctx, other, "later"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(other, "a.txt"), []byte("The generator runs on diesel fuel only."), 0o644)
	waitSynced(t, synced)
	if h := e.top(t, "what fuel does the generator use"); h.Collection != "later" {
		t.Fatalf("a file in a collection added later is not found: %+v", h)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func waitWatcher(t *testing.T, s *Store, synced chan int64) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if w := s.watcher(); w != nil {
			w.mu.Lock()
			w.onSynced = func(id int64) { synced <- id }
			w.mu.Unlock()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the watcher did not start")
}

func waitSynced(t *testing.T, synced chan int64) {
	t.Helper()
	select {
	case <-synced:
	case <-time.After(5 * time.Second):
		t.Fatal("no rescan within 5 s of the change")
	}
}
