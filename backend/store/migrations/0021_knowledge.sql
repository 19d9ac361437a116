-- The knowledge base (backend/kb): folders and files the user added as named
-- collections, the chunks of their text with embeddings, and the chunks'
-- full-text index. Files are kept as references (path, size, time, content
-- hash), never copied. Like memories, indexes hold no text (paths are looked up
-- by hash), so erased rows leave no copy in an index's interior pages; the FTS
-- index is contentless with secure-delete.
CREATE TABLE kb_collections (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    name_hash  TEXT NOT NULL UNIQUE,
    root       TEXT NOT NULL,               -- absolute path of the folder, or of the one file
    single     INTEGER NOT NULL DEFAULT 0,  -- root is a file, not a folder
    state      TEXT NOT NULL CHECK (state IN ('scanning', 'ready')),
    created_at TEXT NOT NULL
);

CREATE TABLE kb_files (
    id            INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES kb_collections(id) ON DELETE CASCADE,
    path          TEXT NOT NULL,             -- relative to the root, '/'-separated
    path_hash     TEXT NOT NULL,
    size          INTEGER NOT NULL DEFAULT 0,
    mtime         INTEGER NOT NULL DEFAULT 0, -- unix nanoseconds when last seen
    hash          TEXT NOT NULL DEFAULT '',   -- SHA-256 of the bytes indexed
    state         TEXT NOT NULL CHECK (state IN ('pending', 'indexed', 'failed')),
    kind          TEXT NOT NULL DEFAULT '',
    reason        TEXT NOT NULL DEFAULT '',   -- a refusal's reason (document.Refused*)
    detail        TEXT NOT NULL DEFAULT '',   -- its English message
    pages         INTEGER NOT NULL DEFAULT 0,
    chunks        INTEGER NOT NULL DEFAULT 0,
    chars         INTEGER NOT NULL DEFAULT 0,
    indexed_at    TEXT
);
CREATE UNIQUE INDEX kb_files_by_path ON kb_files(collection_id, path_hash);
CREATE INDEX kb_files_pending ON kb_files(collection_id) WHERE state = 'pending';

CREATE TABLE kb_chunks (
    id        INTEGER PRIMARY KEY AUTOINCREMENT, -- the FTS rowid; never reused, so a cited id never names other text
    file_id   INTEGER NOT NULL REFERENCES kb_files(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    page      INTEGER NOT NULL DEFAULT 0,   -- 1-based; 0 for a file without pages
    heading   TEXT NOT NULL DEFAULT '',     -- the heading path, " › "-separated
    start_at  INTEGER NOT NULL,             -- rune offsets in the file's text
    end_at    INTEGER NOT NULL,
    text      TEXT NOT NULL,
    embedder  TEXT NOT NULL DEFAULT '',
    embedding BLOB
);
CREATE INDEX kb_chunks_by_file ON kb_chunks(file_id, seq);

-- body: file title, heading path and text, segmented for CJK (text.Segment);
-- scope: one token naming the collection.
CREATE VIRTUAL TABLE kb_fts USING fts5(
    body,
    scope,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO kb_fts(kb_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
INSERT INTO kb_fts(kb_fts, rank) VALUES ('secure-delete', 1);
CREATE VIRTUAL TABLE kb_fts_vocab USING fts5vocab(kb_fts, 'row');

-- A chat's knowledge: '' every collection, '[]' none, '[1,3]' those collections.
ALTER TABLE session_settings ADD COLUMN knowledge TEXT NOT NULL DEFAULT '';
