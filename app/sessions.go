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

// SearchSessions finds messages across every conversation, archived ones included.
func (a *App) SearchSessions(query string) ([]SearchHit, error) {
	ctx := context.Background()
	if strings.TrimSpace(query) == "" {
		return []SearchHit{}, nil
	}
	hits, err := a.core.SearchSessions(ctx, query, 30)
	if err != nil {
		return nil, a.mapErr(ctx, err)
	}
	return ToSearchHits(hits), nil
}

// RenameSession sets a conversation's title.
func (a *App) RenameSession(id, title string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.RenameSession(ctx, id, title); err != nil {
		return SessionInfo{}, a.mapErr(ctx, err)
	}
	return a.sessionInfo(ctx, id)
}

// PinSession pins or unpins a conversation.
func (a *App) PinSession(id string, pinned bool) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.PinSession(ctx, id, pinned); err != nil {
		return SessionInfo{}, a.mapErr(ctx, err)
	}
	return a.sessionInfo(ctx, id)
}

// PinMessage pins or unpins a message; pinned messages are always offered to the model.
func (a *App) PinMessage(id string, pinned bool) error {
	ctx := context.Background()
	return a.mapErr(ctx, a.core.sessions.PinMessage(ctx, id, pinned))
}

// ArchiveSession archives a conversation; it stays searchable and resumes on a new message.
func (a *App) ArchiveSession(id string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.ArchiveSession(ctx, id); err != nil {
		return SessionInfo{}, a.mapErr(ctx, err)
	}
	if m, err := a.core.memoryStore(); err == nil {
		if s, err := a.core.sessions.Get(ctx, id); err == nil {
			m.EndSession(ctx, s.ID) // working memories end with the session
		}
	}
	return a.sessionInfo(ctx, id)
}

// UnarchiveSession brings an archived conversation back to the main list.
func (a *App) UnarchiveSession(id string) (SessionInfo, error) {
	ctx := context.Background()
	if err := a.core.sessions.Unarchive(ctx, id); err != nil {
		return SessionInfo{}, a.mapErr(ctx, err)
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
func (a *App) SaveExport(id string, format ExportFormat) (string, error) {
	if a.saveDialog == nil {
		return "", &UserError{Message: "Saving files is only available in the desktop window; use the download link.", Code: CodeUnavailable}
	}
	var body string
	if format == ExportPDF {
		var b strings.Builder
		if err := a.core.ExportPDF(context.Background(), id, &b); err != nil {
			return "", a.mapErr(context.Background(), err)
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
	path, err := a.saveDialog("hermes-conversation" + ext)
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
func (a *App) DeleteSession(id string) (DeleteReceipt, error) {
	ctx := context.Background()
	r, err := a.core.DeleteSession(ctx, id)
	if err != nil {
		return session.DeleteReceipt{}, a.mapErr(ctx, err)
	}
	a.contexts.forget(id, r.SessionID)
	return r, nil
}

// ExportSession returns a conversation as Markdown ("md"), JSON ("json") or a
// self-contained HTML page ("html").
func (a *App) ExportSession(id string, format ExportFormat) (string, error) {
	ctx := context.Background()
	switch format {
	case "md", "markdown", "":
		md, err := a.core.sessions.ExportMarkdown(ctx, id)
		return md, a.mapErr(ctx, err)
	case "json":
		e, err := a.core.sessions.ExportJSON(ctx, id)
		if err != nil {
			return "", a.mapErr(ctx, err)
		}
		b, _ := json.MarshalIndent(e, "", "  ")
		return string(b), nil
	case "html":
		page, err := a.core.sessions.ExportHTML(ctx, id)
		return page, a.mapErr(ctx, err)
	}
	return "", &UserError{Message: fmt.Sprintf("Unknown export format %q; use md, json or html.", format)}
}

// LastContext is what the model saw on the session's last turn: as reported live in
// this run of the app, or rebuilt from what the reply stored.
func (a *App) LastContext(sessionID string) (ContextReport, error) {
	if r, ok := a.contexts.get(sessionID); ok {
		return r, nil
	}
	ctx := context.Background()
	r, ok, err := a.core.storedContext(ctx, sessionID, "")
	if err != nil && !errors.Is(err, session.ErrNotFound) { // a new chat has no session yet
		return ContextReport{}, a.mapErr(ctx, err)
	}
	if !ok {
		return ContextReport{SessionID: sessionID, Items: []ContextItem{}}, nil
	}
	return r, nil
}

func (a *App) sessionInfo(ctx context.Context, id string) (SessionInfo, error) {
	s, err := a.core.Session(ctx, id)
	return s, a.mapErr(ctx, err)
}
