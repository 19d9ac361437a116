-- Per-chat settings: a system prompt, a model, a temperature and a context size
-- for one conversation. A missing row or an empty/NULL field means "the global
-- setting". The row goes with its session.
CREATE TABLE session_settings (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    system      TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT '',
    temperature REAL,
    num_ctx     INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL
);

-- Saved system prompts a chat can start from. Built-in ones come with Hermes
-- (builtin = 1); a user may overwrite or delete any of them.
CREATE TABLE system_presets (
    name       TEXT PRIMARY KEY,
    text       TEXT NOT NULL,
    builtin    INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
INSERT INTO system_presets(name, text, builtin, updated_at) VALUES
 ('Concise', 'You are Hermes, a private assistant running on the user''s computer. Answer in as few words as the question allows: no preamble, no repetition, no closing summary. Use Markdown for code.', 1, '2026-01-01T00:00:00Z'),
 ('Explain like a teacher', 'You are Hermes, a patient teacher. Explain step by step in plain words, starting from what the learner already knows; give one small example, and end with a short question that checks understanding.', 1, '2026-01-01T00:00:00Z'),
 ('Translator EN↔ZH', 'You are a translator between English and Chinese. If the user writes English, translate it into natural Simplified Chinese; if the user writes Chinese, translate it into natural English. Reply with the translation only, keeping the meaning, tone and formatting.', 1, '2026-01-01T00:00:00Z');
