package kb

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Settle is how long a folder is quiet before its changes are read: an editor
// that saves through a temporary file, or a copy of many files, is one change.
const Settle = 300 * time.Millisecond

// Watch follows every collection's folder until ctx ends: when a file is
// saved, added, renamed or deleted, the collection is scanned again (only the
// files whose size or time changed are read; a file's content hash tells
// whether its text did) and indexed. Collections added meanwhile are followed
// from then on (Add tells the watcher).
func (s *Store) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	wt := &watcher{s: s, w: w, due: map[int64]*time.Timer{}, roots: map[int64]string{}}
	if err := wt.followAll(ctx); err != nil {
		return err
	}
	// Known from now on (Add follows a new collection itself); a collection
	// added while the first list was walked is followed by the second.
	s.setWatcher(wt)
	defer s.setWatcher(nil)
	if err := wt.followAll(ctx); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			wt.stop()
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			wt.event(ctx, ev)
		case <-w.Errors:
			// An overflow or a folder that went away: the next event rescans.
		}
	}
}

// watcher is a running Watch.
type watcher struct {
	s     *Store
	w     *fsnotify.Watcher
	mu    sync.Mutex
	due   map[int64]*time.Timer // a collection's pending rescan
	roots map[int64]string      // what each collection follows: its folder, or its file
	// OnSynced (tests) hears that a collection was rescanned and indexed.
	onSynced func(id int64)
}

func (s *Store) setWatcher(w *watcher) { s.watch.Store(w) }

func (s *Store) watcher() *watcher { return s.watch.Load() }

func (wt *watcher) followAll(ctx context.Context) error {
	cs, err := wt.s.List(ctx)
	if err != nil {
		return err
	}
	for _, c := range cs {
		wt.follow(c)
	}
	return nil
}

// follow watches a collection's folder and every folder under it (hidden ones
// aside), or the folder of a single file.
func (wt *watcher) follow(c Collection) {
	wt.mu.Lock()
	wt.roots[c.ID] = c.Root
	wt.mu.Unlock()
	if c.Single {
		_ = wt.w.Add(filepath.Dir(c.Root))
		return
	}
	_ = filepath.WalkDir(c.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != c.Root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		_ = wt.w.Add(p)
		return nil
	})
}

// event schedules a rescan of the collection the path belongs to.
func (wt *watcher) event(ctx context.Context, ev fsnotify.Event) {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	for id, root := range wt.roots {
		if ev.Name != root && !strings.HasPrefix(ev.Name, root+string(filepath.Separator)) {
			continue
		}
		if t := wt.due[id]; t != nil {
			t.Reset(Settle)
			continue
		}
		wt.due[id] = time.AfterFunc(Settle, func() { wt.sync(ctx, id) })
	}
}

// sync rescans and indexes one collection, and follows new folders in it.
func (wt *watcher) sync(ctx context.Context, id int64) {
	wt.mu.Lock()
	delete(wt.due, id)
	wt.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	res, err := wt.s.Scan(ctx, id)
	if err != nil {
		return // the collection was removed meanwhile
	}
	if c, err := wt.s.Get(ctx, itoa(id)); err == nil {
		if res.Changed > 0 {
			wt.follow(c) // a new folder is followed too
		}
		_, _ = wt.s.Index(ctx, c.Name, nil)
		wt.s.changed(c.Name)
	}
	wt.mu.Lock()
	f := wt.onSynced
	wt.mu.Unlock()
	if f != nil {
		f(id)
	}
}

func (wt *watcher) stop() {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	for _, t := range wt.due {
		t.Stop()
	}
}

// forget stops following a removed collection.
func (wt *watcher) forget(id int64) {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	if root, ok := wt.roots[id]; ok {
		_ = wt.w.Remove(root)
		delete(wt.roots, id)
	}
	if t := wt.due[id]; t != nil {
		t.Stop()
		delete(wt.due, id)
	}
}
