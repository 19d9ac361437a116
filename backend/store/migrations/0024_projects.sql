-- Projects: a named group of conversations with defaults for them (a system
-- prompt, a model, the knowledge collections they may cite, a memory profile).
-- A chat's own settings win over its project's. Deleting a project keeps its
-- chats unless the user chose to delete them too (the app erases those first).
CREATE TABLE projects (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    system         TEXT NOT NULL DEFAULT '',
    model          TEXT NOT NULL DEFAULT '',
    knowledge      TEXT NOT NULL DEFAULT '',  -- as session_settings.knowledge: '' every collection, '[]' none, '[1,3]'
    memory_profile TEXT NOT NULL DEFAULT '',  -- '' the active profile
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE UNIQUE INDEX projects_by_name ON projects(name COLLATE NOCASE);
ALTER TABLE sessions ADD COLUMN project_id TEXT REFERENCES projects(id) ON DELETE SET NULL;
CREATE INDEX sessions_by_project ON sessions(project_id) WHERE project_id IS NOT NULL;
