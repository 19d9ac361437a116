-- Branches of a conversation: a regenerated reply or an edited message is a new
-- version beside the old one. parent_id is the message before it on its branch
-- (NULL: the previous message of the main channel, as every message was before
-- branches; '' : none, the first); selected says which of the versions of a
-- message is shown. sessions.leaf_id is the last shown message once the
-- conversation has branched (NULL before), the parent of the next one.
ALTER TABLE messages ADD COLUMN parent_id TEXT;
ALTER TABLE messages ADD COLUMN selected INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN leaf_id TEXT;
