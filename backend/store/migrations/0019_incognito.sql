-- An incognito chat belongs to the Hermes process that started it
-- (procid "pid:start:boot"): no search finds it, and it is erased when that
-- process closes, or by the next Hermes to open the data dir once it is gone.
ALTER TABLE sessions ADD COLUMN incognito_owner TEXT;
