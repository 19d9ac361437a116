-- Session lifecycle, pinning, rolling summaries, and full-text search across history.
ALTER TABLE sessions ADD COLUMN state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'idle', 'archived'));
ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN title_auto INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN summary_upto INTEGER NOT NULL DEFAULT 0;  -- last message seq the summary covers
ALTER TABLE sessions ADD COLUMN summary_kind TEXT NOT NULL DEFAULT '';    -- 'llm' or 'extractive'
ALTER TABLE sessions ADD COLUMN closed_at TEXT;

ALTER TABLE messages ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
-- kind: 'message' in a channel's own conversation; for sub-agent channels, 'routing' and
-- 'final' are the only messages the main channel sees.
ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'routing', 'final'));
ALTER TABLE messages ADD COLUMN tool_name TEXT NOT NULL DEFAULT '';

CREATE UNIQUE INDEX messages_by_ref ON messages(session_id, ref) WHERE ref IS NOT NULL;
CREATE INDEX sessions_by_state ON sessions(state, updated_at);

-- Search index over message text. CJK runs are indexed as unigrams and overlapping
-- bigrams (backend/session/segment.go), so Chinese works with the unicode61 tokenizer.
-- Contentless with contentless_delete: the text lives only in messages; deleting a
-- message deletes its index row.
CREATE VIRTUAL TABLE messages_fts USING fts5(
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Calibration of the token estimate per model, from the server's reported prompt counts.
CREATE TABLE token_calibration (
    model   TEXT PRIMARY KEY,
    ratio   REAL NOT NULL,
    samples INTEGER NOT NULL
);
