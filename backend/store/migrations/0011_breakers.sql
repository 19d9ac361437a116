-- A tool's open circuit breaker, shared by every Hermes process on the data dir:
-- a one-shot `hermes chat` sees a breaker another process opened, and opens one
-- the next sees.
CREATE TABLE tool_breakers (
    tool       TEXT PRIMARY KEY,
    open_until TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT ''
);
