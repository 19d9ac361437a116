package app

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"strings"

	"hermes/backend/document"
	"hermes/backend/prompt"
	"hermes/backend/session"
)

// DocumentInfo is an attached document as the composer shows it; the message
// names it with a <document id=… …/> line (session.DocumentRef).
type DocumentInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Tokens int    `json:"tokens"`
	Chars  int    `json:"chars"`
}

// AttachDocument reads a file the user attaches (its bytes in base64: the web
// mode passes strings) and keeps its text until the message that names it is
// sent. Text, Markdown, code, CSV and PDF files are read; anything else, or a
// file over the limits, is refused with a message that says what can be attached.
func (a *App) AttachDocument(name, contentBase64 string) (DocumentInfo, error) {
	ctx := context.Background()
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(contentBase64))
	if err != nil {
		return DocumentInfo{}, docError(errors.New("the file could not be read (bad encoding); try attaching it again"))
	}
	infos, err := a.core.AttachDocuments(ctx, []DocumentFile{{Name: name, Data: data}})
	if err != nil {
		return DocumentInfo{}, a.mapErr(ctx, err)
	}
	return infos[0], nil
}

// DocumentFile is a file to attach: its name (which says its kind) and bytes.
type DocumentFile struct {
	Name string
	Data []byte
}

// AttachDocuments reads files to attach to the next message (the window's
// AttachDocument and `hermes chat --attach`): every file is read first, and
// when one is refused (a kind Hermes cannot read, over the limits, no text)
// none is stored and the error (a UserError, IsBadInput) says why. The
// documents wait for the message that names them (WithDocuments).
func (c *Core) AttachDocuments(ctx context.Context, files []DocumentFile) ([]DocumentInfo, error) {
	docs := make([]document.Doc, 0, len(files))
	for _, f := range files {
		d, err := c.docs.Extract(ctx, f.Name, f.Data)
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		if err != nil {
			return nil, docError(err)
		}
		docs = append(docs, d)
	}
	out := make([]DocumentInfo, 0, len(docs))
	for _, d := range docs {
		stored, err := c.sessions.AddDocument(ctx, session.Document{Name: d.Name, Kind: d.Kind, Text: d.Text,
			Chars: d.Chars(), Tokens: prompt.Estimate(d.Text)})
		if err != nil {
			return nil, fmt.Errorf("attach document: %w", err)
		}
		out = append(out, DocumentInfo{ID: stored.ID, Name: stored.Name, Kind: stored.Kind, Tokens: stored.Tokens, Chars: stored.Chars})
	}
	return out, nil
}

// WithDocuments is a message's text with the lines that name its documents
// after it (as the window's composer writes them; session.DocumentRef).
func WithDocuments(text string, docs []DocumentInfo) string {
	if len(docs) == 0 {
		return text
	}
	tags := make([]string, len(docs))
	for i, d := range docs {
		tags[i] = session.DocumentRef{ID: d.ID, Name: d.Name, Kind: d.Kind, Tokens: d.Tokens, Chars: d.Chars}.Tag()
	}
	if strings.TrimSpace(text) == "" {
		return strings.Join(tags, "\n")
	}
	return text + "\n\n" + strings.Join(tags, "\n")
}

// docError is a refused document as the user reads it: in English, and by code
// ("doc_" and the refusal's reason) with the file's name and figures for the UI.
func docError(err error) error {
	msg := err.Error()
	for _, e := range []error{document.ErrUnsupported, document.ErrTooLarge, document.ErrNoText} {
		msg = strings.TrimPrefix(msg, e.Error()+": ")
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:] + "."
	var r *document.Refusal
	if errors.As(err, &r) {
		params := map[string]string{"name": r.Name}
		maps.Copy(params, r.Params)
		return &UserError{Message: msg, Code: "doc_" + r.Reason, Params: params, Err: err}
	}
	return &UserError{Message: msg, Code: CodeInvalidInput, Params: map[string]string{"detail": msg}, Err: err}
}
