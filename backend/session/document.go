package session

import (
	"context"
	"database/sql"
	"fmt"
	"hermes/backend/lazyre"
	"strconv"
	"strings"
	"time"
)

// Document is a file's text attached to a user message, or an image (kind
// "image": no text; Data the downscaled image, Mime its media type,
// Width×Height its size in pixels). Until the message is sent, MessageID is
// empty (pending).
type Document struct {
	ID        string    `json:"id"`
	MessageID string    `json:"message_id,omitempty"`
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	Chars     int       `json:"chars"`
	Tokens    int       `json:"tokens"`
	CreatedAt time.Time `json:"created_at"`
	Data      []byte    `json:"-"`
	Mime      string    `json:"mime,omitempty"`
	Width     int       `json:"width,omitempty"`
	Height    int       `json:"height,omitempty"`
}

// KindImage is the kind of an image document.
const KindImage = "image"

// IsImage is whether the document is an image.
func (d Document) IsImage() bool { return d.Kind == KindImage }

// DocumentRef is a document as a message names it: after the typed text, one
// line per document,
//
//	<document id="…" name="report.pdf" kind="pdf" tokens="812" chars="3120"/>
//
// (attribute values escape & " < >). The text itself stays in the documents table.
type DocumentRef struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Tokens int    `json:"tokens"`
	Chars  int    `json:"chars"`
}

var (
	docRefRE  = lazyre.New(`<document((?:\s+[a-z_]+="[^"]*")*)\s*/>`)
	docAttrRE = lazyre.New(`([a-z_]+)="([^"]*)"`)
	unescAttr = strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&")
	escAttr   = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
)

// DocumentRefs are the documents a message names, in order.
func DocumentRefs(content string) []DocumentRef {
	if !strings.Contains(content, "<document") {
		return nil
	}
	var out []DocumentRef
	for _, m := range docRefRE.FindAllStringSubmatch(content, -1) {
		attrs := map[string]string{}
		for _, a := range docAttrRE.FindAllStringSubmatch(m[1], -1) {
			attrs[a[1]] = unescAttr.Replace(a[2])
		}
		if attrs["id"] == "" {
			continue
		}
		tok, _ := strconv.Atoi(attrs["tokens"])
		ch, _ := strconv.Atoi(attrs["chars"])
		out = append(out, DocumentRef{ID: attrs["id"], Name: attrs["name"], Kind: attrs["kind"], Tokens: tok, Chars: ch})
	}
	return out
}

// DocumentIDs are the ids of the documents a message names, in order.
func DocumentIDs(content string) []string {
	refs := DocumentRefs(content)
	if len(refs) == 0 {
		return nil
	}
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return ids
}

// ShownDocumentIDs are the documents a new message's prompt may carry: those
// the message (query) names, then those named by the user messages of the
// main channel in shown, newest first, each once. shown is the conversation as
// History gives it (Visible: the chosen version of each message), so a
// document of a version that is not chosen is not among them; the messages and
// the documents of a prompt follow the same path.
func ShownDocumentIDs(query string, shown []Message) []string {
	var ids []string
	seen := map[string]bool{}
	add := func(content string) {
		for _, id := range DocumentIDs(content) {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	add(query)
	for i := len(shown) - 1; i >= 0; i-- {
		if m := shown[i]; m.Role == "user" && InChannel(m, MainChannel) {
			add(m.Content)
		}
	}
	return ids
}

// Tag is the line a message names the document with.
func (r DocumentRef) Tag() string {
	return fmt.Sprintf(`<document id="%s" name="%s" kind="%s" tokens="%d" chars="%d"/>`,
		escAttr.Replace(r.ID), escAttr.Replace(r.Name), escAttr.Replace(r.Kind), r.Tokens, r.Chars)
}

// WithoutDocumentRefs is a message's content without its document lines.
func WithoutDocumentRefs(content string) string {
	if !strings.Contains(content, "<document") {
		return content
	}
	return strings.TrimRight(docRefRE.ReplaceAllString(content, ""), " \n")
}

// PendingDocumentTTL is how long an attached document waits for its message.
const PendingDocumentTTL = 24 * time.Hour

// AddDocument stores a document that waits for its message (pending), and
// removes pending documents older than PendingDocumentTTL.
func (st *Store) AddDocument(ctx context.Context, d Document) (Document, error) {
	d.ID, d.MessageID, d.CreatedAt = st.NewID(), "", st.Now().UTC()
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM documents WHERE message_id IS NULL AND created_at < ?`,
			ts(d.CreatedAt.Add(-PendingDocumentTTL))); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO documents(id, message_id, name, kind, content, chars, tokens, created_at, data, mime, width, height)
			VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.ID, d.Name, d.Kind, d.Text, d.Chars, d.Tokens, ts(d.CreatedAt),
			d.Data, d.Mime, d.Width, d.Height)
		return err
	})
	if err != nil {
		return Document{}, fmt.Errorf("add document: %w", err)
	}
	return d, nil
}

// LinkDocuments stores the pending documents of ids with the message (a
// document already sent with another message stays with that one).
func (st *Store) LinkDocuments(ctx context.Context, messageID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE documents SET message_id = ? WHERE id = ? AND message_id IS NULL`, messageID, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("link documents: %w", err)
	}
	return nil
}

// Documents are the documents of ids, in that order; unknown ids (deleted,
// expired) are left out.
func (st *Store) Documents(ctx context.Context, ids []string) ([]Document, error) {
	var out []Document
	for _, id := range ids {
		ds, err := st.queryDocuments(ctx, `WHERE id = ?`, id)
		if err != nil {
			return nil, fmt.Errorf("documents: %w", err)
		}
		out = append(out, ds...)
	}
	return out, nil
}

// MessageDocuments are the documents stored with a message, oldest first.
func (st *Store) MessageDocuments(ctx context.Context, messageID string) ([]Document, error) {
	ds, err := st.queryDocuments(ctx, `WHERE message_id = ? ORDER BY created_at, id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("message documents: %w", err)
	}
	return ds, nil
}

func (st *Store) queryDocuments(ctx context.Context, where string, args ...any) ([]Document, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id, COALESCE(message_id, ''), name, kind, content, chars, tokens, created_at,
		data, mime, width, height FROM documents `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Document
	for rows.Next() {
		var d Document
		var at string
		if err := rows.Scan(&d.ID, &d.MessageID, &d.Name, &d.Kind, &d.Text, &d.Chars, &d.Tokens, &at,
			&d.Data, &d.Mime, &d.Width, &d.Height); err != nil {
			return nil, err
		}
		d.CreatedAt = parseTS(at)
		out = append(out, d)
	}
	return out, rows.Err()
}

// messageDocs are the documents a user message names: its own, or (an edited
// copy) those of the message they were sent with.
func (st *Store) messageDocs(ctx context.Context, m Message) ([]Document, error) {
	return st.Documents(ctx, DocumentIDs(m.Content))
}
