package app

import (
	"context"
	"encoding/base64"
	"errors"
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
	d, err := document.Extract(name, data)
	if err != nil {
		return DocumentInfo{}, docError(err)
	}
	stored, err := a.core.sessions.AddDocument(ctx, session.Document{Name: d.Name, Kind: d.Kind, Text: d.Text,
		Chars: d.Chars(), Tokens: prompt.Estimate(d.Text)})
	if err != nil {
		return DocumentInfo{}, a.mapErr(ctx, err)
	}
	return DocumentInfo{ID: stored.ID, Name: stored.Name, Kind: stored.Kind, Tokens: stored.Tokens, Chars: stored.Chars}, nil
}

// docError is a refused document as the user reads it.
func docError(err error) error {
	msg := err.Error()
	for _, e := range []error{document.ErrUnsupported, document.ErrTooLarge, document.ErrNoText} {
		msg = strings.TrimPrefix(msg, e.Error()+": ")
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:] + "."
	return &UserError{Message: msg, Code: CodeInvalidInput, Params: map[string]string{"detail": msg}, Err: err}
}
