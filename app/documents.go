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
// names it with a <document id=… …/> line (session.DocumentRef). An image
// (kind "image") has no characters; its tokens are the vision estimate
// (document.ImageTokens), Mime, Width and Height say what is stored, and Thumb
// is a preview of at most 160 pixels as a data: URL.
type DocumentInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Tokens int    `json:"tokens"`
	Chars  int    `json:"chars"`
	Mime   string `json:"mime,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Thumb  string `json:"thumb,omitempty"`
}

// AttachDocument reads a file the user attaches (its bytes in base64: the web
// mode passes strings) and keeps its text, or the image downscaled, until the
// message that names it is sent. Text, Markdown, code, CSV and PDF files and
// PNG, JPEG, WebP and GIF images are read; anything else, or a file over the
// limits, is refused with a message that says what can be attached.
func (a *ChatService) AttachDocument(name, contentBase64 string) (DocumentInfo, error) {
	ctx := context.Background()
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(contentBase64))
	if err != nil {
		return DocumentInfo{}, docError(errors.New("the file could not be read (bad encoding); try attaching it again"))
	}
	infos, err := a.core.AttachDocuments(ctx, []DocumentFile{{Name: name, Data: data}})
	if err != nil {
		return DocumentInfo{}, a.core.userErr(ctx, err)
	}
	return infos[0], nil
}

// DocumentFile is a file to attach: its name (which says its kind) and bytes.
type DocumentFile struct {
	Name string
	Data []byte
}

// AttachDocuments reads files to attach to the next message (the window's
// AttachDocument and `hermes chat --attach`): every file is read first (a PDF
// or an image in the parser cage), and when one is refused (a kind Hermes
// cannot read, over the limits, no text, an image of too many pixels) none is
// stored and the error (a UserError, IsBadInput) says why. The documents wait
// for the message that names them (WithDocuments). Whether the chat's model
// can see the images among them is the sender's to check (ImagesOf).
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
		sd := session.Document{Name: d.Name, Kind: d.Kind, Text: d.Text, Chars: d.Chars(), Tokens: prompt.Estimate(d.Text)}
		if d.Kind == document.KindImage {
			sd.Text, sd.Chars, sd.Tokens = "", 0, document.ImageTokens(d.Width, d.Height)
			sd.Data, sd.Mime, sd.Width, sd.Height = d.Data, d.Mime, d.Width, d.Height
		}
		stored, err := c.sessions.AddDocument(ctx, sd)
		if err != nil {
			return nil, fmt.Errorf("attach document: %w", err)
		}
		info := DocumentInfo{ID: stored.ID, Name: stored.Name, Kind: stored.Kind, Tokens: stored.Tokens, Chars: stored.Chars,
			Mime: stored.Mime, Width: stored.Width, Height: stored.Height}
		if len(d.Thumb) > 0 {
			info.Thumb = dataURL(d.ThumbMime, d.Thumb)
		}
		out = append(out, info)
	}
	return out, nil
}

// dataURL is bytes of a media type as a data: URL.
func dataURL(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// ImagesOf counts the images among the documents a message's text names
// (stored ones: a tag that names no stored image counts for nothing), for the
// sender to check, before the turn, that the chat's model can see
// (checkVision).
func (c *Core) ImagesOf(ctx context.Context, text string) (int, error) {
	return c.countImages(ctx, session.DocumentIDs(text))
}

func (c *Core) countImages(ctx context.Context, ids []string) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	docs, err := c.sessions.Documents(ctx, ids)
	if err != nil {
		return 0, fmt.Errorf("count images: %w", err)
	}
	n := 0
	for _, d := range docs {
		if d.IsImage() {
			n++
		}
	}
	return n, nil
}

// DocumentImage is an attached image as a data: URL (data:MIME;base64,…),
// for the conversation and the context inspector to show it: the image as
// stored and sent, at most 1024 pixels on its long edge. An id that names no
// stored document is not_found; a document that is not an image, bad input.
func (a *ChatService) DocumentImage(id string) (string, error) {
	ctx := context.Background()
	var docs []session.Document
	if id := strings.TrimSpace(id); id != "" {
		var err error
		if docs, err = a.core.sessions.Documents(ctx, []string{id}); err != nil {
			return "", a.core.userErr(ctx, err)
		}
	}
	if len(docs) == 0 {
		return "", &UserError{Message: "That image no longer exists (its message was deleted, or it was never sent).", Code: CodeNotFound,
			Params: map[string]string{"id": id}, Err: fmt.Errorf("image %q: %w", id, session.ErrNotFound)}
	}
	d := docs[0]
	if !d.IsImage() || len(d.Data) == 0 {
		msg := fmt.Sprintf("%q is not an image.", d.Name)
		return "", &UserError{Message: msg, Code: CodeInvalidInput, Params: map[string]string{"detail": msg}, Err: fmt.Errorf("image %q: %w", id, session.ErrInvalid)}
	}
	return dataURL(d.Mime, d.Data), nil
}

// EraseTurn deletes a user message with every version of its reply (their
// documents and images go with them) and checkpoints the database, so that
// no byte of them stays in its files (the same scrub a deleted conversation
// gets). It returns how many messages were deleted.
func (c *Core) EraseTurn(ctx context.Context, sessionID, userID string) (int, error) {
	n, err := c.sessions.DeleteTurn(ctx, sessionID, userID)
	if err != nil {
		return 0, err
	}
	if _, err := c.db.Scrub(ctx, "turn-"+userID, "turn"); err != nil {
		return n, fmt.Errorf("delete turn: %w", err)
	}
	return n, nil
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
