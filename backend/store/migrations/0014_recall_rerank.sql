-- The recall log keeps every reranked candidate, offered or not, with its rerank
-- score and why it was kept or dropped ("why did it say that?" reads kept = 1).
ALTER TABLE memory_recalls ADD COLUMN kept INTEGER NOT NULL DEFAULT 1;
ALTER TABLE memory_recalls ADD COLUMN rerank REAL NOT NULL DEFAULT 0;
ALTER TABLE memory_recalls ADD COLUMN reason TEXT NOT NULL DEFAULT '';

-- Questions that name a time ("last May", "去年") look memories up by date.
CREATE INDEX memories_by_created ON memories(profile, created_at);
