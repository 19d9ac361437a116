-- A reply's reasoning, as a thinking model streams it (message.thinking). It is
-- kept with the reply, exported and erased with it, and never sent back to the
-- model in later turns.
ALTER TABLE messages ADD COLUMN thinking TEXT NOT NULL DEFAULT '';

-- Images attached to a user message ride the documents table (kind 'image'):
-- the downscaled image's bytes, its media type and size. content holds no
-- text for them. They go with their message as every document does.
ALTER TABLE documents ADD COLUMN data BLOB;
ALTER TABLE documents ADD COLUMN mime TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN height INTEGER NOT NULL DEFAULT 0;

-- A chat's Think setting: '' (the model decides), 'on', 'off', 'low', 'medium', 'high'.
ALTER TABLE session_settings ADD COLUMN think TEXT NOT NULL DEFAULT '';
