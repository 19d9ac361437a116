-- Memory profiles (separate spaces: personal, work, …) the user made, and the
-- active one, which new conversations and commands without a profile use.
CREATE TABLE memory_profiles (
    name       TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    active     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO memory_profiles(name, created_at, active) VALUES ('personal', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 1);
INSERT OR IGNORE INTO memory_profiles(name, created_at, active)
    SELECT DISTINCT profile, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 0 FROM memories;
INSERT OR IGNORE INTO memory_profiles(name, created_at, active)
    SELECT DISTINCT profile, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 0 FROM sessions;
