-- Every connection Hermes made, refused or failed to make (backend/netlog):
-- one row per UTC day, part of Hermes (ollama, mcp:<server>, tool:<name>),
-- host as named, port and outcome, with how many times and when first and
-- last. Never what was sent. Rows older than 90 days are pruned, and at most
-- 5,000 are kept.
CREATE TABLE network_log (
    id       INTEGER PRIMARY KEY,
    day      TEXT NOT NULL,              -- YYYY-MM-DD, UTC
    part     TEXT NOT NULL,
    host     TEXT NOT NULL,
    port     TEXT NOT NULL,
    outcome  TEXT NOT NULL,              -- made, refused, failed
    address  TEXT NOT NULL DEFAULT '',   -- the last address connected to or refused
    reason   TEXT NOT NULL DEFAULT '',   -- the last reason it was refused or failed
    first_at TEXT NOT NULL,
    last_at  TEXT NOT NULL,
    count    INTEGER NOT NULL,
    UNIQUE (day, part, host, port, outcome)
);

CREATE INDEX network_log_last ON network_log(last_at);
