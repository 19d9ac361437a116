-- A bulk erasure (forgetting more memories than one transaction erases) is a
-- job: its memory ids are recorded with its tombstone before the first batch,
-- each batch's transaction erases the next ids, drops them from the job and
-- counts them, and the last one deletes the job. An erasure a crash or an error
-- interrupted is finished at the next open under the same receipt. Only ids are
-- kept, never a memory's text nor the query that found them.
CREATE TABLE memory_erasures (
    id     TEXT PRIMARY KEY,           -- the receipt's (and tombstone's) id
    kind   TEXT NOT NULL,              -- the receipt's kind: id, ...
    at     TEXT NOT NULL,              -- when it was asked for
    total  INTEGER NOT NULL,           -- memory ids recorded
    done   INTEGER NOT NULL DEFAULT 0, -- ids handled so far
    erased INTEGER NOT NULL DEFAULT 0, -- memories erased so far, older versions included
    older  INTEGER NOT NULL DEFAULT 0  -- of which older versions
);

CREATE TABLE memory_erasure_items (
    erasure_id TEXT NOT NULL REFERENCES memory_erasures(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,       -- 0-based, the order of erasure
    memory_id  TEXT NOT NULL,
    PRIMARY KEY (erasure_id, seq)
) WITHOUT ROWID;
