-- A memory imported from a conversation remembers the turn it answers (the line
-- before it, said in the same sitting): recall reads that turn's words with it
-- ("How long have you been married?" -> "5 years already!"). Only the link is
-- kept, never a copy of the other turn's text, so erasing that turn leaves
-- nothing behind (the link is cleared with it).
ALTER TABLE memories ADD COLUMN reply_to INTEGER REFERENCES memories(rid) ON DELETE SET NULL;
CREATE INDEX memories_by_reply ON memories(reply_to) WHERE reply_to IS NOT NULL;
