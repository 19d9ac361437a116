package app

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"hermes/backend/embed"
	"hermes/backend/kb"
	"hermes/backend/kb/kbtool"
	"hermes/backend/store"
)

// The knowledge base's types, as the window, web mode and the CLI see them.
type (
	KBCollection = kb.Collection
	KBFile       = kb.File
	KBHit        = kb.Hit
	KBProgress   = kb.Progress
	KBReceipt    = kb.Receipt
	KBSkipped    = kb.Skipped
)

// Knowledge is the knowledge base service: collections of the user's folders,
// their indexing and search. Built once by Open; its store opens on first use.
type Knowledge struct {
	c    *Core
	once sync.Once
	s    *kb.Store

	mu       sync.Mutex
	run      context.Context // set by Run: a window or web mode keeps it current
	watching bool
	passes   map[int]context.CancelFunc // the indexing passes under way in the background
	passN    int
	userOff  atomic.Bool // the user switched knowledge_search off
}

func (k *Knowledge) store() *kb.Store {
	k.once.Do(func() {
		c := k.c
		e := c.embedder()
		weight := 0.8 // a model's meaning beside the words
		if e.Name() == embed.HashedName {
			weight = 0
		}
		k.s = kb.New(c.db, kb.Config{
			Reader:       c.docs,
			Embedder:     e,
			VectorWeight: weight,
			OnProgress:   func(p kb.Progress) { send(c.emitEvent, evKBProgress, p) },
			OnChange: func(name string) {
				send(c.emitEvent, evKBChanged, name)
				k.activate(context.Background())
			},
		})
	})
	return k.s
}

// Add makes a collection of a folder (or one file); Index reads its files.
// In a window or web mode the files are indexed in the background at once.
func (k *Knowledge) Add(ctx context.Context, root, name string) (KBCollection, error) {
	c, err := k.store().Add(ctx, root, name)
	if err == nil {
		k.resume() // adding a folder asks for it to be read, after a Cancel too
	}
	return c, err
}

// List is every collection with its counts.
func (k *Knowledge) List(ctx context.Context) ([]KBCollection, error) { return k.store().List(ctx) }

// Get is one collection by name.
func (k *Knowledge) Get(ctx context.Context, name string) (KBCollection, error) {
	return k.store().Get(ctx, name)
}

// Files is a collection's files with their state and, when one failed, why.
func (k *Knowledge) Files(ctx context.Context, name string) ([]KBFile, error) {
	return k.store().Files(ctx, name)
}

// Index reads the waiting files of a collection ("" all) until none is left;
// each (may be nil) hears the progress after every file.
func (k *Knowledge) Index(ctx context.Context, name string, each func(KBProgress)) (KBProgress, error) {
	return k.store().Index(ctx, name, each)
}

// Rescan looks at a collection's folder again: new, changed and gone files.
func (k *Knowledge) Rescan(ctx context.Context, name string) (kb.ScanResult, error) {
	s := k.store()
	c, err := s.Get(ctx, name)
	if err != nil {
		return kb.ScanResult{}, err
	}
	return s.Scan(ctx, c.ID)
}

// Reindex reads every file of a collection again.
func (k *Knowledge) Reindex(ctx context.Context, name string) (KBCollection, error) {
	return k.store().Reindex(ctx, name)
}

// Remove erases a collection from the index (the files stay on disk).
func (k *Knowledge) Remove(ctx context.Context, name string) (KBReceipt, error) {
	return k.store().Remove(ctx, name)
}

// Search finds the passages that answer query in the named collections (none:
// every collection).
func (k *Knowledge) Search(ctx context.Context, query string, collections []string, n int) ([]KBHit, error) {
	s := k.store()
	var ids []int64
	for _, name := range collections {
		c, err := s.Get(ctx, name)
		if err != nil {
			return nil, err
		}
		ids = append(ids, c.ID)
	}
	return s.Search(ctx, kb.Query{Text: query, Collections: ids, K: n})
}

// RelevantIn is Search over collections by id (nil: every one) less the
// passages that do not pass the relevance rule: what the model is offered
// (none rather than a guess).
func (k *Knowledge) RelevantIn(ctx context.Context, query string, ids []int64, n int) ([]KBHit, error) {
	hits, err := k.store().Search(ctx, kb.Query{Text: query, Collections: ids, K: n})
	return k.relevant(hits), err
}

func (k *Knowledge) relevant(hits []KBHit) []KBHit {
	out := hits[:0]
	for _, h := range hits {
		if k.store().Relevant(h) {
			out = append(out, h)
		}
	}
	return out
}

// activate offers knowledge_search only while a collection exists and the
// user has not switched it off.
func (k *Knowledge) activate(ctx context.Context) {
	_ = k.c.tools.reg.Activate(kbtool.Name, !k.userOff.Load() && knowledgeExists(ctx, k.c.db))
}

// userSwitch is the user's on/off switch of knowledge_search (kept while
// Hermes runs).
func (k *Knowledge) userSwitch(_ string, on bool) error {
	k.userOff.Store(!on)
	k.activate(context.Background())
	return nil
}

// knowledgeExists is whether the data dir has a collection (one query: the
// knowledge base itself opens on first use).
func knowledgeExists(ctx context.Context, db *store.DB) bool {
	var n int
	return db.QueryRowContext(ctx, `SELECT COUNT(*) FROM kb_collections`).Scan(&n) == nil && n > 0
}

// Run keeps the knowledge base current while a window or web mode is open:
// it finishes indexing a quit or crash left, then follows the folders (kb.Watch)
// until ctx ends. With no collection yet it waits for the first Add.
func (k *Knowledge) Run(ctx context.Context) {
	k.mu.Lock()
	k.run = ctx
	k.mu.Unlock()
	if knowledgeExists(ctx, k.c.db) {
		k.start()
	}
}

// start begins the watcher and an indexing pass, once per Run.
func (k *Knowledge) start() {
	k.mu.Lock()
	ctx, started := k.run, k.watching
	k.watching = k.watching || ctx != nil
	k.mu.Unlock()
	if ctx == nil {
		return
	}
	if !started {
		go func() { _ = k.store().Watch(ctx) }()
	}
	k.kick(ctx)
}

// kick indexes the waiting files in the background (a pass already running
// picks them up: Index takes them in turns).
func (k *Knowledge) kick(ctx context.Context) {
	pass, stop := context.WithCancel(ctx)
	k.mu.Lock()
	k.passN++
	n := k.passN
	if k.passes == nil {
		k.passes = map[int]context.CancelFunc{}
	}
	k.passes[n] = stop
	k.mu.Unlock()
	k.c.bg.Add(1)
	go func() {
		defer k.c.bg.Done()
		defer func() {
			stop()
			k.mu.Lock()
			delete(k.passes, n)
			k.mu.Unlock()
		}()
		if _, err := k.store().Index(pass, "", nil); err == nil {
			_, _ = k.store().Reembed(pass) // passages of an earlier embedding model
		}
	}()
}

// cancel pauses indexing: the passes under way stop (the watcher's too) and
// the files not read yet wait until resume.
func (k *Knowledge) cancel() {
	k.store().Pause()
	k.mu.Lock()
	for _, stop := range k.passes {
		stop()
	}
	k.mu.Unlock()
}

// resume lets indexing run again and reads the waiting files.
func (k *Knowledge) resume() {
	k.store().Resume()
	k.start()
}

// Passage is a cited passage in its page or file.
func (k *Knowledge) Passage(ctx context.Context, chunk int64) (KBPassage, error) {
	return k.store().PassageOf(ctx, chunk)
}

// ids is how a chat stores the collections it may cite: "" for every one
// (names nil), else their ids as JSON ("[]" for none). A name that is not a
// collection is an error.
func (k *Knowledge) ids(ctx context.Context, names []string) (string, error) {
	if names == nil {
		return "", nil
	}
	ids := []int64{}
	for _, n := range names {
		c, err := k.store().Get(ctx, n)
		if err != nil {
			return "", err
		}
		ids = append(ids, c.ID)
	}
	b, err := json.Marshal(ids)
	return string(b), err
}

// names are the collections a chat's stored list names (nil: every one);
// collections removed since are left out.
func (k *Knowledge) names(ctx context.Context, stored string) []string {
	ids, all := parseIDs(stored)
	if all {
		return nil
	}
	out := []string{}
	for _, id := range ids {
		if c, err := k.store().Get(ctx, strconv.FormatInt(id, 10)); err == nil {
			out = append(out, c.Name)
		}
	}
	return out
}

// parseIDs reads a chat's stored list: all when it limits nothing.
func parseIDs(stored string) (ids []int64, all bool) {
	if stored == "" || json.Unmarshal([]byte(stored), &ids) != nil {
		return nil, true
	}
	return ids, false
}

// CollectionID is the id of the collection named name.
func (k *Knowledge) CollectionID(ctx context.Context, name string) (int64, error) {
	c, err := k.store().Get(ctx, name)
	return c.ID, err
}

// Export writes every collection as references to the user's files (paths,
// sizes, hashes), never their text.
func (k *Knowledge) Export(ctx context.Context, w io.Writer) error { return k.store().Export(ctx, w) }

// Import adds the collections of an export whose folders are on this computer.
func (k *Knowledge) Import(ctx context.Context, r io.Reader) ([]KBCollection, []KBSkipped, error) {
	added, skipped, err := k.store().Import(ctx, r)
	if len(added) > 0 {
		k.resume()
	}
	return added, skipped, err
}
