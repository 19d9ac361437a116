-- Memory (backend/memory): layered facts about the user, their search index and
-- embeddings, the persisted extraction queue, what was offered to the model, and
-- content-free tombstones of what was forgotten.
--
-- Erasure is a product promise: every table that can hold memory text is listed in
-- backend/memory/forget.go, and indexes never hold text (keys and texts are looked up
-- by hashes), so deleted rows leave no copy in an index's interior pages.

CREATE TABLE memories (
    rid               INTEGER PRIMARY KEY,          -- stable rowid (the FTS rowid)
    id                TEXT NOT NULL UNIQUE,
    ref               TEXT,                         -- external id kept from an import
    profile           TEXT NOT NULL,                -- memory space: recall never crosses it
    layer             TEXT NOT NULL CHECK (layer IN ('working', 'fact', 'profile')),
    status            TEXT NOT NULL CHECK (status IN ('pending', 'active', 'archived', 'superseded')),
    key               TEXT NOT NULL DEFAULT '',     -- attribute, e.g. home.city
    key_hash          TEXT NOT NULL DEFAULT '',
    value             TEXT NOT NULL DEFAULT '',
    text              TEXT NOT NULL,
    norm_hash         TEXT NOT NULL,                -- hash of the normalized text (exact duplicates)
    category          TEXT NOT NULL DEFAULT 'other',
    confidence        REAL NOT NULL,                -- as of last_confirmed_at; decays from there
    asserted_by       TEXT NOT NULL CHECK (asserted_by IN ('user', 'model', 'tool')),
    origin            TEXT NOT NULL CHECK (origin IN ('chat', 'manual', 'import', 'tool')),
    sensitive         INTEGER NOT NULL DEFAULT 0,
    session_id        TEXT,                         -- source session (working layer: owner session)
    source_messages   TEXT NOT NULL DEFAULT '[]',   -- JSON array of message ids
    superseded_by     TEXT,                         -- id of the memory that replaced this one
    replaces          TEXT NOT NULL DEFAULT '[]',   -- pending: ids it supersedes once approved
    note              TEXT NOT NULL DEFAULT '',     -- why it waits in the inbox
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    valid_until       TEXT,
    last_confirmed_at TEXT NOT NULL
);

-- A ref is unique within a profile; commands look memories up by ref alone.
CREATE UNIQUE INDEX memories_by_ref ON memories(ref, profile) WHERE ref IS NOT NULL;
CREATE INDEX memories_by_status ON memories(profile, status, layer);
CREATE INDEX memories_by_key ON memories(profile, key_hash) WHERE key_hash <> '';
CREATE INDEX memories_by_norm ON memories(profile, norm_hash);
CREATE INDEX memories_by_session ON memories(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX memories_by_superseded ON memories(superseded_by) WHERE superseded_by IS NOT NULL;

-- Lexical index: body is the memory text segmented for CJK (session.Segment), scope
-- one token naming the profile. Contentless: the text lives only in memories.
-- secure-delete removes a deleted row's entries from the index at once.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    body,
    scope,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);

-- Which terms the index still holds: an erase that leaves a term without documents
-- merges the index so the term's bytes are gone too.
CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');

-- One vector per memory and embedder (float32 little-endian); queries compare only
-- vectors of the current embedder and dimension.
CREATE TABLE memory_embeddings (
    memory_rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    embedder   TEXT NOT NULL,
    dim        INTEGER NOT NULL,
    vec        BLOB NOT NULL,
    PRIMARY KEY (memory_rid, embedder)
);

-- Earlier versions of an edited memory.
CREATE TABLE memory_history (
    id         INTEGER PRIMARY KEY,
    memory_rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    category   TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL
);
CREATE INDEX memory_history_by_memory ON memory_history(memory_rid, id);

-- Background work: observe (extract facts from a turn) and reindex. A job whose
-- extraction succeeded keeps the candidates in result, so a resumed job writes the
-- same facts; a finished job is deleted (its payload holds conversation text).
CREATE TABLE memory_jobs (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('observe', 'reindex')),
    state      TEXT NOT NULL CHECK (state IN ('queued', 'running')),
    profile    TEXT NOT NULL DEFAULT '',
    session_id TEXT,
    payload    TEXT NOT NULL DEFAULT '{}',
    result     TEXT,
    attempts   INTEGER NOT NULL DEFAULT 0,
    not_before TEXT NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE INDEX memory_jobs_due ON memory_jobs(state, not_before, id);

-- Which candidate of a job became (or reinforced) which memory: a resumed job skips
-- what it already wrote.
CREATE TABLE memory_job_writes (
    job_id    INTEGER NOT NULL,
    candidate INTEGER NOT NULL,
    memory_id TEXT NOT NULL,
    PRIMARY KEY (job_id, candidate)
);

-- What was offered to the model, for which message: "why did it say that?".
CREATE TABLE memory_recalls (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT NOT NULL,
    session_id   TEXT,
    memory_rid   INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    rank         INTEGER NOT NULL,
    score        REAL NOT NULL,
    lexical_rank INTEGER NOT NULL,
    vector_rank  INTEGER NOT NULL,
    similarity   REAL NOT NULL,
    at           TEXT NOT NULL
);
CREATE INDEX memory_recalls_by_message ON memory_recalls(message_id);
CREATE INDEX memory_recalls_by_memory ON memory_recalls(memory_rid);
CREATE INDEX memory_recalls_by_session ON memory_recalls(session_id) WHERE session_id IS NOT NULL;

-- What remains of an erase: when, how many, and what kind of request. No content.
CREATE TABLE memory_tombstones (
    id    TEXT PRIMARY KEY,
    at    TEXT NOT NULL,
    count INTEGER NOT NULL,
    kind  TEXT NOT NULL
);
