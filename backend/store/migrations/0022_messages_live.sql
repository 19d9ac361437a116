-- A conversation's message count (the sidebar, `session list`) from an index
-- alone: the live messages (not an unpublished import) by session. Without it
-- each count read every message row, long contents and their overflow pages
-- included (1,000 conversations: 7 to 28 ms of `session list`).
CREATE INDEX messages_live_by_session ON messages(session_id, import_id) WHERE import_id IS NULL;
