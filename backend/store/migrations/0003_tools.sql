-- Tools: the audit log of every tool call, and approvals the user gave "for this session".

-- One row per tool call the model (or the user) asked for, whatever happened to it.
-- arguments are stored with secret values redacted (backend/tools/redact.go).
CREATE TABLE tool_calls (
    id              INTEGER PRIMARY KEY,
    request_id      TEXT NOT NULL,              -- the turn (or CLI command) that made the call
    session_id      TEXT,                       -- NULL outside a session (e.g. `hermes mcp call`)
    call_id         TEXT NOT NULL DEFAULT '',   -- the model's id for the call, when it gave one
    tool            TEXT NOT NULL,
    arguments       TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('ok', 'error', 'denied', 'blocked', 'timeout', 'cancelled')),
    error_kind      TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    latency_us      INTEGER NOT NULL,
    breaker         TEXT NOT NULL DEFAULT '',   -- closed, half-open, open: the tool's breaker after the call
    definition_hash TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL               -- RFC 3339, UTC
);

CREATE INDEX tool_calls_by_tool ON tool_calls(tool, id DESC);
CREATE INDEX tool_calls_by_session ON tool_calls(session_id, id DESC);

-- "Allow for this session": bound to the tool's definition hash, so a changed tool asks again.
CREATE TABLE tool_approvals (
    session_id      TEXT NOT NULL,
    tool            TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    granted_at      TEXT NOT NULL,
    PRIMARY KEY (session_id, tool)
);

-- Deleting a session erases its tool calls (their arguments may hold personal data)
-- and its approvals. A trigger rather than a foreign key, so a call made under an id
-- the sessions table does not know (a CLI request) is still audited.
CREATE TRIGGER tool_rows_follow_session AFTER DELETE ON sessions
BEGIN
    DELETE FROM tool_calls WHERE session_id = OLD.id;
    DELETE FROM tool_approvals WHERE session_id = OLD.id;
END;
