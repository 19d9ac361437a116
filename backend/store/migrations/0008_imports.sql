-- A long import works in short transactions, so other writers (a chat in the
-- window, `memory add` in a terminal) never wait long for it. Its rows carry the
-- import's id and stay invisible until one short final transaction publishes
-- them; an import that fails or whose process died is rolled back from these ids.
ALTER TABLE sessions ADD COLUMN import_id TEXT;
ALTER TABLE messages ADD COLUMN import_id TEXT;
CREATE INDEX messages_by_import ON messages(import_id) WHERE import_id IS NOT NULL;
CREATE INDEX sessions_by_import ON sessions(import_id) WHERE import_id IS NOT NULL;

CREATE TABLE imports (
    id           TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,  -- the importing process (backend/procid): a dead owner's import is rolled back
    started_at   TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL   -- renewed by every chunk; a stale one is abandoned too
);

-- Publishing an import changes only import_id: the publish bumps each session's
-- rev once instead of once per message.
DROP TRIGGER messages_rev_update;
CREATE TRIGGER messages_rev_update AFTER UPDATE ON messages
WHEN OLD.import_id IS NEW.import_id
BEGIN
    UPDATE sessions SET rev = rev + 1 WHERE id IN (OLD.session_id, NEW.session_id);
END;
