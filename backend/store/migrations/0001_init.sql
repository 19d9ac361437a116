-- Settings: one row per key; values are validated by backend/config before they are written.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    ref        TEXT UNIQUE,
    title      TEXT NOT NULL DEFAULT '',
    profile    TEXT NOT NULL DEFAULT 'personal',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE messages (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    ref        TEXT,
    seq        INTEGER NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content    TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'cancelled', 'failed')),
    error      TEXT NOT NULL DEFAULT '',
    model      TEXT NOT NULL DEFAULT '',
    channel    TEXT NOT NULL DEFAULT 'main',
    intent     TEXT NOT NULL DEFAULT '',
    intent_confidence REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    UNIQUE (session_id, seq)
);

CREATE INDEX messages_by_session ON messages(session_id, seq);
CREATE INDEX sessions_by_updated ON sessions(updated_at DESC);
