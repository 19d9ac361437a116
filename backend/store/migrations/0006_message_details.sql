-- What a stored message keeps of its turn beyond its text, as JSON written by the agent:
-- a tool message's arguments (as the audit log keeps them), exact outcome and latency;
-- a reply's loop-guard stop and unverified-claim flag. '' when there is nothing to keep.
ALTER TABLE messages ADD COLUMN details TEXT NOT NULL DEFAULT '';

-- The prompt a reply answered, by reference only (message ids, memory ranks in the
-- recall log, tokens and reasons; no text), for the context inspector. Apart from
-- messages so the conversation history a turn loads stays small.
CREATE TABLE turn_contexts (
    message_id TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    recipe     TEXT NOT NULL
);
