package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"hermes/backend/store"
	"hermes/backend/vector"
)

// MaxTextBytes is the longest memory text accepted.
const MaxTextBytes = 2000

// nearDuplicate is the cosine at which a new fact only restates an existing one.
const nearDuplicate = 0.9

// fact is one memory to write, from any path: extraction, the user, the tool, an import.
type fact struct {
	Profile    string
	SessionID  string
	Layer      Layer
	Text       string
	Key        string
	Value      string
	Category   string
	Confidence float64
	AssertedBy Asserter
	Origin     Origin
	Sources    []string
	ValidUntil time.Time
	// Supersedes are ids the writer says this fact makes untrue.
	Supersedes []string
	// Explicit: the user asked for it (a remember request or a direct add).
	Explicit bool
}

// idemKey names one candidate of one job: it is written at most once.
type idemKey struct {
	job       int64
	candidate int
}

// written is what a write did.
type written struct {
	Memory     Memory
	Action     string // added, pending, reinforced, skipped
	Superseded []string
}

func (f *fact) clean() error {
	f.Profile = profileOr(f.Profile)
	if err := validProfile(f.Profile); err != nil {
		return err
	}
	f.Text = strings.TrimSpace(f.Text)
	switch {
	case f.Text == "":
		return fmt.Errorf("%w: the memory text is empty", ErrInvalid)
	case len(f.Text) > MaxTextBytes:
		return fmt.Errorf("%w: the memory text has %d bytes; the most is %d", ErrInvalid, len(f.Text), MaxTextBytes)
	case !utf8.ValidString(f.Text):
		return fmt.Errorf("%w: the memory text is not valid UTF-8", ErrInvalid)
	}
	if f.Layer == "" {
		f.Layer = LayerFact
	}
	if f.Layer != LayerFact && f.Layer != LayerProfile && f.Layer != LayerWorking {
		return fmt.Errorf("%w: unknown layer %q (working, fact or profile)", ErrInvalid, f.Layer)
	}
	if f.Layer == LayerWorking && f.SessionID == "" {
		return fmt.Errorf("%w: a working memory belongs to a session", ErrInvalid)
	}
	f.Key, f.Value = normKey(f.Key), strings.TrimSpace(f.Value)
	if f.Category == "" {
		f.Category = "other"
	}
	if !validCategory(f.Category) {
		return fmt.Errorf("%w: unknown category %q", ErrInvalid, f.Category)
	}
	if f.Confidence <= 0 || f.Confidence > 1 {
		f.Confidence = 1
	}
	return nil
}

// decide masks sensitive data and chooses the status: what the user stated becomes
// active; what the model inferred, or anything sensitive, waits in the inbox unless
// the user turned on auto-accept; a verifier may hold a fact back.
func (s *Store) decide(ctx context.Context, f *fact) (status Status, sensitive bool, note string) {
	pol := s.currentPolicy()
	if pol.AllowSensitive {
		sensitive = Sensitive(f.Text) || Sensitive(f.Value)
	} else {
		var a, b bool
		f.Text, a = Mask(f.Text)
		f.Value, b = Mask(f.Value)
		sensitive = a || b || Sensitive(f.Text)
	}
	switch {
	case pol.AutoAccept:
		status = StatusActive
	case sensitive:
		status, note = StatusPending, noteSensitive
	case f.AssertedBy == AssertedByUser, f.AssertedBy == AssertedByTool && f.Explicit:
		status = StatusActive
	default:
		status, note = StatusPending, noteInferred
	}
	if status == StatusActive {
		if v := s.verifier(f.Key); v != nil {
			ok, why, err := v.Verify(ctx, Memory{Profile: f.Profile, Layer: f.Layer, Key: f.Key, Value: f.Value, Text: f.Text, Category: f.Category, AssertedBy: f.AssertedBy})
			switch {
			case err != nil:
				status, note = StatusPending, noteUnverifiable+short(err.Error())
			case !ok:
				status, note = StatusPending, noteRejected+short(why)
			}
		}
	}
	return status, sensitive, note
}

// verifier is the verifier of a key (nil: none).
func (s *Store) verifier(key string) Verifier {
	if s.cfg.Verifiers == nil || key == "" {
		return nil
	}
	return s.cfg.Verifiers.For(key)
}

// write stores one fact: exact duplicates and near-duplicates reinforce the fact
// they restate; a fact with the key of an active one but another value (or that
// the writer says replaces one) supersedes it once active. idem, when set, makes
// the write happen at most once.
func (s *Store) write(ctx context.Context, f fact, idem *idemKey) (written, error) {
	f.Profile = s.profileOr(f.Profile)
	if err := f.clean(); err != nil {
		return written{}, err
	}
	status, sensitive, note := s.decide(ctx, &f)
	emb, idx := s.current()
	var vec []float32
	if vecs, err := emb.Embed(ctx, []string{indexText(f.Text, f.Key)}); err == nil && len(vecs) == 1 && vector.Usable(vecs[0]) {
		vec = vecs[0]
	} else {
		if ctx.Err() != nil {
			return written{}, fmt.Errorf("write memory: %w", ctx.Err())
		}
		s.cfg.Logf("memory: stored without a vector (reindex will add it): %v", err)
		_ = s.enqueueReindex(ctx)
	}
	now := s.now()
	normHash := store.Digest(normalize(f.Text))

	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, cur := s.current(); cur != idx {
		vec, idx = nil, cur // the embedder changed meanwhile; the reindex it queued adds the vector
	}
	var res written
	var ch indexChanges
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, ch = written{}, indexChanges{}
		if idem != nil {
			var id string
			err := tx.QueryRowContext(ctx, `SELECT memory_id FROM memory_job_writes WHERE job_id = ? AND candidate = ?`, idem.job, idem.candidate).Scan(&id)
			if err == nil {
				res.Action, res.Memory.ID = "skipped", id
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_profiles(name, created_at) VALUES (?, ?)`, f.Profile, ts(now)); err != nil {
			return err
		}
		if err := s.place(ctx, tx, f, status, sensitive, note, normHash, vec, idx, now, &res, &ch); err != nil {
			return err
		}
		if idem != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO memory_job_writes(job_id, candidate, memory_id) VALUES (?, ?, ?)`, idem.job, idem.candidate, res.Memory.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return written{}, fmt.Errorf("write memory: %w", err)
	}
	s.applyIndex(ctx, &ch)
	return res, nil
}

// place decides, inside the transaction, whether f reinforces a memory or is new.
func (s *Store) place(ctx context.Context, tx *sql.Tx, f fact, status Status, sensitive bool, note, normHash string,
	vec []float32, idx *index, now time.Time, res *written, ch *indexChanges) error {
	old, conflicts, err := matchFact(ctx, tx, f, normHash, vec, idx)
	if err != nil {
		return err
	}
	if old != nil {
		return s.reinforce(ctx, tx, *old, f, status, vec, now, res, ch)
	}
	m := Memory{ID: s.cfg.NewID(), Profile: f.Profile, Layer: f.Layer, Status: status, Key: f.Key, Value: f.Value, Text: f.Text,
		Category: f.Category, Confidence: f.Confidence, AssertedBy: f.AssertedBy, Origin: f.Origin, Sensitive: sensitive,
		SessionID: f.SessionID, SourceMessageIDs: f.Sources, Replaces: append(conflicts, f.Supersedes...), Note: note,
		CreatedAt: now, UpdatedAt: now, LastConfirmedAt: now, ValidUntil: f.ValidUntil}
	return s.placeNew(ctx, tx, m, normHash, vec, now, res, ch)
}

// matchFact finds the memory f restates, in order: (1) the same text again;
// (2) the same key with the same value; (3) nearly the same text, by meaning
// as far as the embedder knows. Else it returns the memories f contradicts:
// the same key with another value, or (2b) the same statement with a new
// value ("my locker code is 9902" after "…4411": values are facts, so it
// replaces the older one, never merges).
func matchFact(ctx context.Context, tx *sql.Tx, f fact, normHash string, vec []float32, idx *index) (*Memory, []string, error) {
	if same, err := sameText(ctx, tx, f, normHash); err != nil || same != nil {
		return same, nil, err
	}
	old, conflicts, err := sameKey(ctx, tx, f)
	if err != nil || old != nil {
		return old, nil, err
	}
	if f.Layer != LayerWorking && len(conflicts) == 0 {
		if conflicts, err = newValues(ctx, tx, f); err != nil {
			return nil, nil, err
		}
	}
	if len(conflicts) == 0 && len(f.Supersedes) == 0 && vec != nil {
		near, err := nearlySame(ctx, tx, f, vec, idx)
		if err != nil || near != nil {
			return near, nil, err
		}
	}
	return nil, conflicts, nil
}

// sameText is the memory with f's text (normHash) in its layer, if any.
func sameText(ctx context.Context, tx *sql.Tx, f fact, normHash string) (*Memory, error) {
	durable := `m.layer IN ('fact', 'profile')`
	args := []any{f.Profile, normHash}
	if f.Layer == LayerWorking {
		durable = `m.layer = 'working' AND m.session_id = ?`
		args = append(args, f.SessionID)
	}
	same, err := queryMemories(ctx, tx, `m.profile = ? AND m.norm_hash = ? AND `+durable+` AND m.status IN ('active', 'pending', 'archived')
		ORDER BY m.status = 'active' DESC LIMIT 1`, args...)
	if err != nil || len(same) != 1 {
		return nil, err
	}
	return &same[0], nil
}

// sameKey is the active memory with f's key that says f's value, or the ids
// of those with the key that say another.
func sameKey(ctx context.Context, tx *sql.Tx, f fact) (*Memory, []string, error) {
	if f.Key == "" || f.Layer == LayerWorking {
		return nil, nil, nil
	}
	olds, err := queryMemories(ctx, tx, `m.profile = ? AND m.key_hash = ? AND m.status = 'active' AND m.layer IN ('fact', 'profile')`,
		f.Profile, keyHash(f.Profile, f.Key))
	if err != nil {
		return nil, nil, err
	}
	var conflicts []string
	for i, old := range olds {
		// An old memory without a value (the user edited it) restates the fact when
		// its text says the value.
		if f.Value != "" && (normalize(old.Value) == normalize(f.Value) || (old.Value == "" && saysValue(old.Text, f.Value))) {
			return &olds[i], nil, nil
		}
		conflicts = append(conflicts, old.ID)
	}
	return nil, conflicts, nil
}

// newValues are the active memories that make f's statement with another
// value.
func newValues(ctx context.Context, tx *sql.Tx, f fact) ([]string, error) {
	if _, vals := skeleton(f.Text); len(vals) == 0 {
		return nil, nil
	}
	olds, err := queryMemories(ctx, tx, `m.profile = ? AND m.status = 'active' AND m.layer IN ('fact', 'profile') AND m.text LIKE ? ESCAPE '\'`,
		f.Profile, likeSkeleton(f.Text))
	if err != nil {
		return nil, err
	}
	var conflicts []string
	for _, old := range olds {
		if sameSubjectNewValue(old.Text, f.Text) {
			conflicts = append(conflicts, old.ID)
		}
	}
	return conflicts, nil
}

// nearlySame is an active memory of f's layer whose meaning is nearly f's
// (and that does not give its subject a new value), if any.
func nearlySame(ctx context.Context, tx *sql.Tx, f fact, vec []float32, idx *index) (*Memory, error) {
	hits, err := idx.query(ctx, f.Profile, vec, 3)
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		if h.Sim < nearDuplicate {
			break
		}
		near, err := queryMemories(ctx, tx, `m.id = ? AND m.status = 'active'`, h.ID)
		if err != nil {
			return nil, err
		}
		if len(near) == 1 && !sameSubjectNewValue(near[0].Text, f.Text) && (near[0].Layer == LayerWorking) == (f.Layer == LayerWorking) &&
			(near[0].Key == "" || f.Key == "" || near[0].Key == f.Key) &&
			(f.Layer != LayerWorking || near[0].SessionID == f.SessionID) {
			return &near[0], nil
		}
	}
	return nil, nil
}

// placeNew writes m as a new memory; an active one is indexed and takes the
// place of those it replaces.
func (s *Store) placeNew(ctx context.Context, tx *sql.Tx, m Memory, normHash string, vec []float32, now time.Time, res *written, ch *indexChanges) error {
	if m.SourceMessageIDs == nil {
		m.SourceMessageIDs = []string{}
	}
	replaces := m.Replaces
	rid, err := insertMemory(ctx, tx, m, normHash)
	if err != nil {
		return err
	}
	m.rid = rid
	if vec != nil {
		emb, _ := s.current()
		if err := putVector(ctx, tx, rid, emb.Name(), vec); err != nil {
			return err
		}
	}
	res.Action = "pending"
	if m.Status == StatusActive {
		res.Action = "added"
		if err := ftsInsert(ctx, tx, rid, m.Profile, m.Text, m.Key); err != nil {
			return err
		}
		ch.put(m.Profile, m.ID, vec)
		if res.Superseded, err = s.supersede(ctx, tx, m, replaces, now, ch); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET replaces = '[]' WHERE rid = ?`, rid); err != nil {
			return err
		}
		m.Replaces = nil
	}
	res.Memory = m
	return nil
}

// reinforce makes old stronger because f restates it: confidence grows, the decay
// clock restarts, the new source is added; an archived memory comes back, and a
// pending one is activated when the restatement itself would be active.
func (s *Store) reinforce(ctx context.Context, tx *sql.Tx, old Memory, f fact, status Status, vec []float32, now time.Time, res *written, ch *indexChanges) error {
	sources := old.SourceMessageIDs
	for _, id := range f.Sources {
		if !slices.Contains(sources, id) {
			sources = append(sources, id)
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE memories SET confidence = ?, last_confirmed_at = ?, updated_at = ?, source_messages = ? WHERE rid = ?`,
		reinforced(old.Confidence), ts(now), ts(now), jsonList(sources), old.rid)
	if err != nil {
		return err
	}
	res.Action = "reinforced"
	if old.Status == StatusArchived || (old.Status == StatusPending && status == StatusActive) {
		if vec != nil && s.vectorOf(ctx, tx, old.rid) == nil {
			emb, _ := s.current()
			if err := putVector(ctx, tx, old.rid, emb.Name(), vec); err != nil {
				return err
			}
		}
		if res.Superseded, err = s.activate(ctx, tx, old, now, ch); err != nil {
			return err
		}
		old.Status = StatusActive
	}
	old.Confidence, old.LastConfirmedAt, old.UpdatedAt, old.SourceMessageIDs = reinforced(old.Confidence), now, now, sources
	res.Memory = old
	return nil
}

func insertMemory(ctx context.Context, tx *sql.Tx, m Memory, normHash string) (int64, error) {
	r, err := tx.ExecContext(ctx, `INSERT INTO memories(id, ref, profile, layer, status, key, key_hash, value, text, norm_hash, category,
		confidence, asserted_by, origin, sensitive, session_id, source_messages, replaces, note, created_at, updated_at, valid_until, last_confirmed_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, nullStr(m.Ref), m.Profile, m.Layer, m.Status, m.Key, keyHash(m.Profile, m.Key), m.Value, m.Text, normHash, m.Category,
		m.Confidence, m.AssertedBy, m.Origin, m.Sensitive, nullStr(m.SessionID), jsonList(m.SourceMessageIDs), jsonList(m.Replaces), m.Note,
		ts(m.CreatedAt), ts(m.UpdatedAt), nullTS(m.ValidUntil), ts(m.LastConfirmedAt))
	if err != nil {
		return 0, err
	}
	return r.LastInsertId()
}

func putVector(ctx context.Context, tx *sql.Tx, rid int64, embedder string, vec []float32) error {
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO memory_embeddings(memory_rid, embedder, dim, vec) VALUES (?, ?, ?, ?)`,
		rid, embedder, len(vec), vector.Encode(vec))
	return err
}
