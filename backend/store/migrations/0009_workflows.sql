-- Workflows: runs of multi-step tasks and the state of each step, committed at
-- every change, so a failed or interrupted run resumes where it stopped.

CREATE TABLE workflow_runs (
    id               TEXT PRIMARY KEY,
    workflow         TEXT NOT NULL,
    kind             TEXT NOT NULL DEFAULT 'declared' CHECK (kind IN ('declared', 'plan')),
    -- a run started from a conversation is part of it: deleting the session deletes its runs
    session_id       TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    status           TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'cancelled', 'interrupted')),
    inputs           TEXT NOT NULL,
    definition       TEXT NOT NULL,            -- the workflow as it was at the start (JSON); a resume runs it
    error            TEXT NOT NULL DEFAULT '',
    owner            TEXT NOT NULL DEFAULT '', -- the process running it (backend/procid); a dead owner's run is interrupted
    cancel_requested INTEGER NOT NULL DEFAULT 0, -- `hermes workflow cancel` from another process
    created_at       TEXT NOT NULL,            -- RFC 3339, UTC
    updated_at       TEXT NOT NULL,
    finished_at      TEXT
);

CREATE INDEX workflow_runs_by_created ON workflow_runs(created_at DESC);
CREATE INDEX workflow_runs_by_session ON workflow_runs(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX workflow_runs_running ON workflow_runs(status) WHERE status = 'running';

CREATE TABLE workflow_steps (
    run_id      TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    step_id     TEXT NOT NULL,
    position    INTEGER NOT NULL,              -- order in the definition
    phase       INTEGER NOT NULL,
    phase_name  TEXT NOT NULL,
    tool        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled', 'skipped')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    args        TEXT NOT NULL DEFAULT '',      -- the last attempt's arguments, secrets redacted
    result      TEXT,                          -- JSON, when done
    error       TEXT NOT NULL DEFAULT '',
    error_kind  TEXT NOT NULL DEFAULT '',
    interrupted INTEGER NOT NULL DEFAULT 0,    -- stopped while it ran: its effects are unknown
    started_at  TEXT,
    finished_at TEXT,
    PRIMARY KEY (run_id, step_id)
) WITHOUT ROWID;
