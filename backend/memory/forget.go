package memory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"hermes/backend/retrieval"
	"hermes/backend/store"
	"hermes/backend/vector"
)

// Erasure is a product promise. One transaction removes the memories, their
// lexical index rows, vectors, history, older (superseded) versions, job rows and
// recall-log entries, and leaves a content-free tombstone (a bulk forget is a
// persisted job of such transactions under one tombstone: erasure.go); then the vector index
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

// Forget erases memories by id (or ref), with their older versions. More
// memories than one transaction erases (forgetBatch) are a bulk erasure: a job
// recorded before the first batch, finished at the next open when a crash
// interrupts it, under one receipt either way (erasure.go).
func (s *Store) Forget(ctx context.Context, ids ...string) (Receipt, error) {
	if len(ids) == 0 {
		return Receipt{}, fmt.Errorf("forget: %w: no memory ids", ErrInvalid)
	}
	mids, err := s.resolve(ctx, ids)
	if err != nil {
		return Receipt{}, fmt.Errorf("forget: %w", err)
	}
	if len(mids) <= forgetBatch {
		return s.erase(ctx, "id", idScope(mids))
	}
	e, err := s.recordErasure(ctx, "id", mids)
	if err != nil {
		return Receipt{}, err
	}
	return s.runErasure(ctx, e)
}

// forgetBatch is how many memories one transaction of a bulk forget erases.
const forgetBatch = 100

// resolve turns ids and refs into memory ids, each once, in the order given.
func (s *Store) resolve(ctx context.Context, ids []string) ([]string, error) {
	known, err := s.existing(ctx, ids)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !known[id] { // a ref, or nothing: looked up one by one
			m, err := lookup(ctx, s.db, id)
			if err != nil {
				return nil, err
			}
			id = m.ID
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// existing says which of ids are memory ids (a few hundred a query).
func (s *Store) existing(ctx context.Context, ids []string) (map[string]bool, error) {
	known := make(map[string]bool, len(ids))
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT id FROM memories WHERE id IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("find memories: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("find memories: %w", err)
			}
			known[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("find memories: %w", err)
		}
	}
	return known, nil
}

// idScope selects memories by id.
func idScope(ids []string) eraseScope {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return eraseScope{where: `id IN (` + placeholders(len(ids)) + `)`, args: args}
}

// ForgetMatches is the first step of forgetting by query: it returns what
// matches, so the user can confirm (Forget with their ids erases them): every
// active memory the lexical search finds or whose vector is at least the
// recall threshold close (the hybrid search's candidates above that
// threshold), best first, then every pending or archived one containing the
// words. limit > 0 keeps the first limit of them; limit <= 0 keeps all.
func (s *Store) ForgetMatches(ctx context.Context, profile, query string, limit int) ([]Hit, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("forget by query: %w: the query is empty", ErrInvalid)
	}
	profile = s.profileOr(profile)
	hits, err := s.activeMatches(ctx, profile, query)
	if err != nil {
		return nil, fmt.Errorf("forget by query: %w", err)
	}
	others, err := s.inactiveMatches(ctx, profile, query)
	if err != nil {
		return nil, fmt.Errorf("forget by query: %w", err)
	}
	hits = append(hits, others...)
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// activeMatches are the active memories of profile the query matches:
// lexical matches by BM25, then vector matches by similarity.
func (s *Store) activeMatches(ctx context.Context, profile, query string) ([]Hit, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories WHERE profile = ?`, profile).Scan(&total); err != nil {
		return nil, err
	}
	if total == 0 {
		return nil, nil
	}
	a := s.analyze(ctx, query, s.now())
	lex, err := s.lexical(ctx, profile, a.fts, total)
	if err != nil {
		return nil, err
	}
	_, idx := s.current()
	vec := s.vectorSearch(ctx, profile, query, max(idx.count(profile), 1))
	order := make([]string, 0, len(lex)+len(vec)) // "r<rid>" or "i<id>", best first
	score := map[string]float64{}
	var rids []int64
	for _, h := range lex {
		k := fmt.Sprintf("r%d", h.rid)
		order, score[k], rids = append(order, k), h.score, append(rids, h.rid)
	}
	var ids []string
	for _, h := range vec {
		if h.Sim < s.minSimilarity() {
			break // best first: the rest are further away
		}
		k := "i" + h.ID
		order, score[k], ids = append(order, k), h.Sim, append(ids, h.ID)
	}
	mems, err := s.loadChunked(ctx, rids, ids)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]Memory, len(mems))
	for _, m := range mems {
		byKey[fmt.Sprintf("r%d", m.rid)], byKey["i"+m.ID] = m, m
	}
	seen := map[string]bool{}
	var hits []Hit
	for _, k := range order {
		m, ok := byKey[k]
		if !ok || seen[m.ID] || m.Status != StatusActive || m.Profile != profile {
			continue
		}
		seen[m.ID] = true
		hits = append(hits, Hit{MemoryID: m.ID, Ref: m.Ref, Text: m.Text, Score: score[k], Memory: m})
	}
	return hits, nil
}

// loadChunked is loadMany a few hundred at a time (SQLite caps a query's parameters).
func (s *Store) loadChunked(ctx context.Context, rids []int64, ids []string) ([]Memory, error) {
	const chunk = 500
	var out []Memory
	for start := 0; start < len(rids); start += chunk {
		ms, err := s.loadMany(ctx, rids[start:min(start+chunk, len(rids))], nil)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	for start := 0; start < len(ids); start += chunk {
		ms, err := s.loadMany(ctx, nil, ids[start:min(start+chunk, len(ids))])
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// inactiveMatches are the pending and archived memories of profile whose text
// contains the query, newest first.
func (s *Store) inactiveMatches(ctx context.Context, profile, query string) ([]Hit, error) {
	const page = 1000 // List's most
	var hits []Hit
	for offset := 0; ; offset += page {
		ms, err := s.List(ctx, Filter{Profile: profile, Text: query, Statuses: []Status{StatusPending, StatusArchived}, Limit: page, Offset: offset})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			hits = append(hits, Hit{MemoryID: m.ID, Ref: m.Ref, Text: m.Text, Memory: m})
		}
		if len(ms) < page {
			return hits, nil
		}
	}
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

// erase erases one scope in one transaction, with its tombstone.
func (s *Store) erase(ctx context.Context, kind string, sc eraseScope) (Receipt, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	r := Receipt{TombstoneID: s.cfg.NewID(), At: s.now(), Kind: kind}
	var gone []erased
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if gone, err = s.eraseIn(ctx, tx, sc); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO memory_tombstones(id, at, count, kind) VALUES (?, ?, ?, ?)`, r.TombstoneID, ts(r.At), len(gone), kind)
		return err
	})
	if err != nil {
		return Receipt{}, fmt.Errorf("forget: %w", err)
	}
	r.Count, r.OlderVersions = len(gone), olderOf(gone)
	return s.afterErase(ctx, r, gone, sc), nil
}

// eraseIn collects and removes what sc selects, inside tx.
func (s *Store) eraseIn(ctx context.Context, tx *sql.Tx, sc eraseScope) ([]erased, error) {
	gone, err := s.collect(ctx, tx, sc)
	if err != nil {
		return nil, err
	}
	return gone, s.remove(ctx, tx, gone, sc)
}

// olderOf counts the older versions among gone.
func olderOf(gone []erased) int {
	n := 0
	for _, g := range gone {
		if g.older {
			n++
		}
	}
	return n
}

// afterErase follows committed erasures: the vector index forgets them, the
// WAL is checkpointed, the receipt re-runs the searches, and the UI is told.
func (s *Store) afterErase(ctx context.Context, r Receipt, gone []erased, sc eraseScope) Receipt {
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
	var err error
	if r.Checkpointed, err = s.db.Scrub(ctx, r.TombstoneID, "memory"); err != nil {
		s.cfg.Logf("memory: %v", err)
	}
	r.LexicalMatches, r.VectorMatches = s.verify(ctx, gone, idx)
	for p, ids := range byProfile {
		s.emit(Change{Kind: "forgotten", IDs: ids, Profile: p, SessionID: sc.session})
	}
	return r
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
			g.vec, _ = vector.Decode(blob, int(dim.Int64))
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
	for start := 0; start < len(gone); start += removeChunk {
		chunk := gone[start:min(start+removeChunk, len(gone))]
		older, err := historyTexts(ctx, tx, chunk)
		if err != nil {
			return err
		}
		for _, g := range chunk {
			texts = append(texts, indexText(g.text, g.key))
		}
		texts = append(texts, older...)
		if err := removeChunkRows(ctx, tx, chunk); err != nil {
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

// removeChunk is how many memories one statement of remove names (SQLite caps
// a statement's parameters).
const removeChunk = 500

// historyTexts are the earlier versions' index texts of the memories in chunk.
func historyTexts(ctx context.Context, tx *sql.Tx, chunk []erased) ([]string, error) {
	rids := make([]any, len(chunk))
	for i, g := range chunk {
		rids[i] = g.rid
	}
	rows, err := tx.QueryContext(ctx, `SELECT text, key FROM memory_history WHERE memory_rid IN (`+placeholders(len(rids))+`)`, rids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t, k string
		if err := rows.Scan(&t, &k); err != nil {
			return nil, err
		}
		out = append(out, indexText(t, k))
	}
	return out, rows.Err()
}

// removeChunkRows deletes the memories of chunk with their recall-log entries,
// history, vectors, job write keys and lexical index rows, and takes them off
// the pending memories that were to replace them.
func removeChunkRows(ctx context.Context, tx *sql.Tx, chunk []erased) error {
	rids := make([]any, len(chunk))
	ids := make([]any, len(chunk))
	ridList := make([]int64, len(chunk))
	for i, g := range chunk {
		rids[i], ids[i], ridList[i] = g.rid, g.id, g.rid
	}
	in := `(` + placeholders(len(chunk)) + `)`
	steps := []struct {
		q    string
		args []any
	}{
		{`DELETE FROM memory_recalls WHERE memory_rid IN ` + in, rids},
		{`DELETE FROM memory_history WHERE memory_rid IN ` + in, rids},
		{`DELETE FROM memory_embeddings WHERE memory_rid IN ` + in, rids},
		{`DELETE FROM memory_job_writes WHERE memory_id IN ` + in, ids},
	}
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
			return err
		}
	}
	if err := ftsDelete(ctx, tx, ridList...); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE rid IN `+in, rids...); err != nil {
		return err
	}
	// A pending memory that was to replace one of these no longer has to.
	_, err := tx.ExecContext(ctx, `UPDATE memories SET replaces = (SELECT COALESCE(json_group_array(j.value), '[]') FROM json_each(memories.replaces) j WHERE j.value NOT IN `+in+`)
		WHERE replaces <> '[]' AND EXISTS (SELECT 1 FROM json_each(memories.replaces) j WHERE j.value IN `+in+`)`, append(ids, ids...)...)
	return err
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
		if expr := retrieval.MatchAll(g.text); expr != "" {
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
