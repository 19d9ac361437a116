package memory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"hermes/backend/store"
	"hermes/backend/text"
)

// Erasure is a product promise. One transaction removes the memories, their
// lexical index rows, vectors, history, older (superseded) versions, job rows and
// recall-log entries, and leaves a content-free tombstone; then the vector index
// forgets them, and the WAL is checkpointed and truncated. The lexical index runs
// with secure-delete, and is merged when a term would otherwise linger without any
// document; secure_delete zeroes the freed pages. A receipt re-runs lexical and
// vector search for what was erased.

// Receipt proves an erase.
type Receipt struct {
	TombstoneID string    `json:"tombstone_id"`
	At          time.Time `json:"at"`
	Kind        string    `json:"kind"`  // id, session, profile, session-ended, rejected, undo
	Count       int       `json:"count"` // memories erased, older versions included
	// OlderVersions is how many of Count were older versions of the memories
	// named (what a restated or edited fact replaced).
	OlderVersions int `json:"older_versions"`
	// LexicalMatches and VectorMatches are what a search for the erased texts still
	// finds of them afterwards: 0 when the erase is complete.
	LexicalMatches int `json:"lexical_matches"`
	VectorMatches  int `json:"vector_matches"`
	// Checkpointed is false when another process held the database open for
	// reading and the WAL could not be emptied yet: the text is gone from every
	// table and index, and a background retry scrubs the file and records it.
	Checkpointed bool `json:"checkpointed"`
}

// Summary says in one line what the receipt proves.
func (r Receipt) Summary() string {
	what := plural(r.Count-r.OlderVersions, "memory", "memories")
	if r.OlderVersions > 0 {
		what += " and " + plural(r.OlderVersions, "older version", "older versions")
	}
	s := fmt.Sprintf("forgot %s (receipt %s): a new search finds %d lexical and %d vector matches of the erased text", what, r.TombstoneID, r.LexicalMatches, r.VectorMatches)
	if !r.Checkpointed {
		s += "; erased from the index, waiting to scrub the file (another Hermes process is reading the database; it is retried in the background)"
	}
	return s
}

// Tombstone is what remains of an erase.
type Tombstone struct {
	ID    string    `json:"id"`
	At    time.Time `json:"at"`
	Count int       `json:"count"`
	Kind  string    `json:"kind"`
}

// Forget erases memories by id (or ref), with their older versions.
func (s *Store) Forget(ctx context.Context, ids ...string) (Receipt, error) {
	if len(ids) == 0 {
		return Receipt{}, fmt.Errorf("forget: %w: no memory ids", ErrInvalid)
	}
	var rids []any
	for _, id := range ids {
		m, err := lookup(ctx, s.db, id)
		if err != nil {
			return Receipt{}, fmt.Errorf("forget: %w", err)
		}
		rids = append(rids, m.rid)
	}
	// Many ids are erased in batches, each its own short transaction, under one
	// receipt: another process's writes get in between.
	var scopes []eraseScope
	for start := 0; start < len(rids); start += forgetBatch {
		batch := rids[start:min(start+forgetBatch, len(rids))]
		scopes = append(scopes, eraseScope{where: `rid IN (` + placeholders(len(batch)) + `)`, args: batch})
	}
	return s.erase(ctx, "id", scopes...)
}

// forgetBatch is how many memories one transaction of a bulk forget erases.
const forgetBatch = 100

// ForgetMatches is the first step of forgetting by query: it returns what matches
// (active memories found by the hybrid search above the recall threshold, and
// pending or archived ones containing the words) so the user can confirm; Forget
// with their ids erases them.
func (s *Store) ForgetMatches(ctx context.Context, profile, query string, k int) ([]Hit, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("forget by query: %w: the query is empty", ErrInvalid)
	}
	if k <= 0 {
		k = 20
	}
	profile = s.profileOr(profile)
	cands, err := s.hybrid(ctx, profile, query, max(2*k, 20))
	if err != nil {
		return nil, fmt.Errorf("forget by query: %w", err)
	}
	var hits []Hit
	for _, c := range cands {
		if len(hits) == k {
			break
		}
		if c.Status == StatusActive && c.Profile == profile && (c.lexRank > 0 || c.sim >= s.minSimilarity()) {
			hits = append(hits, Hit{MemoryID: c.ID, Ref: c.Ref, Text: c.Text, Score: c.score, Memory: c.Memory})
		}
	}
	others, err := s.List(ctx, Filter{Profile: profile, Text: query, Statuses: []Status{StatusPending, StatusArchived}, Limit: k})
	if err != nil {
		return nil, fmt.Errorf("forget by query: %w", err)
	}
	for _, m := range others {
		hits = append(hits, Hit{MemoryID: m.ID, Ref: m.Ref, Text: m.Text, Memory: m})
	}
	return hits, nil
}

// ForgetSession erases everything derived from a session: its memories (working
// and extracted), its queued jobs and its recall-log entries.
func (s *Store) ForgetSession(ctx context.Context, sessionID string) (Receipt, error) {
	if sessionID == "" {
		return Receipt{}, fmt.Errorf("forget session: %w: no session id", ErrInvalid)
	}
	return s.erase(ctx, "session", eraseScope{where: `session_id = ?`, args: []any{sessionID}, session: sessionID})
}

// EndSession erases a session's working memories; the app calls it when the
// session is archived.
func (s *Store) EndSession(ctx context.Context, sessionID string) (Receipt, error) {
	if sessionID == "" {
		return Receipt{}, fmt.Errorf("end session: %w: no session id", ErrInvalid)
	}
	return s.erase(ctx, "session-ended", eraseScope{where: `session_id = ? AND layer = 'working'`, args: []any{sessionID}})
}

// ForgetProfile erases everything in a profile.
func (s *Store) ForgetProfile(ctx context.Context, profile string) (Receipt, error) {
	if err := validProfile(profile); err != nil {
		return Receipt{}, fmt.Errorf("forget profile: %w", err)
	}
	return s.erase(ctx, "profile", eraseScope{where: `profile = ?`, args: []any{profile}, profile: profile})
}

// Tombstones lists what remains of erases, newest first.
func (s *Store) Tombstones(ctx context.Context, limit int) ([]Tombstone, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, at, count, kind FROM memory_tombstones ORDER BY at DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list tombstones: %w", err)
	}
	defer rows.Close()
	var out []Tombstone
	for rows.Next() {
		var t Tombstone
		var at string
		if err := rows.Scan(&t.ID, &at, &t.Count, &t.Kind); err != nil {
			return nil, fmt.Errorf("list tombstones: %w", err)
		}
		t.At = parseTS(at)
		out = append(out, t)
	}
	return out, rows.Err()
}

// eraseScope selects what an erase removes: memories matching where (columns of
// memories), and for a session or a profile also its jobs and recall log.
type eraseScope struct {
	where   string
	args    []any
	session string
	profile string
}

// erased is what the receipt checks afterwards (kept in memory only).
type erased struct {
	rid      int64
	id       string
	profile  string
	text     string
	key      string
	normHash string
	vec      []float32
	older    bool // an older version (superseded) of a memory in scope
}

// erase erases the scopes, each in its own transaction, under one receipt and
// tombstone. A batch that fails stops the erase; what earlier batches erased
// stays erased and the error says how many.
func (s *Store) erase(ctx context.Context, kind string, scopes ...eraseScope) (Receipt, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	now := s.now()
	r := Receipt{TombstoneID: s.cfg.NewID(), At: now, Kind: kind}
	var gone []erased
	var sc eraseScope
	var err error
	for i, scope := range scopes {
		sc = scope
		err = s.db.Tx(ctx, func(tx *sql.Tx) error {
			batch, err := s.collect(ctx, tx, sc)
			if err != nil {
				return err
			}
			if err := s.remove(ctx, tx, batch, sc); err != nil {
				return err
			}
			if i == 0 {
				_, err = tx.ExecContext(ctx, `INSERT INTO memory_tombstones(id, at, count, kind) VALUES (?, ?, ?, ?)`, r.TombstoneID, ts(now), len(batch), kind)
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE memory_tombstones SET count = count + ? WHERE id = ?`, len(batch), r.TombstoneID)
			}
			if err == nil {
				gone = append(gone, batch...)
			}
			return err
		})
		if err != nil {
			break
		}
	}
	r.Count = len(gone)
	for _, g := range gone {
		if g.older {
			r.OlderVersions++
		}
	}
	if err != nil && len(gone) == 0 {
		return Receipt{}, fmt.Errorf("forget: %w", err)
	}
	if err != nil {
		err = fmt.Errorf("forget: stopped after erasing %d memories (receipt %s): %w", len(gone), r.TombstoneID, err)
	}
	_, idx := s.current()
	byProfile := map[string][]string{}
	for _, g := range gone {
		byProfile[g.profile] = append(byProfile[g.profile], g.id)
	}
	for p, ids := range byProfile {
		idx.remove(ctx, p, ids...)
	}
	if sc.profile != "" {
		idx.dropProfile(sc.profile)
	}
	var serr error
	if r.Checkpointed, serr = s.db.Scrub(ctx, r.TombstoneID, "memory"); serr != nil {
		s.cfg.Logf("memory: %v", serr)
	}
	r.LexicalMatches, r.VectorMatches = s.verify(ctx, gone, idx)
	for p, ids := range byProfile {
		s.emit(Change{Kind: "forgotten", IDs: ids, Profile: p, SessionID: sc.session})
	}
	return r, err
}

// collect reads the memories in scope and all their older versions.
func (s *Store) collect(ctx context.Context, tx *sql.Tx, sc eraseScope) ([]erased, error) {
	emb, _ := s.current()
	rows, err := tx.QueryContext(ctx, `WITH RECURSIVE gone(id) AS (
			SELECT id FROM memories WHERE `+sc.where+`
			UNION SELECT m.id FROM memories m JOIN gone g ON m.superseded_by = g.id)
		SELECT m.rid, m.id, m.profile, m.text, m.key, m.norm_hash, m.status, e.vec, e.dim
		FROM memories m JOIN gone g ON g.id = m.id
		LEFT JOIN memory_embeddings e ON e.memory_rid = m.rid AND e.embedder = ?`, append(slices.Clip(sc.args), emb.Name())...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []erased
	for rows.Next() {
		var g erased
		var status string
		var blob []byte
		var dim sql.NullInt64
		if err := rows.Scan(&g.rid, &g.id, &g.profile, &g.text, &g.key, &g.normHash, &status, &blob, &dim); err != nil {
			return nil, err
		}
		g.older = Status(status) == StatusSuperseded
		if dim.Valid {
			g.vec, _ = decodeVec(blob, int(dim.Int64))
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// remove deletes the collected memories and everything derived from them.
func (s *Store) remove(ctx context.Context, tx *sql.Tx, gone []erased, sc eraseScope) error {
	exec := func(q string, args ...any) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	}
	// Texts whose terms may linger in the lexical index: the memories and their
	// earlier versions (an edit leaves the old terms behind too).
	var texts []string
	for _, g := range gone {
		texts = append(texts, indexText(g.text, g.key))
		rows, err := tx.QueryContext(ctx, `SELECT text, key FROM memory_history WHERE memory_rid = ?`, g.rid)
		if err != nil {
			return err
		}
		for rows.Next() {
			var t, k string
			if err := rows.Scan(&t, &k); err != nil {
				rows.Close()
				return err
			}
			texts = append(texts, indexText(t, k))
		}
		rows.Close()
	}
	for _, g := range gone {
		for _, q := range []string{
			`DELETE FROM memory_recalls WHERE memory_rid = ?`,
			`DELETE FROM memory_history WHERE memory_rid = ?`,
			`DELETE FROM memory_embeddings WHERE memory_rid = ?`,
		} {
			if err := exec(q, g.rid); err != nil {
				return err
			}
		}
		if err := exec(`DELETE FROM memory_job_writes WHERE memory_id = ?`, g.id); err != nil {
			return err
		}
		if err := ftsDelete(ctx, tx, g.rid); err != nil {
			return err
		}
		if err := exec(`DELETE FROM memories WHERE rid = ?`, g.rid); err != nil {
			return err
		}
		// A pending memory that was to replace this one no longer has to.
		if err := exec(`UPDATE memories SET replaces = (SELECT COALESCE(json_group_array(j.value), '[]') FROM json_each(memories.replaces) j WHERE j.value <> ?)
			WHERE replaces <> '[]' AND EXISTS (SELECT 1 FROM json_each(memories.replaces) j WHERE j.value = ?)`, g.id, g.id); err != nil {
			return err
		}
	}
	if sc.session != "" {
		if err := exec(`DELETE FROM memory_job_writes WHERE job_id IN (SELECT id FROM memory_jobs WHERE session_id = ?)`, sc.session); err != nil {
			return err
		}
		if err := exec(`DELETE FROM memory_jobs WHERE session_id = ?`, sc.session); err != nil {
			return err
		}
		if err := exec(`DELETE FROM memory_recalls WHERE session_id = ?`, sc.session); err != nil {
			return err
		}
	}
	if sc.profile != "" {
		if err := exec(`DELETE FROM memory_job_writes WHERE job_id IN (SELECT id FROM memory_jobs WHERE profile = ?)`, sc.profile); err != nil {
			return err
		}
		if err := exec(`DELETE FROM memory_jobs WHERE profile = ?`, sc.profile); err != nil {
			return err
		}
	}
	return store.PurgeTerms(ctx, tx, "memories_fts", texts)
}

// verify searches for the erased texts again: lexically (every word of the text)
// and by vector. A match is an erased memory still found, or another memory with
// exactly the same text.
func (s *Store) verify(ctx context.Context, gone []erased, idx *index) (lexical, vector int) {
	ids := map[string]bool{}
	rids := map[int64]bool{}
	for _, g := range gone {
		ids[g.id], rids[g.rid] = true, true
	}
	seen := map[string]bool{}
	for _, g := range gone {
		if seen[g.profile+g.normHash] {
			continue
		}
		seen[g.profile+g.normHash] = true
		if expr := text.MatchExpr(g.text); expr != "" {
			rows, err := s.db.QueryContext(ctx, `SELECT f.rowid, COALESCE(m.norm_hash, '') FROM memories_fts f LEFT JOIN memories m ON m.rid = f.rowid
				WHERE memories_fts MATCH ?`, `{body} : (`+expr+`) AND {scope} : "`+scopeToken(g.profile)+`"`)
			if err == nil {
				for rows.Next() {
					var rid int64
					var h string
					if rows.Scan(&rid, &h) == nil && (rids[rid] || h == g.normHash) {
						lexical++
					}
				}
				rows.Close()
			}
		}
		if g.vec != nil {
			hits, _ := idx.query(ctx, g.profile, g.vec, 5)
			for _, h := range hits {
				if ids[h.ID] || h.Sim >= 0.9999 {
					vector++
				}
			}
		}
	}
	return lexical, vector
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
