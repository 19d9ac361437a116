package app

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/document/documenttest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/session"
)

func TestAttachDocumentReachesThePrompt(t *testing.T) {
	var mu sync.Mutex
	var seen []api.ChatRequest
	a, core, _, _ := newTestApp(t, func(r api.ChatRequest) llmtest.Reply {
		mu.Lock()
		seen = append(seen, r)
		mu.Unlock()
		return llmtest.Reply{Chunks: []string{"It says the boiler was serviced."}}
	})
	pdf := documenttest.MinimalPDF([]string{"Service log: the xylophone boiler was serviced on 3 March."})
	info, err := a.AttachDocument("log.pdf", base64.StdEncoding.EncodeToString(pdf))
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "pdf" || info.Tokens <= 0 || info.Chars <= 0 || info.Name != "log.pdf" {
		t.Fatalf("info = %+v", info)
	}
	ref := session.DocumentRef{ID: info.ID, Name: info.Name, Kind: info.Kind, Tokens: info.Tokens, Chars: info.Chars}
	res, err := a.SendMessage("r1", "", "what does the document say?\n\n"+ref.Tag())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	req := seen[len(seen)-1]
	mu.Unlock()
	found := false
	for _, m := range req.Messages {
		if strings.Contains(m.Content, "xylophone boiler was serviced") && strings.Contains(m.Content, `"log.pdf"`) {
			found = true
		}
	}
	if !found {
		t.Fatalf("the PDF's text did not reach the model: %+v", req.Messages)
	}
	ctx := context.Background()
	docs, err := core.sessions.MessageDocuments(ctx, res.User.ID)
	if err != nil || len(docs) != 1 || docs[0].ID != info.ID {
		t.Fatalf("stored with the message: %+v, %v", docs, err)
	}

	// The reply's stored context names the document by reference and shows it again.
	rep, err := a.ReplyContext(res.Session.ID, res.Assistant.ID)
	if err != nil {
		t.Fatal(err)
	}
	shown := false
	for _, it := range rep.Items {
		if it.Reason == "document" && strings.Contains(it.Preview, "xylophone boiler") {
			shown = true
		}
	}
	if !shown {
		t.Errorf("the reply's context lacks the document: %+v", rep.Items)
	}

	// Export carries the text, in both formats.
	md, err := a.ExportSession(res.Session.ID, "md")
	if err != nil || !strings.Contains(md, "### Attached: log.pdf") || !strings.Contains(md, "xylophone boiler") || strings.Contains(md, "<document") {
		t.Fatalf("markdown export:\n%s\n%v", md, err)
	}
	js, err := a.ExportSession(res.Session.ID, "json")
	if err != nil || !strings.Contains(js, `"documents"`) || !strings.Contains(js, "xylophone boiler") {
		t.Fatalf("json export:\n%s\n%v", js, err)
	}

	// Deleting the conversation deletes the document.
	if _, err := core.sessions.Delete(ctx, res.Session.ID); err != nil {
		t.Fatal(err)
	}
	if left, _ := core.sessions.Documents(ctx, []string{info.ID}); len(left) != 0 {
		t.Fatalf("document survived its conversation: %+v", left)
	}
}

func TestAttachDocumentRefuses(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(1, 0))
	big := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("a", 10<<20+1)))
	cases := []struct {
		name, file, b64, says, code string
		params                      map[string]string
	}{
		{"binary", "photo.png", base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00")), "text, Markdown, code, CSV and PDF",
			CodeDocNotText, map[string]string{"name": "photo.png"}},
		{"bad base64", "a.txt", "%%%", "could not be read", CodeInvalidInput, nil},
		{"empty", "a.txt", "", "is empty", CodeDocEmpty, map[string]string{"name": "a.txt"}},
		{"too big", "big.txt", big, "files up to 10.0 MB", CodeDocTooBig, map[string]string{"name": "big.txt", "size": "10.0 MB", "limit": "10.0 MB"}},
		// The 115-byte PDF that took the process down with it: the cage's child dies instead.
		{"memory bomb", "x.pdf", base64.StdEncoding.EncodeToString(documenttest.XRefBombPDF()), "it needs more than 512 MB",
			CodeDocTooMuchMemory, map[string]string{"name": "x.pdf", "limit": "512 MB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.AttachDocument(c.file, c.b64)
			var ue *UserError
			if !errors.As(err, &ue) || ue.Code != c.code || !strings.Contains(ue.Message, c.says) || (c.code != CodeInvalidInput && !IsBadInput(err)) {
				t.Fatalf("err = %#v", err)
			}
			// What the UI gets: the code and the parts its words name.
			body := errorBody(err)
			for k, v := range c.params {
				if body.Code != c.code || body.Params[k] != v {
					t.Errorf("body = %+v, want %s=%s", body, k, v)
				}
			}
		})
	}
}
