package memory

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"hermes/backend/jsonl"
	"hermes/backend/store"
	"hermes/backend/text"
	"hermes/backend/vector"
)

// ExportFormat names the export file format; ExportVersion is its version.
// Version 2 is JSON Lines: a header line, then one memory a line, in the shape
// `memory import` reads (PortableMemory). Version 1 was one JSON document; it is
// still read.
const (
	ExportFormat  = "hermes-memory"
	ExportVersion = 2
)

// Export is the version 1 export document (still imported).
type Export struct {
	Format     string           `json:"format"`
	Version    int              `json:"version"`
	ExportedAt time.Time        `json:"exported_at"`
	Profile    string           `json:"profile,omitempty"` // "" when every profile is exported
	Memories   []ExportedMemory `json:"memories"`
}

// ExportedMemory is a memory with its edit history (version 1).
type ExportedMemory struct {
	Memory
	History []Revision `json:"history"`
}

// ExportHeader is the first line of an export.
type ExportHeader struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt time.Time `json:"exported_at"`
	Profile    string    `json:"profile,omitempty"` // "" when every profile is exported
}

// PortableMemory is one memory as it travels between installations: what the
// user said and its provenance, without what is local (internal ids, vectors,
// the decay clock, which restarts at import, links to the memory that replaced
// it). Its id is the memory's ref, or its id where it has none, and becomes the
// ref on import; so an export imported elsewhere exports the same again.
type PortableMemory struct {
	ID         string     `json:"id"`
	Profile    string     `json:"profile"`
	Layer      Layer      `json:"layer"`
	Status     Status     `json:"status"`
	Key        string     `json:"key,omitempty"`
	Value      string     `json:"value,omitempty"`
	Text       string     `json:"text"`
	Category   string     `json:"category"`
	Confidence float64    `json:"confidence"`
	AssertedBy Asserter   `json:"asserted_by"`
	Origin     Origin     `json:"origin"`
	Sensitive  bool       `json:"sensitive,omitempty"`
	Sources    []string   `json:"sources"` // the messages it was stated in, by ref where they have one
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ValidUntil time.Time  `json:"valid_until,omitzero"`
	History    []Revision `json:"history"`
}

// Export writes the memories of profile ("" for all) as JSON Lines: the header,
// then one PortableMemory a line, oldest first.
func (s *Store) Export(ctx context.Context, w io.Writer, profile string) error {
	where, args := "1", []any{}
	if profile != "" {
		where, args = "m.profile = ?", []any{profile}
	}
	ms, err := queryMemories(ctx, s.db, where+` ORDER BY m.rid`, args...)
	if err != nil {
		return fmt.Errorf("export memories: %w", err)
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(ExportHeader{Format: ExportFormat, Version: ExportVersion, ExportedAt: s.now(), Profile: profile}); err != nil {
		return fmt.Errorf("export memories: %w", err)
	}
	for _, m := range ms {
		if m.Layer == LayerWorking {
			continue // belongs to a live conversation here
		}
		d, err := s.Show(ctx, m.ID)
		if err != nil {
			return fmt.Errorf("export memories: %w", err)
		}
		id := m.Ref
		if id == "" {
			id = m.ID
		}
		pm := PortableMemory{ID: id, Profile: m.Profile, Layer: m.Layer, Status: m.Status, Key: m.Key, Value: m.Value, Text: m.Text,
			Category: m.Category, Confidence: m.Confidence, AssertedBy: m.AssertedBy, Origin: m.Origin, Sensitive: m.Sensitive,
			Sources: s.messageRefs(ctx, m.SourceMessageIDs), CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC(),
			ValidUntil: m.ValidUntil, History: d.History}
		if pm.History == nil {
			pm.History = []Revision{}
		}
		if err := enc.Encode(pm); err != nil {
			return fmt.Errorf("export memories: %w", err)
		}
	}
	return nil
}

// messageRefs names messages by their ref where they have one (an import
// kept it), else by id; one not found is kept as written.
func (s *Store) messageRefs(ctx context.Context, ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		var ref sql.NullString
		if err := s.db.QueryRowContext(ctx, `SELECT ref FROM messages WHERE id = ?`, id).Scan(&ref); err == nil && ref.String != "" {
			id = ref.String
		}
		out = append(out, id)
	}
	return out
}

func tooBigImport() error {
	return fmt.Errorf("import memories: %w: the file is larger than %d MiB, far more than any memory export; check that it is the right file, or split it",
		ErrInvalid, MaxImportBytes>>20)
}

// MaxImportBytes is the largest memory import read (an export of a hundred
// thousand memories is a few tens of MiB).
const MaxImportBytes = 256 << 20

// Import reads any of the formats Hermes writes or documents: an export
// (JSON Lines with a header), a version 1 export document, or plain JSON Lines
// {"id","text","created_at"?,"layer"?}.
func (s *Store) Import(ctx context.Context, r io.Reader, opt ImportOptions) (ImportResult, error) {
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok { // a file: refused before a byte is read
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > MaxImportBytes {
			return ImportResult{}, tooBigImport()
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxImportBytes+1))
	if err != nil {
		return ImportResult{}, fmt.Errorf("import memories: %w", err)
	}
	if len(data) > MaxImportBytes {
		return ImportResult{}, tooBigImport()
	}

	first := bytes.TrimSpace(data)
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	var head ExportHeader
	switch {
	case json.Unmarshal(first, &head) == nil && head.Format == ExportFormat:
		return s.importPortable(ctx, data, opt)
	case len(first) > 0 && first[0] == '{' && !json.Valid(first):
		// The first line alone is no JSON: a version 1 document.
		return s.ImportExport(ctx, bytes.NewReader(data), opt)
	}
	return s.ImportJSONL(ctx, bytes.NewReader(data), opt)
}

// importPortable imports an export written by Export.
func (s *Store) importPortable(ctx context.Context, data []byte, opt ImportOptions) (ImportResult, error) {
	var head ExportHeader
	seen := map[string]int{}
	var items []item
	lines, err := jsonl.Decode(bytes.NewReader(data), jsonl.Options{MaxLine: 4 << 20, Shape: "a memory of a Hermes export"},
		func(n int, pm PortableMemory) error {
			if n == 1 {
				return nil // the header, read below
			}
			switch {
			case strings.TrimSpace(pm.ID) == "" || strings.TrimSpace(pm.Text) == "":
				return errors.New(`"id" or "text" is missing`)
			case len(pm.Text) > MaxTextBytes:
				return fmt.Errorf(`"text" has %d bytes; the most is %d`, len(pm.Text), MaxTextBytes)
			case pm.Layer != LayerFact && pm.Layer != LayerProfile:
				return fmt.Errorf(`"layer" %q is not fact or profile`, pm.Layer)
			case pm.Status != StatusActive && pm.Status != StatusPending && pm.Status != StatusArchived && pm.Status != StatusSuperseded:
				return fmt.Errorf(`"status" %q is not active, pending, archived or superseded`, pm.Status)
			}
			if pm.Profile != "" {
				if err := validProfile(pm.Profile); err != nil {
					return err
				}
			}
			key := pm.Profile + "\x00" + pm.ID
			if first, dup := seen[key]; dup {
				return fmt.Errorf("id %q was already used on line %d", pm.ID, first)
			}
			seen[key] = n
			return nil
		})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import memories: nothing was imported: %w: %w", ErrInvalid, err)
	}
	first := data
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if err := json.Unmarshal(first, &head); err != nil || head.Version < 1 || head.Version > ExportVersion {
		return ImportResult{}, fmt.Errorf("import memories: %w: export version %d (this build reads up to %d)", ErrInvalid, head.Version, ExportVersion)
	}
	now := s.now()
	for i, pm := range lines[1:] {
		it := item{line: i + 2, ref: pm.ID, profile: pm.Profile, text: strings.TrimSpace(pm.Text), created: pm.CreatedAt, updated: pm.UpdatedAt,
			layer: pm.Layer, status: pm.Status, key: normKey(pm.Key), value: pm.Value, category: pm.Category, confidence: pm.Confidence,
			asserted: pm.AssertedBy, origin: pm.Origin, sources: pm.Sources, confirmed: now, validUntil: pm.ValidUntil, history: pm.History,
			sensitive: pm.Sensitive}
		items = append(items, it.withDefaults(now))
	}
	return s.importItems(ctx, items, opt)
}

// ImportMode says what an import does with a memory whose ref exists already.
type ImportMode string

const (
	ImportSkip    ImportMode = "skip"    // keep the existing memory (default)
	ImportMerge   ImportMode = "merge"   // take the imported text, keep the old one in history
	ImportReplace ImportMode = "replace" // overwrite the existing memory, history included
)

// ImportOptions tune an import.
type ImportOptions struct {
	Profile  string
	Mode     ImportMode
	Progress func(Progress)
}

// ImportResult counts what an import did.
type ImportResult struct {
	Added    int `json:"added"`
	Skipped  int `json:"skipped"`
	Merged   int `json:"merged"`
	Replaced int `json:"replaced"`
}

// LineError names the line of an import that is wrong.
type LineError = jsonl.LineError

// ImportLine is one line of `hermes memory import --jsonl` (docs/architecture.md, "Command-line contract").
type ImportLine struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at,omitempty"`
	Layer     string `json:"layer,omitempty"`
}

// item is one memory to import, from a JSONL line or an export.
type item struct {
	line       int
	ref        string
	profile    string    // "" takes the import's profile
	updated    time.Time // zero: the import's time
	text       string
	created    time.Time
	layer      Layer
	status     Status
	key, value string
	category   string
	confidence float64
	asserted   Asserter
	origin     Origin
	sources    []string
	confirmed  time.Time
	validUntil time.Time
	history    []Revision
	sensitive  bool
	follows    bool // answers the item before it (replies.go)
}

// withDefaults fills what an imported memory left out or got wrong: the
// category "other", asserted by the user, origin import, full confidence,
// created and confirmed now.
func (it item) withDefaults(now time.Time) item {
	if !validCategory(it.category) {
		it.category = "other"
	}
	if it.asserted != AssertedByModel && it.asserted != AssertedByTool {
		it.asserted = AssertedByUser
	}
	if it.origin == "" {
		it.origin = OriginImport
	}
	if it.confidence <= 0 || it.confidence > 1 {
		it.confidence = 1
	}
	if it.confirmed.IsZero() {
		it.confirmed = now
	}
	if it.created.IsZero() {
		it.created = now
	}
	return it
}

// ParseImportJSONL reads and validates every line before anything is written; a
// malformed line is reported with its number (all of them, up to 20).
func ParseImportJSONL(r io.Reader) ([]ImportLine, error) {
	seen := map[string]int{}
	lines, err := jsonl.Decode(r, jsonl.Options{MaxLine: 4 << 20, Shape: "a JSON object with id, text, created_at, layer"},
		func(n int, l ImportLine) error {
			if err := l.validate(); err != nil {
				return err
			}
			if first, dup := seen[l.ID]; dup {
				return fmt.Errorf("id %q was already used on line %d", l.ID, first)
			}
			seen[l.ID] = n
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("import memories: nothing was imported: %w: %w", ErrInvalid, err)
	}
	return lines, nil
}

func (l ImportLine) validate() error {
	switch {
	case strings.TrimSpace(l.ID) == "":
		return errors.New(`"id" is missing`)
	case len(l.ID) > 200:
		return errors.New(`"id" is longer than 200 bytes`)
	case strings.TrimSpace(l.Text) == "":
		return errors.New(`"text" is missing or empty`)
	case len(l.Text) > MaxTextBytes:
		return fmt.Errorf(`"text" has %d bytes; the most is %d`, len(l.Text), MaxTextBytes)
	}
	if l.CreatedAt != "" {
		if _, err := parseDay(l.CreatedAt); err != nil {
			return fmt.Errorf(`"created_at" %q is not an RFC 3339 time or a YYYY-MM-DD date`, l.CreatedAt)
		}
	}
	switch Layer(l.Layer) {
	case "", LayerFact, LayerProfile:
	case LayerWorking:
		return errors.New(`"layer" working belongs to a live session and cannot be imported (use fact or profile)`)
	default:
		return fmt.Errorf(`"layer" %q is not fact or profile`, l.Layer)
	}
	return nil
}

// ImportJSONL imports JSONL lines {"id","text","created_at"?,"layer"?}: each
// becomes an active fact (or profile memory) of the user, with "id" kept as its
// ref and created_at kept for provenance; its decay clock starts now. Every line
// is checked first: with one bad line nothing is imported.
func (s *Store) ImportJSONL(ctx context.Context, r io.Reader, opt ImportOptions) (ImportResult, error) {
	lines, err := ParseImportJSONL(r)
	if err != nil {
		return ImportResult{}, err
	}
	items := make([]item, len(lines))
	now := s.now()
	for i, l := range lines {
		it := item{ref: l.ID, text: strings.TrimSpace(l.Text), layer: Layer(l.Layer), status: StatusActive, category: "other",
			confidence: 1, asserted: AssertedByUser, origin: OriginImport, created: now, confirmed: now}
		if it.layer == "" {
			it.layer = LayerFact
		}
		if l.CreatedAt != "" {
			it.created, _ = parseDay(l.CreatedAt)
			if len(l.CreatedAt) == len("2006-01-02") {
				it.created = it.created.Truncate(24 * time.Hour)
			}
		}
		it.follows = i > 0 && follows(lines[i-1], l)
		items[i] = it
	}
	return s.importItems(ctx, items, opt)
}

// ImportExport imports a document written by Export, keeping each memory's layer,
// status, key, category, confidence, provenance and history. Its "id" (or its ref,
// when it had one) becomes the ref.
func (s *Store) ImportExport(ctx context.Context, r io.Reader, opt ImportOptions) (ImportResult, error) {
	var doc Export
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return ImportResult{}, fmt.Errorf("import memories: %w: not an export document: %v", ErrInvalid, err)
	}
	if doc.Format != ExportFormat || doc.Version < 1 || doc.Version > ExportVersion {
		return ImportResult{}, fmt.Errorf("import memories: %w: format %q version %d (this build reads %s up to version %d)", ErrInvalid, doc.Format, doc.Version, ExportFormat, ExportVersion)
	}
	items := make([]item, 0, len(doc.Memories))
	for i, m := range doc.Memories {
		ref := m.Ref
		if ref == "" {
			ref = m.ID
		}
		it := item{line: i + 1, ref: ref, text: strings.TrimSpace(m.Text), created: m.CreatedAt, layer: m.Layer, status: m.Status, key: normKey(m.Key),
			value: m.Value, category: m.Category, confidence: m.Confidence, asserted: m.AssertedBy, origin: m.Origin,
			sources: m.SourceMessageIDs, confirmed: m.LastConfirmedAt, validUntil: m.ValidUntil, history: m.History}
		switch {
		case ref == "" || it.text == "" || len(it.text) > MaxTextBytes:
			return ImportResult{}, fmt.Errorf("import memories: memory %d: %w: missing id or text, or text too long", i+1, ErrInvalid)
		case it.layer == LayerWorking:
			continue // belonged to a session of the other installation
		case it.layer != LayerFact && it.layer != LayerProfile:
			return ImportResult{}, fmt.Errorf("import memories: memory %d: %w: unknown layer %q", i+1, ErrInvalid, it.layer)
		case it.status == StatusSuperseded:
			it.status = StatusArchived // the link to what replaced it does not travel
		case it.status != StatusActive && it.status != StatusPending && it.status != StatusArchived:
			return ImportResult{}, fmt.Errorf("import memories: memory %d: %w: unknown status %q", i+1, ErrInvalid, it.status)
		}
		it = it.withDefaults(s.now())
		items = append(items, it)
	}
	return s.importItems(ctx, items, opt)
}

// importItems writes items in one transaction: all of them or none.
func (s *Store) importItems(ctx context.Context, items []item, opt ImportOptions) (ImportResult, error) {
	profile := s.profileOr(opt.Profile)
	if err := validProfile(profile); err != nil {
		return ImportResult{}, fmt.Errorf("import memories: %w", err)
	}
	if opt.Mode == "" {
		opt.Mode = ImportSkip
	}
	if opt.Mode != ImportSkip && opt.Mode != ImportMerge && opt.Mode != ImportReplace {
		return ImportResult{}, fmt.Errorf("import memories: %w: mode %q (skip, merge or replace)", ErrInvalid, opt.Mode)
	}
	progress := func(done int) {
		if opt.Progress != nil {
			opt.Progress(Progress{Job: "import", Done: done, Total: len(items)})
		}
	}
	texts := s.maskImported(items)
	emb, idx := s.current()
	vecs, err := s.embedImported(ctx, emb, texts, progress)
	if err != nil {
		return ImportResult{}, err
	}
	w := &importWrite{s: s, items: items, vecs: vecs, emb: emb, profile: profile, opt: opt, now: s.now(), progress: progress}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, cur := s.current(); cur != idx {
		w.vecs = make([][]float32, len(items))
		_ = s.enqueueReindex(ctx)
	}
	if err := s.db.Tx(ctx, func(tx *sql.Tx) error { return w.run(ctx, tx) }); err != nil {
		return ImportResult{}, fmt.Errorf("import memories: nothing was imported: %w", err)
	}
	s.applyIndex(ctx, &w.ch)
	if w.res.Merged > 0 {
		_ = s.enqueueReindex(ctx) // merged texts need new vectors
	}
	progress(len(items))
	s.emit(Change{Kind: "imported", IDs: []string{fmt.Sprint(w.res.Added + w.res.Merged + w.res.Replaced)}, Profile: profile})
	return w.res, nil
}

// maskImported applies the sensitivity policy to the items (masked unless
// sensitive memories are allowed) and returns the text each is indexed by.
func (s *Store) maskImported(items []item) []string {
	allow := s.currentPolicy().AllowSensitive
	texts := make([]string, len(items))
	for i := range items {
		if allow {
			items[i].sensitive = Sensitive(items[i].text)
		} else {
			var a, b bool
			items[i].text, a = Mask(items[i].text)
			items[i].value, b = Mask(items[i].value)
			items[i].sensitive = a || b || strings.Contains(items[i].text, "[") && Sensitive(items[i].text)
		}
		texts[i] = indexText(items[i].text, items[i].key)
	}
	return texts
}

// embedImported embeds the texts 256 at a time (the first half of the
// progress); an embedder that fails leaves the rest without vectors, for a
// reindex to add.
func (s *Store) embedImported(ctx context.Context, emb Embedder, texts []string, progress func(int)) ([][]float32, error) {
	vecs := make([][]float32, len(texts))
	for start := 0; start < len(texts); start += 256 {
		end := min(start+256, len(texts))
		v, err := emb.Embed(ctx, texts[start:end])
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("import memories: %w", ctx.Err())
			}
			s.cfg.Logf("memory: import without vectors (reindex will add them): %v", err)
			_ = s.enqueueReindex(ctx)
			break
		}
		copy(vecs[start:end], v)
		progress(end / 2)
	}
	return vecs, nil
}

// importWrite is the transaction of one import: its items and their
// vectors, and what it did (res) and changes in the vector index (ch).
type importWrite struct {
	s        *Store
	items    []item
	vecs     [][]float32
	emb      Embedder
	profile  string
	opt      ImportOptions
	now      time.Time
	progress func(int)

	res           ImportResult
	ch            indexChanges
	existing      map[string]map[string]Memory // profile -> ref -> memory
	prev          int64                        // rid of the item before (0: none)
	purge         []string                     // index texts of replaced memories
	ins, fts, vec *sql.Stmt
}

func (w *importWrite) run(ctx context.Context, tx *sql.Tx) (err error) {
	w.res, w.ch, w.existing, w.purge, w.prev = ImportResult{}, indexChanges{}, map[string]map[string]Memory{}, nil, 0
	if w.ins, err = tx.PrepareContext(ctx, `INSERT INTO memories(id, ref, profile, layer, status, key, key_hash, value, text, norm_hash, category,
		confidence, asserted_by, origin, sensitive, session_id, source_messages, replaces, note, created_at, updated_at, valid_until, last_confirmed_at, reply_to)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, '[]', '', ?, ?, ?, ?, ?)`); err != nil {
		return err
	}
	defer w.ins.Close()
	if w.fts, err = tx.PrepareContext(ctx, `INSERT INTO memories_fts(rowid, body, scope) VALUES (?, ?, ?)`); err != nil {
		return err
	}
	defer w.fts.Close()
	if w.vec, err = tx.PrepareContext(ctx, `INSERT OR REPLACE INTO memory_embeddings(memory_rid, embedder, dim, vec) VALUES (?, ?, ?, ?)`); err != nil {
		return err
	}
	defer w.vec.Close()
	for i, it := range w.items {
		if i%1000 == 0 {
			w.progress(len(w.items)/2 + i/2)
		}
		if err := w.one(ctx, tx, i, it); err != nil {
			return err
		}
	}
	if len(w.purge) > 0 {
		return store.PurgeTerms(ctx, tx, "memories_fts", w.purge)
	}
	return nil
}

// refs are the memories of profile p by ref, read once.
func (w *importWrite) refs(ctx context.Context, tx *sql.Tx, p string) (map[string]Memory, error) {
	if m, ok := w.existing[p]; ok {
		return m, nil
	}
	m, err := refsOf(ctx, tx, p)
	w.existing[p] = m
	return m, err
}

// one imports item i: skipped, merged or replacing a memory with its ref, or
// added.
func (w *importWrite) one(ctx context.Context, tx *sql.Tx, i int, it item) error {
	profile := w.profile
	if it.profile != "" && w.opt.Profile == "" {
		profile = it.profile // an export keeps each memory's profile
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_profiles(name, created_at) VALUES (?, ?)`, profile, ts(w.now)); err != nil {
		return err
	}
	have, err := w.refs(ctx, tx, profile)
	if err != nil {
		return err
	}
	if old, ok := have[it.ref]; ok {
		switch w.opt.Mode {
		case ImportSkip:
			w.res.Skipped++
			w.prev = old.rid
			return nil
		case ImportMerge:
			if err := w.s.mergeImported(ctx, tx, old, it, w.now, &w.ch); err != nil {
				return fmt.Errorf("memory %q: %w", it.ref, err)
			}
			w.res.Merged++
			w.prev = old.rid
			return nil
		case ImportReplace:
			gone := []erased{{rid: old.rid, id: old.ID, profile: old.Profile, text: old.Text, key: old.Key}}
			if err := w.s.remove(ctx, tx, gone, eraseScope{}); err != nil {
				return fmt.Errorf("memory %q: %w", it.ref, err)
			}
			w.ch.del(old.Profile, old.ID)
			w.purge = append(w.purge, indexText(old.Text, old.Key))
			w.res.Replaced++
		}
	} else {
		w.res.Added++
	}
	return w.insert(ctx, tx, profile, it, w.vecs[i])
}

// insert writes a new memory with its history, vector and index entry.
func (w *importWrite) insert(ctx context.Context, tx *sql.Tx, profile string, it item, v []float32) error {
	id := w.s.cfg.NewID()
	updated := it.updated
	if updated.IsZero() {
		updated = w.now
	}
	r, err := w.ins.ExecContext(ctx, id, it.ref, profile, it.layer, it.status, it.key, keyHash(profile, it.key), it.value, it.text,
		store.Digest(normalize(it.text)), it.category, it.confidence, it.asserted, it.origin, it.sensitive, jsonList(it.sources),
		ts(it.created), ts(updated), nullTS(it.validUntil), ts(it.confirmed), w.replyTo(it))
	if err != nil {
		return fmt.Errorf("memory %q: %w", it.ref, err)
	}
	rid, _ := r.LastInsertId()
	w.prev = rid
	for _, h := range it.history {
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_history(memory_rid, text, key, value, category, changed_at, changed_by) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			rid, h.Text, h.Key, h.Value, h.Category, ts(h.ChangedAt), h.ChangedBy); err != nil {
			return err
		}
	}
	usable := v != nil && vector.Usable(v)
	if usable {
		if _, err := w.vec.ExecContext(ctx, rid, w.emb.Name(), len(v), vector.Encode(v)); err != nil {
			return err
		}
	}
	if it.status != StatusActive {
		return nil
	}
	if _, err := w.fts.ExecContext(ctx, rid, text.Segment(indexText(it.text, it.key)), scopeToken(profile)); err != nil {
		return err
	}
	if usable {
		w.ch.put(profile, id, v)
	}
	return nil
}

// replyTo is the rid an item answers (replies.go), or NULL.
func (w *importWrite) replyTo(it item) any {
	if !it.follows || w.prev == 0 {
		return nil
	}
	return w.prev
}

// mergeImported takes the imported text for an existing memory; the old text stays
// in its history, and the memory is reinforced.
func (s *Store) mergeImported(ctx context.Context, tx *sql.Tx, old Memory, it item, now time.Time, ch *indexChanges) error {
	if normalize(old.Text) == normalize(it.text) {
		_, err := tx.ExecContext(ctx, `UPDATE memories SET confidence = ?, last_confirmed_at = ?, updated_at = ? WHERE rid = ?`,
			reinforced(old.Confidence), ts(now), ts(now), old.rid)
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO memory_history(memory_rid, text, key, value, category, changed_at, changed_by) VALUES (?, ?, ?, ?, ?, ?, 'import')`,
		old.rid, old.Text, old.Key, old.Value, old.Category, ts(now)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memories SET text = ?, norm_hash = ?, confidence = ?, last_confirmed_at = ?, updated_at = ? WHERE rid = ?`,
		it.text, store.Digest(normalize(it.text)), reinforced(old.Confidence), ts(now), ts(now), old.rid); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM memory_embeddings WHERE memory_rid = ?`, old.rid); err != nil {
		return err
	}
	if old.Status == StatusActive {
		if err := ftsDelete(ctx, tx, old.rid); err != nil {
			return err
		}
		if err := ftsInsert(ctx, tx, old.rid, old.Profile, it.text, old.Key); err != nil {
			return err
		}
		ch.del(old.Profile, old.ID)
	}
	return nil // the reindex job adds the new vector
}

// refsOf maps the refs of a profile's memories to the memories.
func refsOf(ctx context.Context, q queryer, profile string) (map[string]Memory, error) {
	ms, err := queryMemories(ctx, q, `m.profile = ? AND m.ref IS NOT NULL`, profile)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Memory, len(ms))
	for _, m := range ms {
		out[m.Ref] = m
	}
	return out, nil
}
