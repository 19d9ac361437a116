package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"hermes/backend/store"
	"hermes/backend/vector"
)

// AddInput is a memory the user adds directly (memory browser, `hermes memory add`).
type AddInput struct {
	Profile  string
	Text     string
	Key      string
	Value    string
	Category string
	// Layer is fact (default), profile, or working (with SessionID).
	Layer     Layer
	SessionID string
	// Incognito adds nothing.
	Incognito bool
}

// Add stores what the user typed. It goes through the same gate (as an explicit
// request), masking, deduplication and conflict rules as extracted facts; a
// restatement returns the reinforced existing memory.
func (s *Store) Add(ctx context.Context, in AddInput) (Memory, error) {
	d := Gate(GateInput{Intent: intentRemember, MayWriteMemory: true, Incognito: in.Incognito, Text: in.Text, Explicit: true})
	if !d.Allowed {
		return Memory{}, fmt.Errorf("add memory: %w: %s", ErrInvalid, d.Reason)
	}
	w, err := s.write(ctx, fact{Profile: in.Profile, SessionID: in.SessionID, Layer: in.Layer, Text: in.Text, Key: in.Key, Value: in.Value,
		Category: in.Category, Confidence: 1, AssertedBy: AssertedByUser, Origin: OriginManual, Explicit: true}, nil)
	if err != nil {
		return Memory{}, fmt.Errorf("add memory: %w", err)
	}
	s.emitWrite(w, "", "")
	return s.Get(ctx, w.Memory.ID)
}

func (s *Store) emitWrite(w written, sessionID, messageID string) {
	kind := w.Action
	if kind == "skipped" {
		return
	}
	s.emit(Change{Kind: kind, IDs: []string{w.Memory.ID}, Profile: w.Memory.Profile, SessionID: sessionID, MessageID: messageID})
	if len(w.Superseded) > 0 {
		s.emit(Change{Kind: "superseded", IDs: w.Superseded, Profile: w.Memory.Profile, SessionID: sessionID, MessageID: messageID})
	}
}

// Filter selects memories to list. Zero fields do not filter.
type Filter struct {
	Profile  string // "" lists every profile
	Layer    Layer
	Statuses []Status
	Category string
	// MinConfidence keeps memories whose confidence, decayed to now (Strength),
	// is at least this.
	MinConfidence float64
	// Text keeps memories whose text contains it (case-insensitive).
	Text      string
	SessionID string
	Limit     int // default 100, at most 1000
	Offset    int
}

// List returns memories, newest first, with their decayed strength.
func (s *Store) List(ctx context.Context, f Filter) ([]Memory, error) {
	var conds []string
	var args []any
	add := func(c string, a ...any) { conds = append(conds, c); args = append(args, a...) }
	if f.Profile != "" {
		add(`m.profile = ?`, f.Profile)
	}
	if f.Layer != "" {
		add(`m.layer = ?`, f.Layer)
	}
	if len(f.Statuses) > 0 {
		var ph []string
		for _, st := range f.Statuses {
			ph = append(ph, "?")
			args = append(args, st)
		}
		conds = append(conds, `m.status IN (`+strings.Join(ph, ", ")+`)`)
	}
	if f.Category != "" {
		add(`m.category = ?`, f.Category)
	}
	if f.MinConfidence > 0 {
		add(`m.confidence >= ?`, f.MinConfidence) // strength never exceeds confidence
	}
	if t := strings.TrimSpace(f.Text); t != "" {
		add(`instr(lower(m.text), lower(?)) > 0`, t)
	}
	if f.SessionID != "" {
		add(`m.session_id = ?`, f.SessionID)
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	f.Limit = min(f.Limit, 1000)
	where := "1"
	if len(conds) > 0 {
		where = strings.Join(conds, " AND ")
	}
	now := s.now()
	var out []Memory
	offset := f.Offset
	for len(out) < f.Limit {
		page, err := queryMemories(ctx, s.db, where+` ORDER BY m.created_at DESC, m.rid DESC LIMIT ? OFFSET ?`, append(args, f.Limit, offset)...)
		if err != nil {
			return nil, fmt.Errorf("list memories: %w", err)
		}
		for _, m := range page {
			m = s.withStrength(m, now)
			if m.Strength >= f.MinConfidence && len(out) < f.Limit {
				out = append(out, m)
			}
		}
		if len(page) < f.Limit || f.MinConfidence <= 0 {
			break
		}
		offset += len(page)
	}
	return out, nil
}

// Get returns one memory by id or ref.
func (s *Store) Get(ctx context.Context, idOrRef string) (Memory, error) {
	m, err := lookup(ctx, s.db, idOrRef)
	if err != nil {
		return Memory{}, err
	}
	return s.withStrength(m, s.now()), nil
}

// Revision is an earlier version of an edited memory.
type Revision struct {
	Text      string    `json:"text"`
	Key       string    `json:"key,omitempty"`
	Value     string    `json:"value,omitempty"`
	Category  string    `json:"category"`
	ChangedAt time.Time `json:"changed_at"`
	ChangedBy string    `json:"changed_by"`
}

// Detail is a memory with its provenance: source messages (in Memory), edit
// history, and the older facts it superseded.
type Detail struct {
	Memory     Memory     `json:"memory"`
	History    []Revision `json:"history"`
	Supersedes []Memory   `json:"supersedes"`
	// Recalls counts how often it was offered to the model.
	Recalls int `json:"recalls"`
}

// Show returns a memory with its history and what it replaced.
func (s *Store) Show(ctx context.Context, idOrRef string) (Detail, error) {
	m, err := s.Get(ctx, idOrRef)
	if err != nil {
		return Detail{}, fmt.Errorf("show memory: %w", err)
	}
	d := Detail{Memory: m, History: []Revision{}}
	rows, err := s.db.QueryContext(ctx, `SELECT text, key, value, category, changed_at, changed_by FROM memory_history WHERE memory_rid = ? ORDER BY id`, m.rid)
	if err != nil {
		return Detail{}, fmt.Errorf("show memory: %w", err)
	}
	for rows.Next() {
		var r Revision
		var at string
		if err := rows.Scan(&r.Text, &r.Key, &r.Value, &r.Category, &at, &r.ChangedBy); err != nil {
			rows.Close()
			return Detail{}, fmt.Errorf("show memory: %w", err)
		}
		r.ChangedAt = parseTS(at)
		d.History = append(d.History, r)
	}
	rows.Close()
	if d.Supersedes, err = queryMemories(ctx, s.db, `m.superseded_by = ? ORDER BY m.rid`, m.ID); err != nil {
		return Detail{}, fmt.Errorf("show memory: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_recalls WHERE memory_rid = ? AND kept = 1`, m.rid).Scan(&d.Recalls); err != nil {
		return Detail{}, fmt.Errorf("show memory: %w", err)
	}
	return d, nil
}

// Edit changes a memory's text (and optionally key, value, category); the previous
// version is kept in its history. An edit is the user confirming: the decay clock
// restarts.
type Edit struct {
	Text     string
	Key      *string
	Value    *string
	Category *string
}

// Edit applies e to a memory and returns it.
func (s *Store) Edit(ctx context.Context, idOrRef string, e Edit) (Memory, error) {
	m, err := lookup(ctx, s.db, idOrRef)
	if err != nil {
		return Memory{}, fmt.Errorf("edit memory: %w", err)
	}
	f := fact{Profile: m.Profile, SessionID: m.SessionID, Layer: m.Layer, Text: e.Text, Key: m.Key, Value: m.Value, Category: m.Category, Confidence: 1}
	if strings.TrimSpace(f.Text) == "" {
		f.Text = m.Text
	}
	if e.Key != nil {
		f.Key = *e.Key
	}
	if e.Value != nil {
		f.Value = *e.Value
	} else if f.Text != m.Text && f.Value != "" && !saysValue(f.Text, f.Value) {
		// The value was read from the old text; one the edit removed must not stay behind,
		// or a later "I live in Berlin" would count as restating "I live in Paris".
		f.Value = ""
	}
	if e.Category != nil {
		f.Category = *e.Category
	}
	if err := f.clean(); err != nil {
		return Memory{}, fmt.Errorf("edit memory: %w", err)
	}
	sensitive := false
	if s.currentPolicy().AllowSensitive {
		sensitive = Sensitive(f.Text)
	} else {
		var a, b bool
		f.Text, a = Mask(f.Text)
		f.Value, b = Mask(f.Value)
		sensitive = a || b
	}
	emb, idx := s.current()
	var vec []float32
	if vecs, err := emb.Embed(ctx, []string{indexText(f.Text, f.Key)}); err == nil && vector.Usable(vecs[0]) {
		vec = vecs[0]
	}
	now := s.now()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, cur := s.current(); cur != idx {
		vec = nil
	}
	var ch indexChanges
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		ch = indexChanges{}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_history(memory_rid, text, key, value, category, changed_at, changed_by) VALUES (?, ?, ?, ?, ?, ?, 'user')`,
			m.rid, m.Text, m.Key, m.Value, m.Category, ts(now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET text = ?, norm_hash = ?, key = ?, key_hash = ?, value = ?, category = ?, sensitive = ?,
			asserted_by = 'user', confidence = 1, last_confirmed_at = ?, updated_at = ? WHERE rid = ?`,
			f.Text, store.Digest(normalize(f.Text)), f.Key, keyHash(m.Profile, f.Key), f.Value, f.Category, sensitive, ts(now), ts(now), m.rid); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_embeddings WHERE memory_rid = ?`, m.rid); err != nil {
			return err
		}
		if vec != nil {
			if err := putVector(ctx, tx, m.rid, emb.Name(), vec); err != nil {
				return err
			}
		}
		if m.Status == StatusActive {
			if err := ftsDelete(ctx, tx, m.rid); err != nil {
				return err
			}
			if err := ftsInsert(ctx, tx, m.rid, m.Profile, f.Text, f.Key); err != nil {
				return err
			}
			ch.del(m.Profile, m.ID)
			ch.put(m.Profile, m.ID, vec)
		}
		return nil
	})
	if err != nil {
		return Memory{}, fmt.Errorf("edit memory: %w", err)
	}
	s.applyIndex(ctx, &ch)
	if vec == nil {
		_ = s.enqueueReindex(ctx) // the edited text still needs its vector
	}
	s.emit(Change{Kind: "updated", IDs: []string{m.ID}, Profile: m.Profile})
	return s.Get(ctx, m.ID)
}

// transition runs fn on each memory (by id or ref) in one transaction, then updates
// the vector index and reports the change.
func (s *Store) transition(ctx context.Context, op, kind string, ids []string, fn func(tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) error) error {
	if len(ids) == 0 {
		return fmt.Errorf("%s: %w: no memory ids", op, ErrInvalid)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	now := s.now()
	var ch indexChanges
	changed := map[string][]string{}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		ch, changed = indexChanges{}, map[string][]string{}
		for _, id := range ids {
			m, err := lookup(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := fn(tx, m, now, &ch); err != nil {
				return err
			}
			changed[m.Profile] = append(changed[m.Profile], m.ID)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	s.applyIndex(ctx, &ch)
	for p, ids := range changed {
		s.emit(Change{Kind: kind, IDs: ids, Profile: p})
	}
	return nil
}

// Approve activates pending memories from the inbox; each supersedes what it was
// to replace.
func (s *Store) Approve(ctx context.Context, ids ...string) error {
	return s.transition(ctx, "approve memory", "approved", ids, func(tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) error {
		if m.Status != StatusPending {
			return fmt.Errorf("memory %s is %s: %w", m.ID, m.Status, ErrConflict)
		}
		_, err := s.activate(ctx, tx, m, now, ch)
		return err
	})
}

// Reject erases pending memories from the inbox (nothing of them is kept).
func (s *Store) Reject(ctx context.Context, ids ...string) (Receipt, error) {
	var rids []any
	for _, id := range ids {
		m, err := lookup(ctx, s.db, id)
		if err != nil {
			return Receipt{}, fmt.Errorf("reject memory: %w", err)
		}
		if m.Status != StatusPending {
			return Receipt{}, fmt.Errorf("reject memory %s: it is %s: %w", m.ID, m.Status, ErrConflict)
		}
		rids = append(rids, m.rid)
	}
	if len(rids) == 0 {
		return Receipt{}, fmt.Errorf("reject memory: %w: no memory ids", ErrInvalid)
	}
	return s.erase(ctx, "rejected", eraseScope{where: `rid IN (` + placeholders(len(rids)) + `)`, args: rids})
}

// Confirm is the user saying memories are true: a fact joins the profile layer
// (confidence 1, no decay, offered with every recall); a working memory, which
// belongs to its conversation, is reinforced. An archived one becomes active again.
func (s *Store) Confirm(ctx context.Context, ids ...string) error {
	return s.reinforceAll(ctx, "confirm memory", true, ids)
}

// reinforceAll restarts the decay clock of active or archived memories
// (reactivating archived ones); promote moves facts into the profile layer.
func (s *Store) reinforceAll(ctx context.Context, op string, promote bool, ids []string) error {
	return s.transition(ctx, op, "reinforced", ids, func(tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) error {
		if m.Status != StatusActive && m.Status != StatusArchived {
			return fmt.Errorf("memory %s is %s: %w", m.ID, m.Status, ErrConflict)
		}
		layer, conf := m.Layer, reinforced(m.Confidence)
		if promote && m.Layer != LayerWorking {
			layer, conf = LayerProfile, 1
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET layer = ?, confidence = ?, last_confirmed_at = ?, updated_at = ? WHERE rid = ?`,
			layer, conf, ts(now), ts(now), m.rid); err != nil {
			return err
		}
		if m.Status == StatusArchived {
			_, err := s.activate(ctx, tx, m, now, ch)
			return err
		}
		return nil
	})
}

// Restore brings archived memories back (reinforced, in the layer they were in).
func (s *Store) Restore(ctx context.Context, ids ...string) error {
	for _, id := range ids {
		m, err := lookup(ctx, s.db, id)
		if err != nil {
			return fmt.Errorf("restore memory: %w", err)
		}
		if m.Status != StatusArchived {
			return fmt.Errorf("restore memory %s: it is %s: %w", m.ID, m.Status, ErrConflict)
		}
	}
	return s.reinforceAll(ctx, "restore memory", false, ids)
}

// Promote moves active facts into the profile layer: user-confirmed, no decay,
// offered with every recall.
func (s *Store) Promote(ctx context.Context, ids ...string) error {
	return s.transition(ctx, "promote memory", "updated", ids, func(tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) error {
		if m.Status != StatusActive || m.Layer == LayerWorking {
			return fmt.Errorf("memory %s (%s, %s) cannot join the profile: %w", m.ID, m.Layer, m.Status, ErrConflict)
		}
		_, err := tx.ExecContext(ctx, `UPDATE memories SET layer = 'profile', confidence = 1, last_confirmed_at = ?, updated_at = ? WHERE rid = ?`, ts(now), ts(now), m.rid)
		return err
	})
}

// Undo reverses what a turn wrote (the chat's "memory updated — undo"): the
// memories it superseded become active again, then the given ones are erased.
//
// It works only while Undoable says so; otherwise the error (ErrInvalid and
// ErrUndoUnavailable) says why and nothing changes.
func (s *Store) Undo(ctx context.Context, ids ...string) (Receipt, error) {
	if len(ids) > 0 { // says why (e.g. erased since) before the transaction looks the ids up
		st, err := s.Undoable(ctx, ids...)
		if err != nil {
			return Receipt{}, fmt.Errorf("undo memory: %w", err)
		}
		if !st.OK {
			return Receipt{}, fmt.Errorf("undo memory: %w: %w (%s)", ErrInvalid, ErrUndoUnavailable, st.Reason)
		}
	}
	var rids []any
	err := s.transition(ctx, "undo memory", "restored", ids, func(tx *sql.Tx, m Memory, now time.Time, ch *indexChanges) error {
		// Checked again in the transaction that undoes, so nothing written since
		// (a newer version, a profile switch) slips between the check and the undo.
		if st, err := s.undoable(ctx, tx, ids); err != nil {
			return err
		} else if !st.OK {
			return fmt.Errorf("%w: %w (%s)", ErrInvalid, ErrUndoUnavailable, st.Reason)
		}
		olds, err := queryMemories(ctx, tx, `m.superseded_by = ? AND m.status = 'superseded'`, m.ID)
		if err != nil {
			return err
		}
		for _, old := range olds {
			if _, err := tx.ExecContext(ctx, `UPDATE memories SET superseded_by = NULL, valid_until = NULL WHERE rid = ?`, old.rid); err != nil {
				return err
			}
			if _, err := s.activate(ctx, tx, old, now, ch); err != nil {
				return err
			}
		}
		rids = append(rids, m.rid)
		return nil
	})
	if err != nil {
		return Receipt{}, err
	}
	return s.erase(ctx, "undo", eraseScope{where: `rid IN (` + placeholders(len(rids)) + `)`, args: rids})
}

// Profiles lists the memory spaces that hold memories.
func (s *Store) Profiles(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT profile FROM memories ORDER BY profile`)
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("list profiles: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
