-- rev counts every change to a session's messages (insert, edit, delete, from any
-- process), so a copy of the messages read at rev R is current while rev is R.
ALTER TABLE sessions ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER messages_rev_insert AFTER INSERT ON messages
BEGIN
    UPDATE sessions SET rev = rev + 1 WHERE id = NEW.session_id;
END;

CREATE TRIGGER messages_rev_update AFTER UPDATE ON messages
BEGIN
    UPDATE sessions SET rev = rev + 1 WHERE id IN (OLD.session_id, NEW.session_id);
END;

CREATE TRIGGER messages_rev_delete AFTER DELETE ON messages
BEGIN
    UPDATE sessions SET rev = rev + 1 WHERE id = OLD.session_id;
END;

-- Messages whose search row is still to be written. A user's message commits without
-- it, so the commit that runs beside the request to the model stays short; the row
-- is written in the reply's transaction, or by the next search, which drains this
-- table first.
CREATE TABLE search_backlog (message_rowid INTEGER PRIMARY KEY);

CREATE TRIGGER search_backlog_follows_messages AFTER DELETE ON messages
BEGIN
    DELETE FROM search_backlog WHERE message_rowid = OLD.rowid;
END;
