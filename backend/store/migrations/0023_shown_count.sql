-- The sidebar and `session list` count the messages a person sees (the user's
-- messages and the replies on the shown path of the main channel), not tool
-- records, sub-agents' messages or versions not shown; the summary's arithmetic
-- keeps counting every message. One index serves both counts: the live messages
-- (not an unpublished import) by session, channel and role.
DROP INDEX messages_live_by_session;
CREATE INDEX messages_live_by_role ON messages(session_id, channel, role) WHERE import_id IS NULL;
