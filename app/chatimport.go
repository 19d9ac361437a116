package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"hermes/backend/chatimport"
	"hermes/backend/session"
)

// ChatImportPreview is what an export file holds, counted before anything is
// written (chatimport.Preview; for a Hermes JSONL file only Messages).
type ChatImportPreview struct {
	Source        ChatImportSource `json:"source"`
	Conversations int              `json:"conversations"`
	Messages      int              `json:"messages"`
	Branches      int              `json:"branches"`
	Skipped       int              `json:"skipped"`
	Images        int              `json:"images"`
	Shortened     int              `json:"shortened"`
	First         string           `json:"first,omitempty"` // RFC 3339, "" when no message has a time
	Last          string           `json:"last,omitempty"`
}

// ChatImportProgress is a session:import:<requestID> event: the phase
// ("checking": bytes of the file read; "importing": messages written) and how
// far it is.
type ChatImportProgress struct {
	Phase string `json:"phase"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// ChatImportSource is where an import's file comes from: another assistant's
// export (chatimport's formats) or Hermes' own JSONL.
type ChatImportSource string

// The sources an import reads, as the import dialog offers them
// (TestChatImportSourcesAreListed keeps them with ChatImportSources).
const (
	SourceChatGPT   = ChatImportSource(chatimport.ChatGPT)
	SourceClaude    = ChatImportSource(chatimport.Claude)
	SourceOpenWebUI = ChatImportSource(chatimport.OpenWebUI)
	SourceJSONL     = ChatImportSource("jsonl")
)

// ChatImportSources are the sources an import reads: Hermes' own JSONL and
// the exports chatimport reads.
func ChatImportSources() []string {
	out := []string{"jsonl"}
	for _, f := range chatimport.Formats {
		out = append(out, string(f))
	}
	return out
}

// checkChatImport reads the file of source once and counts it; for an export of
// another assistant it returns the source to import too. A bad file is
// ErrInvalid with the reader's reason.
func checkChatImport(source string, r io.ReadSeeker, progress func(done, total int64)) (session.ImportSource, ChatImportPreview, error) {
	if strings.EqualFold(source, "jsonl") || source == "" {
		checked, err := session.CheckImport(r)
		if err != nil {
			return nil, ChatImportPreview{}, invalid(err)
		}
		return checked, ChatImportPreview{Source: SourceJSONL, Messages: checked.Len()}, nil
	}
	f, err := chatimport.ParseFormat(source)
	if err != nil {
		return nil, ChatImportPreview{}, invalid(err)
	}
	src, p, err := chatimport.Scan(r, f, progress)
	if errors.Is(err, chatimport.ErrInvalid) {
		return nil, ChatImportPreview{}, invalid(err)
	}
	if err != nil {
		return nil, ChatImportPreview{}, err
	}
	out := ChatImportPreview{Source: ChatImportSource(f), Conversations: p.Conversations, Messages: p.Messages, Branches: p.Branches,
		Skipped: p.Skipped, Images: p.Images, Shortened: p.Shortened}
	if !p.First.IsZero() {
		out.First, out.Last = p.First.UTC().Format(time.RFC3339), p.Last.UTC().Format(time.RFC3339)
	}
	return src, out, nil
}

// PreviewChatImport counts what an export file of source holds (writing
// nothing); progress (optional) hears the bytes read.
func (c *Core) PreviewChatImport(ctx context.Context, source string, r io.ReadSeeker, progress func(done, total int64)) (ChatImportPreview, error) {
	_, p, err := checkChatImport(source, r, progress)
	return p, err
}

// ImportChats checks an export file of source whole, then imports it all or
// nothing as ImportSessions does (a conversation already imported is found by
// its ref, a message by its ref, and not added again); the conversations it
// creates go into project (an id or name; "" none: an unknown one is not
// found). check hears the bytes read while checking, progress the messages
// written.
func (c *Core) ImportChats(ctx context.Context, source, project string, r io.ReadSeeker, check func(done, total int64), progress func(done, total int)) (SessionImportResult, ChatImportPreview, error) {
	if project != "" {
		if _, err := c.sessions.Project(ctx, project); err != nil {
			return SessionImportResult{}, ChatImportPreview{}, err
		}
	}
	src, p, err := checkChatImport(source, r, check)
	if err != nil {
		return SessionImportResult{}, p, err
	}
	res, err := c.sessions.ImportInto(ctx, src, project, progress)
	if errors.Is(err, session.ErrInvalid) { // the file changed between its two readings
		return SessionImportResult{}, p, invalid(err)
	}
	return res, p, err
}

// openImportFile opens a file the user named for an import.
func openImportFile(path string) (*os.File, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return nil, &UserError{Message: "Choose the export file to import.", Code: CodeInvalidInput, Params: map[string]string{"detail": "Choose the export file to import."}}
	}
	f, err := os.Open(path)
	if err != nil {
		msg := fmt.Sprintf("Cannot open %s: %v.", path, errors.Unwrap(err))
		if errors.Is(err, os.ErrNotExist) {
			msg = fmt.Sprintf("There is no file %s on this computer; check the path.", path)
		}
		return nil, &UserError{Message: msg, Code: CodeInvalidInput, Params: map[string]string{"detail": msg}, Err: err}
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		msg := fmt.Sprintf("%s is a folder; choose the conversations.json file inside it.", path)
		return nil, &UserError{Message: msg, Code: CodeInvalidInput, Params: map[string]string{"detail": msg}}
	}
	return f, nil
}

// PreviewChatImport counts what the export file at path holds (source: jsonl,
// chatgpt, claude or openwebui), writing nothing; session:import:<requestID>
// events ("checking") tell how much of the file is read.
func (a *SessionsService) PreviewChatImport(requestID string, source ChatImportSource, path string) (ChatImportPreview, error) {
	ctx, done, err := a.reqs.track(context.Background(), requestID)
	if err != nil {
		return ChatImportPreview{}, err
	}
	defer done()
	f, err := openImportFile(path)
	if err != nil {
		return ChatImportPreview{}, err
	}
	defer f.Close()
	tell := a.importProgress(requestID)
	p, err := a.core.PreviewChatImport(ctx, string(source), f, func(d, total int64) { tell("checking", d, total) })
	return p, a.core.userErr(ctx, err)
}

// importProgress emits session:import:<requestID> events, at most one every
// 100 ms but the last.
func (a *SessionsService) importProgress(requestID string) func(phase string, done, total int64) {
	var last time.Time
	return func(phase string, d, total int64) {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || d >= total {
			last = now
			send(a.emit, evChatImport.of(requestID), ChatImportProgress{Phase: phase, Done: d, Total: total})
		}
	}
}

// ImportChats imports the export file at path (source as PreviewChatImport's)
// into project (an id; "" none), all or nothing, with session:import:<requestID>
// progress events (throttled); CancelMessage(requestID) stops it and nothing stays.
func (a *SessionsService) ImportChats(requestID string, source ChatImportSource, path, project string) (SessionImportResult, error) {
	ctx, done, err := a.reqs.track(context.Background(), requestID)
	if err != nil {
		return SessionImportResult{}, err
	}
	defer done()
	f, err := openImportFile(path)
	if err != nil {
		return SessionImportResult{}, err
	}
	defer f.Close()
	tell := a.importProgress(requestID)
	res, _, err := a.core.ImportChats(ctx, string(source), project, f,
		func(d, total int64) { tell("checking", d, total) },
		func(d, total int) { tell("importing", int64(d), int64(total)) })
	if err != nil && ctx.Err() != nil {
		return SessionImportResult{}, &UserError{Message: "Import cancelled; nothing was imported.", Code: CodeCancelled, Err: err}
	}
	if err != nil {
		return SessionImportResult{}, a.core.userErr(ctx, err)
	}
	return res, nil
}

// PickChatExport asks for an export file (desktop only; web mode types the path).
func (a *SessionsService) PickChatExport() (string, error) {
	if a.desk.openDialog == nil {
		return "", &UserError{Message: "Type the path of the export file on this computer.", Code: CodeNeedsDesktop}
	}
	return a.desk.openDialog("Import conversations", "*.json;*.jsonl")
}
