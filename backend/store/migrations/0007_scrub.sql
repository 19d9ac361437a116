-- Deleting a conversation reaches the disk: the message index drops a deleted
-- row's entries at once (secure-delete), and its vocabulary shows when a term is
-- left without documents, so the index is merged and the term's bytes go too.
INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1);
CREATE VIRTUAL TABLE messages_fts_vocab USING fts5vocab(messages_fts, 'row');

-- Erasures whose WAL checkpoint could not run yet (another process held a read
-- transaction): the text is gone from the tables and indexes but may still be in
-- the WAL file until a checkpoint. A background retry scrubs and records it.
CREATE TABLE pending_scrubs (
    id      TEXT PRIMARY KEY,            -- the erasure's receipt / tombstone id
    kind    TEXT NOT NULL,               -- memory | session
    at      TEXT NOT NULL,
    done_at TEXT
);
