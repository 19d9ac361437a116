-- Documents attached to a user message: the file's name and kind and the text
-- taken from it (the prompt builder fits it, whole or in chunks). message_id is
-- NULL while the document waits for its message to be sent; such rows are
-- removed after a day. Deleting the message (a turn, a conversation) deletes
-- its documents.
CREATE TABLE documents (
    id         TEXT PRIMARY KEY,
    message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    content    TEXT NOT NULL,
    chars      INTEGER NOT NULL,
    tokens     INTEGER NOT NULL,
    created_at TEXT NOT NULL
);

CREATE INDEX documents_by_message ON documents(message_id);
