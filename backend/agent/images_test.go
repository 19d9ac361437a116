package agent

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"hermes/backend/prompt"
	"hermes/backend/session"
)

type docStore map[string]session.Document

func (s docStore) Documents(_ context.Context, ids []string) ([]session.Document, error) {
	var out []session.Document
	for _, id := range ids {
		if d, ok := s[id]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// An image a message names reaches the model's request as that message's
// Images, and only there: its bytes are not text of any message.
func TestImageReachesTheChatMessages(t *testing.T) {
	jpg := []byte("\xff\xd8\xff\xe0 the stored image")
	store := docStore{
		"img": {ID: "img", Name: "pump.jpg", Kind: session.KindImage, Data: jpg, Mime: "image/jpeg", Width: 800, Height: 600, Tokens: 638},
		"txt": {ID: "txt", Name: "notes.txt", Kind: "text", Text: "The pump hums.", Chars: 14, Tokens: 4},
	}
	query := "what is wrong with it?\n\n" + session.DocumentRef{ID: "img", Name: "pump.jpg", Kind: session.KindImage}.Tag() +
		"\n" + session.DocumentRef{ID: "txt", Name: "notes.txt", Kind: "text"}.Tag()
	docs, err := PromptDocuments(context.Background(), store, query, nil)
	if err != nil || len(docs) != 2 {
		t.Fatalf("documents = %+v, %v", docs, err)
	}
	if !bytes.Equal(docs[0].Image, jpg) || docs[0].Width != 800 || docs[0].Height != 600 || docs[1].Image != nil {
		t.Fatalf("prompt documents = %+v", docs)
	}
	c := prompt.NewBuilder().Build(context.Background(), prompt.Input{System: "sys", Query: query, Documents: docs, Budget: 8000})
	msgs := ChatMessages(c)
	with := 0
	for _, m := range msgs {
		if len(m.Images) > 0 {
			with++
			if len(m.Images) != 1 || !bytes.Equal(m.Images[0], jpg) || m.Role != "user" || !strings.Contains(m.Content, "pump.jpg") {
				t.Errorf("image message = %+v", m)
			}
		}
		if strings.Contains(m.Content, "the stored image") {
			t.Errorf("the image's bytes are in a message's text: %q", m.Content)
		}
	}
	if with != 1 {
		t.Fatalf("%d messages carry images, want 1: %+v", with, msgs)
	}
}
