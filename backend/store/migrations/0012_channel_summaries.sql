-- The rolling summary of a sub-agent's channel of a conversation (the main
-- channel's is sessions.summary): each specialist's window is trimmed and
-- summarised on its own.
CREATE TABLE channel_summaries (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    channel    TEXT NOT NULL,
    summary    TEXT NOT NULL DEFAULT '',
    kind       TEXT NOT NULL DEFAULT '',
    upto       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, channel)
);
