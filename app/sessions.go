package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"hermes/backend/session"
)

// SessionsService is the conversations as the window and web mode call them
// (the sidebar, search, projects, export, imports from other assistants): one
// bound service of its own beside App, which keeps the chat itself.
//
//bindgen:bound
type SessionsService struct {
	core     *Core
	desk     *desktopHooks
	reqs     *inflight // an import runs as a request the page can stop
	emit     func(name string, data any)
	contexts *liveContexts // a deleted chat's report goes with it
}

// SearchSessions finds messages across every conversation, archived ones included.
func (a *SessionsService) SearchSessions(query string) ([]SearchHit, error) {
	ctx := context.Background()
	if strings.TrimSpace(query) == "" {
		return []SearchHit{}, nil
	}
	hits, err := a.core.SearchSessions(ctx, query, 30)
	if err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	return ToSearchHits(hits), nil
}

// RenameSession sets a conversation's title.
func (a *SessionsService) RenameSession(id, title string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.RenameSession(ctx, id, title); err != nil {
		return SessionInfo{}, a.core.userErr(ctx, err)
	}
	return a.sessionInfo(ctx, id)
}

// PinSession pins or unpins a conversation.
func (a *SessionsService) PinSession(id string, pinned bool) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.PinSession(ctx, id, pinned); err != nil {
		return SessionInfo{}, a.core.userErr(ctx, err)
	}
	return a.sessionInfo(ctx, id)
}

// PinMessage pins or unpins a message; pinned messages are always offered to the model.
func (a *SessionsService) PinMessage(id string, pinned bool) error {
	ctx := context.Background()
	return a.core.userErr(ctx, a.core.sessions.PinMessage(ctx, id, pinned))
}

// ArchiveSession archives a conversation; it stays searchable and resumes on a new message.
func (a *SessionsService) ArchiveSession(id string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.ArchiveSession(ctx, id); err != nil {
		return SessionInfo{}, a.core.userErr(ctx, err)
	}
	if m, err := a.core.memoryStore(); err == nil {
		if s, err := a.core.sessions.Get(ctx, id); err == nil {
			m.EndSession(ctx, s.ID) // working memories end with the session
		}
	}
	return a.sessionInfo(ctx, id)
}

// UnarchiveSession brings an archived conversation back to the main list.
func (a *SessionsService) UnarchiveSession(id string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.sessions.Unarchive(ctx, id); err != nil {
		return SessionInfo{}, a.core.userErr(ctx, err)
	}
	return a.sessionInfo(ctx, id)
}

// ExportFormat is a format a conversation is exported in.
type ExportFormat string

// The export formats, as the export dialog offers them.
const (
	ExportMarkdown ExportFormat = "md"
	ExportHTML     ExportFormat = "html"
	ExportPDF      ExportFormat = "pdf"
	ExportJSON     ExportFormat = "json"
)

// SaveExport asks where to save a conversation's export (desktop window only) and
// writes it there; it returns the path, or "" when the user cancelled.
func (a *SessionsService) SaveExport(id string, format ExportFormat) (string, error) {
	if a.desk.saveDialog == nil {
		return "", &UserError{Message: "Saving files is only available in the desktop window; use the download link.", Code: CodeUnavailable}
	}
	var body string
	if format == ExportPDF {
		var b strings.Builder
		if err := a.core.ExportPDF(context.Background(), id, &b); err != nil {
			return "", a.core.userErr(context.Background(), err)
		}
		body = b.String()
	} else {
		var err error
		if body, err = a.ExportSession(id, format); err != nil {
			return "", err
		}
	}
	ext := ".md"
	if format == ExportJSON || format == ExportHTML || format == ExportPDF {
		ext = "." + string(format)
	}
	path, err := a.desk.saveDialog("hermes-conversation" + ext)
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		return "", &UserError{Message: fmt.Sprintf("Could not save %s: %v", path, err), Err: err}
	}
	return path, nil
}

// DeleteSession deletes a conversation for good (the UI confirms first) with
// its memories and intent corrections (Core.DeleteSession); the receipt says
// whether its text is gone from the files yet.
func (a *SessionsService) DeleteSession(id string) (DeleteReceipt, error) {
	ctx := context.Background()
	r, err := a.core.DeleteSession(ctx, id)
	if err != nil {
		return session.DeleteReceipt{}, a.core.userErr(ctx, err)
	}
	a.contexts.forget(id, r.SessionID)
	return r, nil
}

// ExportSession returns a conversation as Markdown ("md"), JSON ("json") or a
// self-contained HTML page ("html").
func (a *SessionsService) ExportSession(id string, format ExportFormat) (string, error) {
	ctx := context.Background()
	switch format {
	case "md", "markdown", "":
		md, err := a.core.sessions.ExportMarkdown(ctx, id)
		return md, a.core.userErr(ctx, err)
	case "json":
		e, err := a.core.sessions.ExportJSON(ctx, id)
		if err != nil {
			return "", a.core.userErr(ctx, err)
		}
		b, _ := json.MarshalIndent(e, "", "  ")
		return string(b), nil
	case "html":
		page, err := a.core.sessions.ExportHTML(ctx, id)
		return page, a.core.userErr(ctx, err)
	}
	return "", &UserError{Message: fmt.Sprintf("Unknown export format %q; use md, json or html.", format)}
}

// LastContext is what the model saw on the session's last turn: as reported live in
// this run of the app, or rebuilt from what the reply stored.
func (a *SessionsService) LastContext(sessionID string) (ContextReport, error) {
	if r, ok := a.contexts.get(sessionID); ok {
		return r, nil
	}
	ctx := context.Background()
	r, ok, err := a.core.storedContext(ctx, sessionID, "")
	if err != nil && !errors.Is(err, session.ErrNotFound) { // a new chat has no session yet
		return ContextReport{}, a.core.userErr(ctx, err)
	}
	if !ok {
		return ContextReport{SessionID: sessionID, Items: []ContextItem{}}, nil
	}
	return r, nil
}

func (a *SessionsService) sessionInfo(ctx context.Context, id string) (SessionInfo, error) {
	s, err := a.core.Session(ctx, id)
	return s, a.core.userErr(ctx, err)
}

// ListSessions returns the conversations, newest first.
func (a *SessionsService) ListSessions() ([]SessionInfo, error) {
	ctx := context.Background()
	list, err := a.core.ListSessions(ctx)
	return list, a.core.userErr(ctx, err)
}

// LoadSession returns a conversation with its messages.
func (a *SessionsService) LoadSession(id string) (SessionDetail, error) {
	ctx := context.Background()
	d, err := a.core.LoadSession(ctx, id)
	return d, a.core.userErr(ctx, err)
}
