-- What a stored message keeps of its turn beyond its text, as JSON written by the agent:
-- a tool message's (redacted) arguments, exact outcome and latency; a reply's loop-guard
-- stop and unverified-claim flag. '' when there is nothing to keep.
ALTER TABLE messages ADD COLUMN details TEXT NOT NULL DEFAULT '';
