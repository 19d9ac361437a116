package session

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strings"
	"time"

	"hermes/backend/jsonl"
	"hermes/backend/procid"
	"hermes/backend/text"
)

// ImportLine is one line of a JSONL import (docs/architecture.md, "Command-line contract"): "session" is the
// session's ref, "id" the message's ref.
//
// A conversation with versions (a regenerated reply, an edited message: see
// branch.go) gives each of its lines a Parent, the ref of the message it
// follows in the same session ("" for a first message), which comes on an
// earlier line; versions of one another share a parent, and every one but the
// shown one is an Alternative. A line without Parent follows the line before it.
type ImportLine struct {
	Session   string  `json:"session"`
	ID        string  `json:"id"`
	Role      string  `json:"role"`
	Content   string  `json:"content"`
	CreatedAt string  `json:"created_at"`
	Parent    *string `json:"parent,omitempty"`
	// Alternative is a version not shown (another version beside it is).
	Alternative bool `json:"alternative,omitempty"`
	// Title is the session's title (the first line that gives one names a new
	// session); without one, the first user message imported makes it.
	Title string `json:"title,omitempty"`
}

// ImportResult counts what an import did.
type ImportResult struct {
	Sessions int `json:"sessions"`
	Messages int `json:"messages"`
	Skipped  int `json:"skipped"` // lines whose message ref was already imported
}

// LineError names the line of an import that is wrong.
type LineError = jsonl.LineError

var validRoles = map[string]bool{"user": true, "assistant": true, "system": true, "tool": true}

// importOptions read an import's lines.
var importOptions = jsonl.Options{MaxLine: 2 * MaxMessageBytes, Strict: true,
	Shape: "a JSON object with session, id, role, content, created_at"}

// CheckLine is the rule every import line follows, for a reader of another
// format that makes ImportLines (one line; a parent's ref is checked as it is
// written).
func CheckLine(l ImportLine) error { return checkImportLine(0, l) }

// checkImportLine is the rule every import line follows.
func checkImportLine(_ int, l ImportLine) error {
	switch {
	case l.Session == "":
		return errors.New(`"session" (the session's ref) is missing`)
	case l.ID == "":
		return errors.New(`"id" (the message's ref) is missing`)
	case !validRoles[l.Role]:
		return fmt.Errorf(`"role" is %q; use user, assistant, system or tool`, l.Role)
	case len(l.Content) > MaxMessageBytes:
		return fmt.Errorf(`"content" is over %d KiB`, MaxMessageBytes>>10)
	case l.Parent != nil && *l.Parent == l.ID:
		return fmt.Errorf(`"parent" is the message itself (%q)`, l.ID)
	}
	if l.CreatedAt != "" {
		if _, err := time.Parse(time.RFC3339Nano, l.CreatedAt); err != nil {
			return fmt.Errorf(`"created_at" %q is not an RFC 3339 time such as 2026-01-31T09:30:00Z`, l.CreatedAt)
		}
	}
	return nil
}

// ParseImport reads and validates every line before anything is written, and
// keeps them all: for small imports (tests, fixtures); a file is CheckImport's.
func ParseImport(r io.Reader) ([]ImportLine, error) {
	lines, err := jsonl.Decode(r, importOptions, checkImportLine)
	if err != nil {
		return nil, fmt.Errorf("import: nothing was imported: %w: %w", ErrInvalid, err)
	}
	return lines, nil
}

// CheckedImport is an import file whose every line has been checked: ImportFrom
// reads it again, a line at a time, so an import of any length holds one line
// (and what it knows of each conversation) in memory.
type CheckedImport struct {
	r     io.Reader // the lines again, from the start
	lines int
	sum   uint32 // crc32c of the bytes checked
	next  *jsonl.Reader
	read  hash.Hash32
}

// CheckImport reads every line of r and checks it, keeping none: a bad file is
// ErrInvalid with a LineError for each bad line (the first 20 named), and
// nothing is written. A file (an io.Seeker) is read again from where it started;
// anything else (a pipe) is kept in memory as read, its size and no more.
func CheckImport(r io.Reader) (*CheckedImport, error) {
	again := rereadable(r)
	sum := newSum()
	n, err := jsonl.Each(io.TeeReader(again.from, sum), importOptions, checkImportLine, nil)
	if err != nil {
		return nil, fmt.Errorf("import: nothing was imported: %w: %w", ErrInvalid, err)
	}
	r, err = again.rewind()
	if err != nil {
		return nil, fmt.Errorf("import: nothing was imported: %w", err)
	}
	return &CheckedImport{r: r, lines: n, sum: sum.Sum32()}, nil
}

// newSum is the checksum that tells the file read again from the file checked.
func newSum() hash.Hash32 { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }

// rereader is an import's input, to be read twice.
type rereader struct {
	from   io.Reader // the first reading
	rewind func() (io.Reader, error)
}

// rereadable reads a seekable r again from its current offset, and keeps what
// is read from any other r.
func rereadable(r io.Reader) rereader {
	if s, ok := r.(io.ReadSeeker); ok {
		if start, err := s.Seek(0, io.SeekCurrent); err == nil {
			return rereader{from: r, rewind: func() (io.Reader, error) {
				_, err := s.Seek(start, io.SeekStart)
				return s, err
			}}
		}
	}
	var kept bytes.Buffer
	return rereader{from: io.TeeReader(r, &kept), rewind: func() (io.Reader, error) { return &kept, nil }}
}

// Len is how many lines the import holds.
func (c *CheckedImport) Len() int { return c.lines }

// Next reads the next line again; a line that no longer passes, or a file that
// ends differently than it did when checked, is ErrInvalid.
func (c *CheckedImport) Next() (ImportLine, bool, error) {
	if c.next == nil {
		c.read = newSum()
		c.next = jsonl.NewReader(io.TeeReader(c.r, c.read), importOptions.MaxLine)
	}
	n, line, ok := c.next.Next()
	if !ok {
		return ImportLine{}, false, c.end()
	}
	l, err := jsonl.DecodeLine[ImportLine](line, importOptions)
	if err == nil {
		err = checkImportLine(n, l)
	}
	if err != nil {
		return ImportLine{}, false, fmt.Errorf("%w: the file changed while it was imported: %w", ErrInvalid, &LineError{Line: n, Err: err})
	}
	return l, true, nil
}

// end checks that the file read again is the file checked.
func (c *CheckedImport) end() error {
	if err := c.next.Err(); err != nil {
		return fmt.Errorf("%w: the file changed while it was imported: %w", ErrInvalid, err)
	}
	if c.read.Sum32() != c.sum {
		return fmt.Errorf("%w: the file changed while it was imported (it is not what was checked); import it again", ErrInvalid)
	}
	return nil
}

// ImportSource hands ImportFrom its lines in order: Len is how many (progress's
// total), Next the next one (false after the last; an error stops the import).
type ImportSource interface {
	Len() int
	Next() (ImportLine, bool, error)
}

// lineSlice is an ImportSource over lines already in memory.
type lineSlice struct {
	lines []ImportLine
	i     int
}

func (s *lineSlice) Len() int { return len(s.lines) }

func (s *lineSlice) Next() (ImportLine, bool, error) {
	if s.i >= len(s.lines) {
		return ImportLine{}, false, nil
	}
	s.i++
	return s.lines[s.i-1], true, nil
}

// An import writes in transactions of at most importSlice (or importChunk
// lines) and pauses importGap between them. A writer elsewhere waits in
// SQLite's busy handler, which retries at most every 100 ms; a gap of 40 ms
// in a 140 ms cycle drifts into one of its retries within four of them, so no
// writer waits much more than half a second, while the import runs ~70% of
// the time.
const (
	importChunk = 2000
	importSlice = 100 * time.Millisecond
	importGap   = 40 * time.Millisecond
)

// staleImport is how long an import may go without a chunk before it counts as
// abandoned (its process died) and is rolled back.
const staleImport = 2 * time.Minute

// Import writes validated lines (ParseImport's) as ImportFrom does.
func (st *Store) Import(ctx context.Context, lines []ImportLine, progress func(done, total int)) (ImportResult, error) {
	return st.ImportFrom(ctx, &lineSlice{lines: lines}, progress)
}

// ImportFrom writes the lines of src, all of them or nothing, in short
// transactions: the rows carry the import's id and stay invisible (lists,
// history, search) until one short final transaction publishes them; a failure
// rolls them back, and so does the next open after a crash (RecoverImports).
// Sessions are found or created by ref; a message whose ref is already in its
// session is skipped. progress (optional) hears the lines done so far. It holds
// the lines of the conversation it created last until they are written (at
// most flushRows of them, flushBytes of text), the refs of that conversation,
// and the id and title of each conversation it touched.
func (st *Store) ImportFrom(ctx context.Context, src ImportSource, progress func(done, total int)) (res ImportResult, err error) {
	return st.ImportInto(ctx, src, "", progress)
}

// ImportInto is ImportFrom with the conversations it creates in a project
// (its id or name; "" none), which gives them its memory profile when it has
// one. An unknown project is ErrNotFound, before anything is written.
func (st *Store) ImportInto(ctx context.Context, src ImportSource, project string, progress func(done, total int)) (res ImportResult, err error) {
	var into Project
	if project != "" {
		if into, err = st.Project(ctx, project); err != nil {
			return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", err)
		}
	}
	job := st.NewID()
	now := ts(st.Now())
	if _, err := st.db.ExecContext(ctx, `INSERT INTO imports(id, owner, started_at, heartbeat_at) VALUES (?, ?, ?, ?)`, job, procid.Self().String(), now, now); err != nil {
		return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", err)
	}
	defer func() {
		if err != nil {
			if rerr := st.rollbackImport(context.WithoutCancel(ctx), job); rerr != nil {
				err = fmt.Errorf("%w (and rolling back: %v; it is retried at the next start)", err, rerr)
			}
			res = ImportResult{}
		}
	}()
	w := newImportWriter(st, job)
	w.project = into
	for done, more := 0, true; more; {
		if done > 0 {
			select {
			case <-ctx.Done():
				return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", ctx.Err())
			case <-time.After(importGap): // let writers elsewhere in
			}
		}
		n := 0
		err := st.db.Tx(ctx, func(tx *sql.Tx) error {
			var err error
			n, more, err = w.chunk(ctx, tx, src)
			return err
		})
		if err != nil {
			return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", err)
		}
		done += n
		if progress != nil && n > 0 {
			progress(done, src.Len())
		}
	}
	if err := st.db.Tx(ctx, w.publish(ctx)); err != nil {
		return ImportResult{}, fmt.Errorf("import: nothing was imported: %w", err)
	}
	return w.res, nil
}

// importWriter is one import's state between its chunks: the conversations it
// touched (ref to id) and the titles their first imported user message gives.
type importWriter struct {
	st       *Store
	job      string
	sessions map[string]string // ref -> id
	titles   map[string]string // id -> TitleFrom(its first user message imported)
	named    map[string]bool   // ids whose title an import line gave (it does not follow the first turn)
	linked   map[string]bool   // ids of the conversations given versions (their leaf is set at publish)
	fresh    freshSession
	project  Project          // where new conversations go (ID "" for none)
	pending  []pendingMessage // messages of fresh conversations not yet written (see flush)
	held     int              // bytes of text in pending
	res      ImportResult
}

func newImportWriter(st *Store, job string) *importWriter {
	return &importWriter{st: st, job: job, sessions: map[string]string{}, titles: map[string]string{},
		named: map[string]bool{}, linked: map[string]bool{}}
}

// chunk writes lines of src inside one transaction, up to importChunk of them
// or importSlice of time; more is false once src has ended.
func (w *importWriter) chunk(ctx context.Context, tx *sql.Tx, src ImportSource) (n int, more bool, err error) {
	var before int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), 0) FROM messages`).Scan(&before); err != nil {
		return 0, false, err
	}
	began := time.Now()
	for more = true; n < importChunk && time.Since(began) < importSlice; n++ {
		l, ok, err := src.Next()
		if err != nil {
			return n, false, err
		}
		if !ok {
			more = false
			break
		}
		if err := w.write(ctx, tx, l); err != nil {
			return n, false, err
		}
	}
	if err := w.flush(ctx, tx); err != nil {
		return n, false, err
	}
	// The transaction holds the write lock: the rows after before are ours.
	if _, err := tx.ExecContext(ctx, `UPDATE messages SET import_id = ? WHERE rowid > ? AND import_id IS NULL`, w.job, before); err != nil {
		return n, false, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE imports SET heartbeat_at = ? WHERE id = ?`, ts(w.st.Now()), w.job)
	return n, more, err
}

// publish is the final transaction: each touched conversation gets its dates
// and, when it has none, a title; then the rows become visible.
func (w *importWriter) publish(ctx context.Context) func(*sql.Tx) error {
	return func(tx *sql.Tx) error {
		for _, id := range w.sessions {
			if _, err := tx.ExecContext(ctx, `UPDATE sessions SET
				created_at = COALESCE((SELECT MIN(created_at) FROM messages WHERE session_id = ?), created_at),
				updated_at = COALESCE((SELECT MAX(created_at) FROM messages WHERE session_id = ?), updated_at),
				rev = rev + 1
				WHERE id = ?`, id, id, id); err != nil {
				return err
			}
			if w.linked[id] {
				if err := setLeaf(ctx, tx, id); err != nil {
					return err
				}
			}
			if title, ok := w.titles[id]; ok {
				if _, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ?, title_auto = ? WHERE id = ? AND title = '' AND title_auto = 1`, title, !w.named[id], id); err != nil {
					return err
				}
			}
		}
		for _, q := range []string{`UPDATE messages SET import_id = NULL WHERE import_id = ?`, `UPDATE sessions SET import_id = NULL WHERE import_id = ?`, `DELETE FROM imports WHERE id = ?`} {
			if _, err := tx.ExecContext(ctx, q, w.job); err != nil {
				return err
			}
		}
		return nil
	}
}

// link gives message id, just written from line l, its parent and shown flag:
// the parent is the message of that ref in the session, written on an earlier
// line (of this import or a former one).
func (w *importWriter) link(ctx context.Context, tx *sql.Tx, id string, l ImportLine) error {
	sid := w.sessions[l.Session]
	parent := ""
	if *l.Parent != "" {
		err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE session_id = ? AND ref = ?`, sid, *l.Parent).Scan(&parent)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: message %q of session %q follows %q, which no earlier line of that session is", ErrInvalid, l.ID, l.Session, *l.Parent)
		}
		if err != nil {
			return err
		}
	}
	up, err := w.st.db.TxStmt(ctx, tx, `UPDATE messages SET parent_id = ?, selected = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	if _, err := up.ExecContext(ctx, parent, !l.Alternative, id); err != nil {
		return err
	}
	w.linked[sid] = true
	return nil
}

// setLeaf moves a conversation's leaf to the end of its shown path (where
// the next message goes), once an import gave it versions.
func setLeaf(ctx context.Context, tx *sql.Tx, sessionID string) error {
	rows, err := tx.QueryContext(ctx, `SELECT `+messageCols+` FROM messages WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return err
	}
	var all []Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			rows.Close()
			return err
		}
		all = append(all, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	t := newTree(all)
	shown, leaf := t.visible(), ""
	for _, m := range t.msgs {
		if shown[m.ID] {
			leaf = m.ID
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE sessions SET leaf_id = ? WHERE id = ?`, leaf, sessionID)
	return err
}

// named marks a title an import line gave (not made from a message) in an
// importWriter's titles.
const named = "\x00"

// freshSession is the conversation an import created last, with the refs of
// the messages it wrote there (ref -> id): a line of it needs no query to
// know whether its message is there, nor which message it follows, and its
// messages are written many to a statement (flush).
type freshSession struct {
	id   string
	refs map[string]string
	seq  int // the last message's number
}

// pendingMessage is a message of a fresh conversation waiting for flush.
type pendingMessage struct {
	m        Message
	parent   sql.NullString
	selected bool
}

// flushRows is the most messages one flush statement writes (9 parameters
// each), flushBytes the most text pending messages hold.
const (
	flushRows  = 200
	flushBytes = 4 << 20
)

// write writes one line: a line of the conversation the import created last
// joins the pending messages; any other is written now (line), with its parent
// (link).
func (w *importWriter) write(ctx context.Context, tx *sql.Tx, l ImportLine) error {
	sid, err := w.session(ctx, tx, l.Session)
	if err != nil {
		return err
	}
	if w.fresh.id != sid {
		id, err := w.line(ctx, tx, l)
		if err != nil || id == "" || l.Parent == nil {
			return err
		}
		return w.link(ctx, tx, id, l)
	}
	if _, dup := w.fresh.refs[l.ID]; dup {
		w.res.Skipped++
		return nil
	}
	pm := pendingMessage{m: Message{ID: w.st.NewID(), SessionID: sid, Ref: l.ID, Role: l.Role, Content: l.Content, CreatedAt: w.st.Now().UTC()}, selected: true}
	if l.CreatedAt != "" {
		pm.m.CreatedAt, _ = time.Parse(time.RFC3339Nano, l.CreatedAt)
	}
	if l.Parent != nil {
		parent, ok := w.fresh.refs[*l.Parent]
		if !ok && *l.Parent != "" {
			return fmt.Errorf("%w: message %q of session %q follows %q, which no earlier line of that session is", ErrInvalid, l.ID, l.Session, *l.Parent)
		}
		pm.parent, pm.selected = sql.NullString{String: parent, Valid: true}, !l.Alternative
		w.linked[sid] = true
	}
	w.fresh.seq++
	pm.m.Seq = w.fresh.seq
	w.fresh.refs[l.ID] = pm.m.ID
	w.pending = append(w.pending, pm)
	w.held += len(l.Content)
	w.counted(sid, l)
	if len(w.pending) >= flushRows || w.held >= flushBytes {
		return w.flush(ctx, tx)
	}
	return nil
}

// flush writes the pending messages, and their search rows, in two statements.
func (w *importWriter) flush(ctx context.Context, tx *sql.Tx) error {
	if len(w.pending) == 0 {
		return nil
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO messages(id, session_id, ref, seq, role, content, created_at, parent_id, selected) VALUES `)
	args := make([]any, 0, 9*len(w.pending))
	content := make(map[string]string, len(w.pending))
	for i, p := range w.pending {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, p.m.ID, p.m.SessionID, p.m.Ref, p.m.Seq, p.m.Role, p.m.Content, ts(p.m.CreatedAt), p.parent, p.selected)
		if p.m.Content != "" {
			content[p.m.ID] = p.m.Content
		}
	}
	q.WriteString(` RETURNING rowid, id`)
	rows, err := tx.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return err
	}
	var fts strings.Builder
	var ftsArgs []any
	for rows.Next() {
		var rowid int64
		var id string
		if err := rows.Scan(&rowid, &id); err != nil {
			rows.Close()
			return err
		}
		if c, ok := content[id]; ok {
			if len(ftsArgs) > 0 {
				fts.WriteString(", ")
			}
			fts.WriteString("(?, ?)")
			ftsArgs = append(ftsArgs, rowid, text.Segment(c))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(ftsArgs) > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages_fts(rowid, body) VALUES `+fts.String(), ftsArgs...); err != nil {
			return err
		}
	}
	w.pending, w.held = w.pending[:0], 0
	return nil
}

// session is the id of the conversation of ref: one this import met, one
// already there, or a new one (then the fresh one).
func (w *importWriter) session(ctx context.Context, tx *sql.Tx, ref string) (string, error) {
	if id, ok := w.sessions[ref]; ok {
		return id, nil
	}
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM sessions WHERE ref = ?`, ref).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		if err := w.flush(ctx, tx); err != nil { // the pending messages are the last fresh conversation's
			return "", err
		}
		id = w.st.NewID()
		now := ts(w.st.Now())
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions(id, ref, title, created_at, updated_at, state, import_id, project_id, profile)
			VALUES (?, ?, '', ?, ?, 'idle', ?, NULLIF(?, ''), COALESCE(NULLIF(?, ''), 'personal'))`,
			id, ref, now, now, w.job, w.project.ID, w.project.MemoryProfile); err != nil {
			return "", err
		}
		w.res.Sessions++
		w.fresh = freshSession{id: id, refs: map[string]string{}}
	} else if err != nil {
		return "", err
	}
	w.sessions[ref] = id
	return id, nil
}

// line writes one line of a conversation that was there before the import,
// inside a chunk's transaction; it returns the new message's id, "" when the
// message was already there.
func (w *importWriter) line(ctx context.Context, tx *sql.Tx, l ImportLine) (string, error) {
	st := w.st
	id, err := w.session(ctx, tx, l.Session)
	if err != nil {
		return "", err
	}
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE session_id = ? AND ref = ?`, id, l.ID).Scan(&exists); err != nil {
		return "", err
	}
	if exists > 0 {
		w.res.Skipped++
		return "", nil
	}
	m := Message{ID: st.NewID(), SessionID: id, Ref: l.ID, Role: l.Role, Content: l.Content, CreatedAt: st.Now().UTC()}
	if l.CreatedAt != "" {
		m.CreatedAt, _ = time.Parse(time.RFC3339Nano, l.CreatedAt)
	}
	if _, err := st.insert(ctx, tx, &m, false); err != nil {
		return "", err
	}
	w.counted(id, l)
	return m.ID, nil
}

// counted counts a message written from l in conversation id, and the title it may give.
func (w *importWriter) counted(id string, l ImportLine) {
	w.res.Messages++
	if l.Title != "" && !w.named[id] {
		w.titles[id] = strings.Join(strings.Fields(l.Title), " ")
		w.named[id] = true
	}
	if _, seen := w.titles[id]; !seen && l.Role == "user" {
		w.titles[id] = TitleFrom(l.Content)
	}
}

// rollbackImport removes what an unpublished import wrote, in short
// transactions.
func (st *Store) rollbackImport(ctx context.Context, job string) error {
	for {
		var n int64
		err := st.db.Tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM messages WHERE import_id = ? LIMIT ?)`, job, importChunk); err != nil {
				return err
			}
			r, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE rowid IN (SELECT rowid FROM messages WHERE import_id = ? LIMIT ?)`, job, importChunk)
			if err != nil {
				return err
			}
			n, _ = r.RowsAffected()
			return nil
		})
		if err != nil {
			return fmt.Errorf("roll back import %s: %w", job, err)
		}
		if n == 0 {
			break
		}
	}
	return st.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE import_id = ?`, job); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM imports WHERE id = ?`, job)
		return err
	})
}

// RecoverImports rolls back imports whose process stopped before publishing
// them (it no longer runs, or wrote no chunk for staleImport); it returns how
// many. Hermes runs it whenever it opens a data dir, so a re-import after a
// crash never meets the dead import's rows.
func (st *Store) RecoverImports(ctx context.Context) (int, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id, owner, heartbeat_at FROM imports`)
	if err != nil {
		return 0, fmt.Errorf("recover imports: %w", err)
	}
	var jobs []string
	stale := ts(st.Now().Add(-staleImport))
	for rows.Next() {
		var id, owner, heartbeat string
		if err := rows.Scan(&id, &owner, &heartbeat); err != nil {
			rows.Close()
			return 0, fmt.Errorf("recover imports: %w", err)
		}
		if p, ok := procid.Parse(owner); !ok || !p.Alive() || heartbeat < stale {
			jobs = append(jobs, id)
		}
	}
	rows.Close()
	for _, job := range jobs {
		if err := st.rollbackImport(ctx, job); err != nil {
			return 0, err
		}
	}
	return len(jobs), nil
}

// Export is a session as JSON.
type Export struct {
	Session  ExportSession   `json:"session"`
	Messages []ExportMessage `json:"messages"`
}

// ExportSession is the session part of an export.
type ExportSession struct {
	ID        string `json:"id"`
	Ref       string `json:"ref,omitempty"`
	Title     string `json:"title"`
	Profile   string `json:"profile"`
	State     string `json:"state"`
	Summary   string `json:"summary,omitempty"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// ExportMessage is one message of an export.
type ExportMessage struct {
	ID        string `json:"id"`
	Ref       string `json:"ref,omitempty"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	Thinking  string `json:"thinking,omitempty"`
	Status    string `json:"status"`
	Model     string `json:"model,omitempty"`
	Channel   string `json:"channel"`
	CreatedAt string `json:"created_at"`
	// Documents are the files attached to the message, with their text.
	Documents []ExportDocument `json:"documents,omitempty"`
}

// ExportDocument is an attached document in an export: its text, or for an
// image (kind "image") the image as stored (Data, base64 in JSON), its media
// type and size in pixels.
type ExportDocument struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
	Text   string `json:"text"`
	Data   []byte `json:"data,omitempty"`
	Mime   string `json:"mime,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// ExportJSON returns a session with its messages as shown (the chosen version of
// each; every channel).
func (st *Store) ExportJSON(ctx context.Context, id string) (Export, error) {
	s, err := st.Get(ctx, id)
	if err != nil {
		return Export{}, fmt.Errorf("export: %w", err)
	}
	all, err := st.Messages(ctx, s.ID)
	if err != nil {
		return Export{}, fmt.Errorf("export: %w", err)
	}
	msgs := Visible(all)
	e := Export{Session: ExportSession{ID: s.ID, Ref: s.Ref, Title: s.Title, Profile: s.Profile, State: s.State, Summary: s.Summary,
		CreatedAt: ts(s.CreatedAt), UpdatedAt: ts(s.UpdatedAt)}, Messages: []ExportMessage{}}
	for _, m := range msgs {
		em := ExportMessage{ID: m.ID, Ref: m.Ref, Role: m.Role, Content: m.Content, Thinking: m.Thinking, Status: m.Status,
			Model: m.Model, Channel: m.Channel, CreatedAt: ts(m.CreatedAt)}
		if m.Role == "user" && len(DocumentRefs(m.Content)) > 0 {
			docs, err := st.messageDocs(ctx, m)
			if err != nil {
				return Export{}, fmt.Errorf("export: %w", err)
			}
			for _, d := range docs {
				em.Documents = append(em.Documents, ExportDocument{Name: d.Name, Kind: d.Kind, Chars: d.Chars, Tokens: d.Tokens, Text: d.Text,
					Data: d.Data, Mime: d.Mime, Width: d.Width, Height: d.Height})
			}
		}
		e.Messages = append(e.Messages, em)
	}
	return e, nil
}

// ExportMarkdown renders a session as a Markdown document.
func (st *Store) ExportMarkdown(ctx context.Context, id string) (string, error) {
	e, err := st.ExportJSON(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	title := e.Session.Title
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n_Exported from Hermes. Session %s, started %s._\n", title, e.Session.ID, e.Session.CreatedAt)
	names := map[string]string{"user": "You", "assistant": "Hermes", "system": "System", "tool": "Tool"}
	for _, m := range e.Messages {
		fmt.Fprintf(&b, "\n## %s · %s\n\n", names[m.Role], m.CreatedAt)
		if m.Thinking != "" { // the reasoning, folded as the window shows it
			fmt.Fprintf(&b, "<details><summary>Thinking</summary>\n\n%s\n\n</details>\n\n", m.Thinking)
		}
		fmt.Fprintf(&b, "%s\n", WithoutDocumentRefs(m.Content))
		for _, d := range m.Documents {
			if d.Kind == KindImage { // the image itself, inline; its alt text is its name, escaped
				alt := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "\n", " ").Replace(d.Name)
				fmt.Fprintf(&b, "\n### Attached: %s (image, %d×%d, %d tokens)\n\n![%s](data:%s;base64,%s)\n",
					d.Name, d.Width, d.Height, d.Tokens, alt, d.Mime, base64.StdEncoding.EncodeToString(d.Data))
				continue
			}
			fence := "```"
			for strings.Contains(d.Text, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "\n### Attached: %s (%s, %d tokens)\n\n%stext\n%s\n%s\n", d.Name, d.Kind, d.Tokens, fence, d.Text, fence)
		}
		if m.Status != StatusOK {
			fmt.Fprintf(&b, "\n_(%s)_\n", m.Status)
		}
	}
	return b.String(), nil
}
