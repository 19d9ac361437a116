package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"hermes/backend/pdfdoc"
)

// ExportPDF writes a conversation as a PDF on w. Without the font its CJK text
// needs, it is a UserError (unavailable) naming the package to install.
func (c *Core) ExportPDF(ctx context.Context, id string, w io.Writer) error {
	_, err := c.sessions.ExportPDF(ctx, id, w)
	if errors.Is(err, pdfdoc.ErrNoFont) {
		msg := err.Error()
		if i := strings.Index(msg, pdfdoc.ErrNoFont.Error()+": "); i >= 0 {
			msg = msg[i+len(pdfdoc.ErrNoFont.Error())+2:]
		}
		msg = upperFirst(msg) + "."
		return &UserError{Message: msg, Code: CodeUnavailable, Params: map[string]string{"detail": msg}, Err: err}
	}
	return err
}

// ExportPDF returns a conversation as a PDF, base64-encoded (web mode downloads
// it; the window saves it with SaveExport).
func (a *SessionsService) ExportPDF(id string) (string, error) {
	ctx := context.Background()
	var b bytes.Buffer
	if err := a.core.ExportPDF(ctx, id, &b); err != nil {
		return "", a.core.userErr(ctx, err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}
