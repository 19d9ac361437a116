package kb

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cage"
	"hermes/backend/chunk"
	"hermes/backend/embed"
	"hermes/backend/store"
	"hermes/backend/store/storetest"
)

func TestMain(m *testing.M) {
	cage.RunIfChild() // the cage's child, for the PDF and office readers
	os.Exit(m.Run())
}

type env struct {
	s    *Store
	db   *store.DB
	dir  string // the data dir
	docs string // the folder added
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := New(db, Config{Reader: cage.Reader{Exe: exe}, Embedder: embed.NewHashed(0)})
	return &env{s: s, db: db, dir: dir, docs: t.TempDir()}
}

func (e *env) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(e.docs, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) add(t *testing.T, name string) Collection {
	t.Helper()
	ctx := context.Background()
	c, err := e.s.Add(ctx, e.docs, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Index(ctx, c.Name, nil); err != nil {
		t.Fatal(err)
	}
	c, err = e.s.Get(ctx, c.Name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (e *env) top(t *testing.T, q string) Hit {
	t.Helper()
	hits, err := e.s.Search(context.Background(), Query{Text: q, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		t.Fatalf("search %q: nothing found", q)
	}
	return hits[0]
}

const manual = `# Pump manual

## Priming

Open the bleed valve and fill the housing with clean water before the first start.

## Faults

If the pump hums but does not turn, the capacitor has failed; replace it with a 40 µF one.
`

// A folder becomes a collection: readable files are indexed (hidden ones and
// kinds Hermes does not read are left out), and a question finds the passage
// with its file, heading path and offsets into the text.
func TestAddIndexSearch(t *testing.T) {
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.write(t, "notes/水泵.txt", "水泵启动前必须先打开排气阀并向泵壳内注满清水。")
	e.write(t, ".hidden/secret.md", "never indexed")
	e.write(t, "photo.raw", "\x00\x01binary")
	c := e.add(t, "")
	if c.Name != filepath.Base(e.docs) || c.Files != 2 || c.Indexed != 2 || c.Failed != 0 || c.Chunks < 2 {
		t.Fatalf("collection %+v: want 2 files indexed", c)
	}
	h := e.top(t, "what to do when the pump hums but does not turn?")
	if h.File != "pump.md" || !strings.Contains(h.Text, "capacitor") || h.Heading != "Pump manual › Faults" {
		t.Fatalf("top hit %+v: want the Faults section of pump.md", h)
	}
	text := []rune(manual)
	if string(text[h.Start:h.End]) != h.Text {
		t.Fatalf("offsets %d..%d do not give the chunk's text", h.Start, h.End)
	}
	if h.Path != filepath.Join(e.docs, "pump.md") || !h.Words {
		t.Fatalf("hit %+v: want the file's path and a word match", h)
	}
	if zh := e.top(t, "启动水泵之前要做什么"); zh.File != "notes/水泵.txt" {
		t.Fatalf("Chinese question found %q", zh.File)
	}
}

// A file that cannot be read is listed with the reason; the rest is indexed.
func TestUnreadableFileIsListed(t *testing.T) {
	e := newEnv(t)
	e.write(t, "good.md", manual)
	e.write(t, "empty.md", "   \n")
	e.write(t, "broken.pdf", "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF")
	c := e.add(t, "mixed")
	if c.Indexed != 1 || c.Failed != 2 {
		t.Fatalf("collection %+v: want 1 indexed, 2 failed", c)
	}
	files, err := e.s.Files(context.Background(), "mixed")
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, f := range files {
		reasons[f.Path] = f.Reason
		if f.State == "failed" && f.Detail == "" {
			t.Errorf("%s failed without a message", f.Path)
		}
	}
	if reasons["empty.md"] != "empty" || reasons["broken.pdf"] == "" || reasons["good.md"] != "" {
		t.Fatalf("reasons %v", reasons)
	}
}

// A saved file is read again alone (its content hash changed); a deleted one
// leaves the index; an unchanged one is not read again.
func TestRescanFollowsTheFolder(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.write(t, "other.md", "# Other\n\nNothing about pumps here, only gardening and roses.")
	c := e.add(t, "docs")
	e.write(t, "pump.md", strings.Replace(manual, "capacitor", "zephyrine starter", 1))
	os.Remove(filepath.Join(e.docs, "other.md"))
	res, err := e.s.Scan(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed != 1 || res.Removed != 1 {
		t.Fatalf("scan %+v: want 1 changed, 1 removed", res)
	}
	p, err := e.s.Index(ctx, "docs", nil)
	if err != nil || p.Done != 1 {
		t.Fatalf("index %+v %v: want the one changed file read", p, err)
	}
	if h := e.top(t, "zephyrine"); !strings.Contains(h.Text, "zephyrine starter") {
		t.Fatalf("the new text is not found: %+v", h)
	}
	if hits, _ := e.s.Search(ctx, Query{Text: "gardening roses"}); len(hits) > 0 && hits[0].File == "other.md" {
		t.Fatalf("a deleted file is still found")
	}
}

// Removing a collection erases its passages from every file of the data dir.
func TestRemoveLeavesNoCanary(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.write(t, "a.md", "# Canary\n\nThe word qzxcanaryword is written here and nowhere else.")
	e.write(t, "b.md", manual)
	e.add(t, "c1")
	if h := e.top(t, "qzxcanaryword"); h.File != "a.md" {
		t.Fatalf("canary not indexed: %+v", h)
	}
	r, err := e.s.Remove(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Files != 2 || r.Chunks < 2 || !r.Scrubbed {
		t.Fatalf("receipt %+v", r)
	}
	if where := storetest.DirHolds(t, e.dir, "qzxcanaryword"); len(where) > 0 {
		t.Fatalf("the canary is still in %v", where)
	}
	if _, err := e.s.Get(ctx, "c1"); err == nil {
		t.Fatal("the collection is still listed")
	}
}

// Indexing cut short (a quit, a crash) leaves the rest waiting; the next pass
// finishes it and every file is indexed once.
func TestIndexResumes(t *testing.T) {
	e := newEnv(t)
	files := batchFiles + 16 // more than one transaction
	for i := range files {
		e.write(t, filepath.Join("d", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".md"), manual)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := e.s.Add(ctx, e.docs, "big")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	_, err = e.s.Index(ctx, c.Name, func(Progress) {
		if n++; n == 5 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("a cancelled pass said it finished")
	}
	mid, _ := e.s.Get(context.Background(), "big")
	if mid.Pending == 0 || mid.Indexed == 0 {
		t.Fatalf("after the cut: %+v", mid)
	}
	if _, err := e.s.Index(context.Background(), "big", nil); err != nil {
		t.Fatal(err)
	}
	end, _ := e.s.Get(context.Background(), "big")
	if end.Indexed != files || end.Pending != 0 {
		t.Fatalf("after resuming: %+v", end)
	}
	var chunks int
	e.db.QueryRow(`SELECT COUNT(*) FROM kb_chunks k JOIN kb_files f ON f.id = k.file_id WHERE f.collection_id = ?`, c.ID).Scan(&chunks)
	if chunks != end.Chunks || chunks != files*len(chunk.Split(manual, nil, true)) {
		t.Fatalf("%d chunk rows, %d counted: a file indexed twice?", chunks, end.Chunks)
	}
}

// Pause stops indexing and keeps the files waiting; Resume reads them.
func TestPauseKeepsFilesWaiting(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.write(t, "a.md", manual)
	c, err := e.s.Add(ctx, e.docs, "paused")
	if err != nil {
		t.Fatal(err)
	}
	e.s.Pause()
	p, err := e.s.Index(ctx, c.Name, nil)
	if !errors.Is(err, ErrPaused) || !p.Stopped {
		t.Fatalf("a paused pass: %+v %v", p, err)
	}
	if got, _ := e.s.Get(ctx, c.Name); got.Pending != 1 {
		t.Fatalf("after the pause: %+v", got)
	}
	e.s.Resume()
	if p, err = e.s.Index(ctx, c.Name, nil); err != nil || !p.Finished || p.Done != 1 {
		t.Fatalf("after resume: %+v %v", p, err)
	}
}

// renamed is the offline embedder under another name: another model.
type renamed struct{ *embed.Hashed }

func (renamed) Name() string { return "ollama:other-model" }

// After the embedding model changes, Reembed gives every passage a vector of
// the new one; search works before, during and after.
func TestReembedAfterModelChange(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.add(t, "docs")
	exe, _ := os.Executable()
	other := New(e.db, Config{Reader: cage.Reader{Exe: exe}, Embedder: renamed{embed.NewHashed(0)}, VectorWeight: 0.8})
	if hits, err := other.Search(ctx, Query{Text: "capacitor"}); err != nil || len(hits) == 0 {
		t.Fatalf("search before re-embedding: %v %v", hits, err)
	}
	n, err := other.Reembed(ctx)
	if err != nil || n < 2 {
		t.Fatalf("re-embedded %d: %v", n, err)
	}
	var left int
	e.db.QueryRow(`SELECT COUNT(*) FROM kb_chunks WHERE embedder <> 'ollama:other-model'`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d passages keep the old vectors", left)
	}
	hits, err := other.Search(ctx, Query{Text: "what to do when it hums but does not turn"})
	if err != nil || len(hits) == 0 || !hits[0].Meaning {
		t.Fatalf("search after: %+v %v", hits, err)
	}
}

// After a recovery (which copies the passages, not their index) the index is
// written again from them.
func TestRebuildIndex(t *testing.T) {
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.add(t, "docs")
	if _, err := e.db.Exec(`DELETE FROM kb_fts`); err != nil {
		t.Fatal(err)
	}
	if hits, _ := e.s.Search(context.Background(), Query{Text: "capacitor"}); len(hits) != 0 && hits[0].Words {
		t.Fatal("found by words without an index")
	}
	if err := RebuildIndex(context.Background(), e.db); err != nil {
		t.Fatal(err)
	}
	if h := e.top(t, "capacitor"); !h.Words || h.File != "pump.md" {
		t.Fatalf("after the rebuild: %+v", h)
	}
}

// An export holds references (paths, sizes, hashes), never the text; an
// import adds the collections whose folders are here and skips the rest.
func TestExportImportReferences(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.write(t, "pump.md", manual)
	e.add(t, "docs")
	var b strings.Builder
	if err := e.s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "capacitor") || !strings.Contains(b.String(), `"path": "pump.md"`) || !strings.Contains(b.String(), `"sha256"`) {
		t.Fatalf("export:\n%s", b.String())
	}
	other := newEnv(t)
	var ex Exported
	json.Unmarshal([]byte(b.String()), &ex)
	ex.Collections = append(ex.Collections, ExportedCollection{Name: "gone", Root: "/nonexistent/folder"})
	gone, _ := json.Marshal(ex)
	added, skipped, err := other.s.Import(ctx, strings.NewReader(string(gone)))
	if err != nil || len(added) != 1 || len(skipped) != 1 || skipped[0].Name != "gone" {
		t.Fatalf("import: %+v %+v %v", added, skipped, err)
	}
	if _, _, err := other.s.Import(ctx, strings.NewReader(`{"version":7}`)); !errors.Is(err, ErrBadExport) {
		t.Fatalf("a bad export: %v", err)
	}
}
