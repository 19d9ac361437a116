package app

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/session"
)

// ProjectInfo is a project as the sidebar, the CLI and its dialog show it.
type ProjectInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	System string `json:"system"`
	Model  string `json:"model"`
	// Knowledge names the collections its chats may cite (nil every one, [] none).
	Knowledge     []string `json:"knowledge"`
	MemoryProfile string   `json:"memoryProfile"`
	Chats         int      `json:"chats"`
	UpdatedAt     string   `json:"updatedAt"`
}

// ProjectInput creates (ID "") or changes a project. Knowledge as in
// ChatSettingsInput: absent or null every collection, [] none, else their names.
type ProjectInput struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	System        string   `json:"system"`
	Model         string   `json:"model"`
	Knowledge     []string `json:"knowledge"`
	MemoryProfile string   `json:"memoryProfile"`
}

// ProjectDeleteReceipt says what deleting a project did to its chats.
type ProjectDeleteReceipt struct {
	Project string          `json:"project"`
	Kept    int             `json:"kept"`    // chats kept, now in no project
	Deleted []DeleteReceipt `json:"deleted"` // chats erased, one receipt each
}

func (c *Core) projectInfo(ctx context.Context, p session.Project) ProjectInfo {
	return ProjectInfo{ID: p.ID, Name: p.Name, System: p.System, Model: p.Model, Knowledge: c.kb.names(ctx, p.Knowledge),
		MemoryProfile: p.MemoryProfile, Chats: p.Chats, UpdatedAt: p.UpdatedAt}
}

// Projects lists the projects by name.
func (c *Core) Projects(ctx context.Context) ([]ProjectInfo, error) {
	list, err := c.sessions.Projects(ctx)
	out := make([]ProjectInfo, 0, len(list))
	for _, p := range list {
		out = append(out, c.projectInfo(ctx, p))
	}
	return out, err
}

// Project finds a project by id or name.
func (c *Core) Project(ctx context.Context, idOrName string) (ProjectInfo, error) {
	p, err := c.sessions.Project(ctx, idOrName)
	if err != nil {
		return ProjectInfo{}, err
	}
	return c.projectInfo(ctx, p), nil
}

// SaveProject creates or changes a project; a model must be installed and a
// collection must exist, as for a chat's own settings.
func (c *Core) SaveProject(ctx context.Context, in ProjectInput) (ProjectInfo, error) {
	if err := c.CheckChatSettings(ctx, ChatSettingsInput{System: in.System, Model: in.Model, Knowledge: in.Knowledge}); err != nil {
		return ProjectInfo{}, err
	}
	knowledge, err := c.kb.ids(ctx, in.Knowledge)
	if err != nil {
		return ProjectInfo{}, invalid(err)
	}
	p, err := c.sessions.SaveProject(ctx, session.Project{ID: in.ID, Name: in.Name, System: in.System, Model: in.Model,
		Knowledge: knowledge, MemoryProfile: strings.TrimSpace(in.MemoryProfile)})
	if err != nil {
		return ProjectInfo{}, err
	}
	return c.projectInfo(ctx, p), nil
}

// MoveToProject puts chats in a project (by id or name; "" takes them out).
func (c *Core) MoveToProject(ctx context.Context, project string, sessionIDs ...string) error {
	return c.sessions.MoveToProject(ctx, project, sessionIDs...)
}

// ProjectChats are a project's chats, newest first.
func (c *Core) ProjectChats(ctx context.Context, project string) ([]SessionInfo, error) {
	p, err := c.sessions.Project(ctx, project)
	if err != nil {
		return nil, err
	}
	ids, err := c.sessions.ProjectChats(ctx, p.ID)
	out := make([]SessionInfo, 0, len(ids))
	for _, id := range ids {
		if s, err := c.Session(ctx, id); err == nil {
			out = append(out, s)
		}
	}
	return out, err
}

// DeleteProject removes a project. Its chats stay, in no project, unless
// deleteChats: then each is erased first as DeleteSession erases it.
func (c *Core) DeleteProject(ctx context.Context, project string, deleteChats bool) (ProjectDeleteReceipt, error) {
	p, err := c.sessions.Project(ctx, project)
	if err != nil {
		return ProjectDeleteReceipt{}, err
	}
	ids, err := c.sessions.ProjectChats(ctx, p.ID)
	if err != nil {
		return ProjectDeleteReceipt{}, err
	}
	r := ProjectDeleteReceipt{Project: p.Name, Deleted: []DeleteReceipt{}}
	if deleteChats {
		for _, id := range ids {
			d, err := c.DeleteSession(ctx, id)
			if err != nil {
				return r, fmt.Errorf("delete project %s: %w", p.Name, err)
			}
			r.Deleted = append(r.Deleted, d)
		}
	} else {
		r.Kept = len(ids)
	}
	return r, c.sessions.DeleteProject(ctx, p.ID)
}

// ListProjects lists the projects (the window's sidebar).
func (a *SessionsService) ListProjects() ([]ProjectInfo, error) {
	ctx := context.Background()
	list, err := a.core.Projects(ctx)
	return list, a.core.userErr(ctx, err)
}

// SaveProject creates or changes a project from a JSON ProjectInput.
func (a *SessionsService) SaveProject(in ProjectInput) (ProjectInfo, error) {
	ctx := context.Background()
	p, err := a.core.SaveProject(ctx, in)
	return p, a.core.userErr(ctx, err)
}

// MoveToProject puts a chat in a project ("" takes it out of any).
func (a *SessionsService) MoveToProject(projectID, sessionID string) error {
	ctx := context.Background()
	return a.core.userErr(ctx, a.core.MoveToProject(ctx, projectID, sessionID))
}

// DeleteProject removes a project; with deleteChats its chats are erased too.
func (a *SessionsService) DeleteProject(projectID string, deleteChats bool) (ProjectDeleteReceipt, error) {
	ctx := context.Background()
	r, err := a.core.DeleteProject(ctx, projectID, deleteChats)
	if err == nil {
		for _, d := range r.Deleted {
			a.contexts.forget(d.SessionID)
		}
	}
	return r, a.core.userErr(ctx, err)
}
