package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Project groups conversations and gives them defaults: a system prompt, a
// model, the knowledge collections they may cite (as ChatSettings.Knowledge)
// and a memory profile. A chat's own settings win over its project's
// (EffectiveChatSettings).
type Project struct {
	ID            string
	Name          string
	System        string
	Model         string
	Knowledge     string
	MemoryProfile string
	Chats         int // conversations in it (not unpublished imports)
	CreatedAt     string
	UpdatedAt     string
}

// MaxProjectName is the longest project name, in characters.
const MaxProjectName = 80

// Validate checks a project's fields, with the chat settings' own rules.
func (p Project) Validate() error {
	name := strings.TrimSpace(p.Name)
	switch {
	case name == "":
		return fmt.Errorf("%w: name: give the project a name", ErrInvalid)
	case utf8.RuneCountInString(name) > MaxProjectName:
		return fmt.Errorf("%w: name: %d characters; keep it under %d", ErrInvalid, utf8.RuneCountInString(name), MaxProjectName)
	case strings.ContainsAny(name, "\r\n\t") || !utf8.ValidString(name):
		return fmt.Errorf("%w: name: one line of text, please", ErrInvalid)
	case strings.ContainsAny(p.MemoryProfile, " \t\r\n"):
		return fmt.Errorf("%w: memory profile: %q is not a profile name", ErrInvalid, p.MemoryProfile)
	}
	return ChatSettings{System: p.System, Model: p.Model, Knowledge: p.Knowledge}.Validate()
}

const projectCols = `p.id, p.name, p.system, p.model, p.knowledge, p.memory_profile, p.created_at, p.updated_at,
	(SELECT COUNT(*) FROM sessions s WHERE s.project_id = p.id AND s.import_id IS NULL)`

func scanProject(row interface{ Scan(...any) error }) (Project, error) {
	var p Project
	err := row.Scan(&p.ID, &p.Name, &p.System, &p.Model, &p.Knowledge, &p.MemoryProfile, &p.CreatedAt, &p.UpdatedAt, &p.Chats)
	return p, err
}

// Projects lists the projects by name.
func (st *Store) Projects(ctx context.Context) ([]Project, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT `+projectCols+` FROM projects p ORDER BY p.name COLLATE NOCASE`)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	defer rows.Close()
	var out []Project
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, fmt.Errorf("list projects: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Project finds a project by id or by name (any case).
func (st *Store) Project(ctx context.Context, idOrName string) (Project, error) {
	p, err := scanProject(st.db.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ? OR p.name = ? COLLATE NOCASE`,
		idOrName, strings.TrimSpace(idOrName)))
	if errors.Is(err, sql.ErrNoRows) {
		return Project{}, fmt.Errorf("project %q: %w", idOrName, ErrNotFound)
	}
	if err != nil {
		return Project{}, fmt.Errorf("project %q: %w", idOrName, err)
	}
	return p, nil
}

// SaveProject creates a project (p.ID "") or replaces one's name and defaults.
func (st *Store) SaveProject(ctx context.Context, p Project) (Project, error) {
	p.Name, p.System, p.Model = strings.TrimSpace(p.Name), strings.TrimSpace(p.System), strings.TrimSpace(p.Model)
	if err := p.Validate(); err != nil {
		return Project{}, err
	}
	now := ts(st.Now())
	var res sql.Result
	var err error
	if p.ID == "" {
		p.ID = st.NewID()
		res, err = st.db.ExecContext(ctx, `INSERT INTO projects(id, name, system, model, knowledge, memory_profile, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.ID, p.Name, p.System, p.Model, p.Knowledge, p.MemoryProfile, now, now)
	} else {
		res, err = st.db.ExecContext(ctx, `UPDATE projects SET name = ?, system = ?, model = ?, knowledge = ?, memory_profile = ?, updated_at = ?
			WHERE id = ?`, p.Name, p.System, p.Model, p.Knowledge, p.MemoryProfile, now, p.ID)
	}
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return Project{}, fmt.Errorf("%w: name: a project named %q exists already; choose another name", ErrInvalid, p.Name)
	}
	if err != nil {
		return Project{}, fmt.Errorf("save project: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Project{}, fmt.Errorf("save project %q: %w", p.ID, ErrNotFound)
	}
	return st.Project(ctx, p.ID)
}

// MoveToProject puts conversations in a project ("" takes them out of any).
// A project with a memory profile gives it to the chats moved in.
func (st *Store) MoveToProject(ctx context.Context, projectID string, sessionIDs ...string) error {
	var profile string
	if projectID != "" {
		p, err := st.Project(ctx, projectID)
		if err != nil {
			return fmt.Errorf("move to project: %w", err)
		}
		projectID, profile = p.ID, p.MemoryProfile
	}
	return st.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, id := range sessionIDs {
			res, err := tx.ExecContext(ctx, `UPDATE sessions SET project_id = NULLIF(?, ''), profile = CASE WHEN ? <> '' THEN ? ELSE profile END
				WHERE (id = ? OR ref = ?) AND incognito_owner IS NULL`, projectID, profile, profile, id, id)
			if err != nil {
				return fmt.Errorf("move to project: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return fmt.Errorf("move to project: %w: no conversation %q (an incognito chat stays out of projects)", ErrNotFound, id)
			}
		}
		return nil
	})
}

// ProjectChats are the ids of a project's conversations, newest first.
func (st *Store) ProjectChats(ctx context.Context, projectID string) ([]string, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id FROM sessions WHERE project_id = ? AND import_id IS NULL ORDER BY updated_at DESC`, projectID)
	if err != nil {
		return nil, fmt.Errorf("project chats: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// DeleteProject removes a project; its conversations stay, out of any project
// (the caller erases them first when the user chose so).
func (st *Store) DeleteProject(ctx context.Context, projectID string) error {
	res, err := st.db.ExecContext(ctx, `DELETE FROM projects WHERE id = ?`, projectID)
	if err != nil {
		return fmt.Errorf("delete project: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete project %q: %w", projectID, ErrNotFound)
	}
	return nil
}

// EffectiveChatSettings are the settings a conversation's turns run with: its
// own, with each field it leaves empty taken from its project.
func (st *Store) EffectiveChatSettings(ctx context.Context, sessionID string) (ChatSettings, error) {
	cs, err := st.ChatSettings(ctx, sessionID)
	if err != nil {
		return cs, err
	}
	var p Project
	err = st.db.QueryRowContext(ctx, `SELECT p.system, p.model, p.knowledge FROM projects p JOIN sessions s ON s.project_id = p.id WHERE s.id = ?`,
		sessionID).Scan(&p.System, &p.Model, &p.Knowledge)
	if errors.Is(err, sql.ErrNoRows) {
		return cs, nil
	}
	if err != nil {
		return cs, fmt.Errorf("chat settings: %w", err)
	}
	if cs.System == "" {
		cs.System = p.System
	}
	if cs.Model == "" {
		cs.Model = p.Model
	}
	if cs.Knowledge == "" {
		cs.Knowledge = p.Knowledge
	}
	return cs, nil
}
