package session

import (
	"context"
	"fmt"
	"io"

	"hermes/backend/pdfdoc"
)

// ExportPDF draws a session as a PDF on w (the messages as shown, with their
// attached pictures; see pdfdoc). Without the font CJK text needs it is
// pdfdoc.ErrNoFont and nothing is written.
func (st *Store) ExportPDF(ctx context.Context, id string, w io.Writer) (pdfdoc.Stats, error) {
	e, err := st.ExportJSON(ctx, id)
	if err != nil {
		return pdfdoc.Stats{}, err
	}
	d := pdfdoc.Doc{Title: e.Session.Title,
		Subtitle: fmt.Sprintf("Exported from Hermes · started %s · %d messages", day(e.Session.CreatedAt), len(e.Messages))}
	if d.Title == "" {
		d.Title = "Conversation"
	}
	names := map[string]string{"user": "You", "assistant": "Hermes", "system": "System", "tool": "Tool"}
	for _, m := range e.Messages {
		en := pdfdoc.Entry{Heading: names[m.Role] + " · " + day(m.CreatedAt), Markdown: WithoutDocumentRefs(m.Content)}
		if m.Channel != "" && m.Channel != MainChannel {
			en.Heading = names[m.Role] + " · " + m.Channel + " · " + day(m.CreatedAt)
		}
		for _, doc := range m.Documents {
			if doc.Kind == KindImage {
				en.Images = append(en.Images, pdfdoc.Image{Name: doc.Name, Data: doc.Data})
				continue
			}
			en.Notes = append(en.Notes, fmt.Sprintf("Attached: %s (%s, %d tokens; its text is in the Markdown and JSON exports)", doc.Name, doc.Kind, doc.Tokens))
		}
		if m.Status != StatusOK {
			en.Notes = append(en.Notes, "("+m.Status+")")
		}
		d.Entries = append(d.Entries, en)
	}
	s, err := pdfdoc.Write(w, d)
	if err != nil {
		return s, fmt.Errorf("export pdf: %w", err)
	}
	return s, nil
}
