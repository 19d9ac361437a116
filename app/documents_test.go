package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image/jpeg"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/document"
	"hermes/backend/document/documenttest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/session"
	"hermes/backend/store/storetest"
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
	info, err := a.Chat.AttachDocument("log.pdf", base64.StdEncoding.EncodeToString(pdf))
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "pdf" || info.Tokens <= 0 || info.Chars <= 0 || info.Name != "log.pdf" {
		t.Fatalf("info = %+v", info)
	}
	ref := session.DocumentRef{ID: info.ID, Name: info.Name, Kind: info.Kind, Tokens: info.Tokens, Chars: info.Chars}
	res, err := a.Chat.SendMessage("r1", "", "what does the document say?\n\n"+ref.Tag())
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
	rep, err := a.Chat.ReplyContext(res.Session.ID, res.Assistant.ID)
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
	md, err := a.Sessions.ExportSession(res.Session.ID, "md")
	if err != nil || !strings.Contains(md, "### Attached: log.pdf") || !strings.Contains(md, "xylophone boiler") || strings.Contains(md, "<document") {
		t.Fatalf("markdown export:\n%s\n%v", md, err)
	}
	js, err := a.Sessions.ExportSession(res.Session.ID, "json")
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
		{"binary", "data.bin", base64.StdEncoding.EncodeToString([]byte("\x00\x01binary\x00")), "text, Markdown, code, CSV and PDF",
			CodeDocNotText, map[string]string{"name": "data.bin"}},
		{"broken image", "photo.png", base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00")), "could not be read as an image",
			"doc_" + document.RefusedNotImage, map[string]string{"name": "photo.png"}},
		{"image bomb", "bomb.png", base64.StdEncoding.EncodeToString(documenttest.PNGHeader(100000, 100000, 8)), "images up to 50 megapixels",
			"doc_" + document.RefusedTooManyPixels, map[string]string{"name": "bomb.png", "pixels": "100000×100000", "limit": "50 megapixels"}},
		{"bad base64", "a.txt", "%%%", "could not be read", CodeInvalidInput, nil},
		{"empty", "a.txt", "", "is empty", CodeDocEmpty, map[string]string{"name": "a.txt"}},
		{"too big", "big.txt", big, "files up to 10.0 MB", CodeDocTooBig, map[string]string{"name": "big.txt", "size": "10.0 MB", "limit": "10.0 MB"}},
		// The 115-byte PDF that took the process down with it: the cage's child dies instead.
		{"memory bomb", "x.pdf", base64.StdEncoding.EncodeToString(documenttest.XRefBombPDF()), "it needs more than 512 MB",
			CodeDocTooMuchMemory, map[string]string{"name": "x.pdf", "limit": "512 MB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.Chat.AttachDocument(c.file, c.b64)
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

// newVisionApp is newTestApp with a chat model that can see (Ollama's
// "vision" capability).
func newVisionApp(t *testing.T, script func(api.ChatRequest) llmtest.Reply) (*App, *Core) {
	t.Helper()
	a, core, fake, _ := newTestApp(t, script)
	fake.Models[0].Capabilities = append(fake.Models[0].Capabilities, "vision")
	return a, core
}

// imageTraces are pieces of an image's bytes, raw and in base64, from its
// entropy-coded body: found in some file of the data dir while the image is
// stored, in none once it is erased (its pages on disk have headers between,
// so it is looked for piece by piece).
func imageTraces(img []byte) []string {
	b64 := base64.StdEncoding.EncodeToString(img)
	var out []string
	for i := range 12 {
		at := 1200 + i*(len(img)-1300)/12
		out = append(out, string(img[at:at+24]))
		at = at / 3 * 4
		out = append(out, b64[at:at+32])
	}
	return out
}

func tracesIn(t *testing.T, dir string, traces []string) (raw, b64 int) {
	t.Helper()
	for i, s := range traces {
		if len(storetest.DirHolds(t, dir, s)) > 0 {
			if i%2 == 0 {
				raw++
			} else {
				b64++
			}
		}
	}
	return raw, b64
}

// An attached photo is downscaled in the cage, stored with its message, sent
// to the model as that message's image (the stored bytes, once), shown again
// by id, exported, counted by the erasure receipt and erased to the last byte.
func TestAttachImageReachesTheModel(t *testing.T) {
	var mu sync.Mutex
	var seen []api.ChatRequest
	a, core := newVisionApp(t, func(r api.ChatRequest) llmtest.Reply {
		mu.Lock()
		seen = append(seen, r)
		mu.Unlock()
		return llmtest.Reply{Chunks: []string{"A yellow disc on a gradient."}}
	})
	ctx := context.Background()
	photo := documenttest.JPEG(documenttest.Photo(2400, 1800), 90)
	info, err := a.Chat.AttachDocument("IMG_0042.jpg", base64.StdEncoding.EncodeToString(photo))
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "image" || info.Mime != "image/jpeg" || info.Width != 1024 || info.Height != 768 || info.Chars != 0 ||
		info.Tokens != document.ImageTokens(1024, 768) || !strings.HasPrefix(info.Thumb, "data:image/jpeg;base64,") {
		t.Fatalf("info = %+v", info)
	}
	thumb, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(info.Thumb, "data:image/jpeg;base64,"))
	if c, err2 := jpeg.DecodeConfig(bytes.NewReader(thumb)); err != nil || err2 != nil || c.Width != 160 || c.Height != 120 {
		t.Fatalf("thumbnail %+v: %v %v", c, err, err2)
	}
	text := "what is in this picture?\n\n" + session.DocumentRef{ID: info.ID, Name: info.Name, Kind: info.Kind, Tokens: info.Tokens}.Tag()
	if n, err := core.ImagesOf(ctx, text); n != 1 || err != nil {
		t.Fatalf("ImagesOf = %d, %v", n, err)
	}
	if n, _ := core.ImagesOf(ctx, "no images\n\n"+session.DocumentRef{ID: "forged", Name: "x.jpg", Kind: "image"}.Tag()); n != 0 {
		t.Errorf("a tag naming no stored image counts %d", n)
	}
	url, err := a.Chat.DocumentImage(info.ID)
	if err != nil || !strings.HasPrefix(url, "data:image/jpeg;base64,") {
		t.Fatalf("DocumentImage: %.40s %v", url, err)
	}
	stored, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/jpeg;base64,"))
	if c, err := jpeg.DecodeConfig(bytes.NewReader(stored)); err != nil || c.Width != 1024 || len(stored) >= len(photo) {
		t.Fatalf("stored image %+v (%d bytes of %d): %v", c, len(stored), len(photo), err)
	}

	res, err := a.Chat.SendMessage("r1", "", text)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	var images []api.ImageData
	for _, r := range seen {
		for _, m := range r.Messages {
			if len(m.Images) > 0 {
				images = append(images, m.Images...)
				if m.Role != "user" || !strings.Contains(m.Content, "IMG_0042.jpg") || strings.Contains(m.Content, "<document") {
					t.Errorf("the image rides %+v", m)
				}
			}
		}
	}
	mu.Unlock()
	if len(images) != 1 || !bytes.Equal(images[0], stored) {
		t.Fatalf("the model got %d images (want the stored one, once)", len(images))
	}

	md, err := a.Sessions.ExportSession(res.Session.ID, "md")
	if err != nil || !strings.Contains(md, "![IMG_0042.jpg](data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(stored)+")") {
		t.Fatalf("markdown export lacks the image: %v", err)
	}

	traces := imageTraces(stored)
	if raw, _ := tracesIn(t, core.dataDir, traces); raw < 9 {
		t.Fatalf("setup: %d of 12 pieces of the image found in the data dir", raw)
	}
	r, err := a.Sessions.DeleteSession(res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Images != 1 || r.Documents != 1 || !r.Checkpointed {
		t.Errorf("receipt = %+v", r)
	}
	if raw, b64 := tracesIn(t, core.dataDir, traces); raw+b64 > 0 {
		t.Errorf("after the delete, %d raw and %d base64 pieces of the image are in the data dir", raw, b64)
	}
	if _, err := a.Chat.DocumentImage(info.ID); !IsNotFound(err) || errorBody(err).Code != CodeNotFound {
		t.Errorf("a deleted image: %v", err)
	}
}

// Deleting the turn (EraseTurn) erases its image from the files too.
func TestEraseTurnErasesItsImage(t *testing.T) {
	a, core := newVisionApp(t, llmtest.Echo(1, 0))
	ctx := context.Background()
	png := documenttest.PNG(documenttest.Photo(500, 400))
	infos, err := core.AttachDocuments(ctx, []DocumentFile{{Name: "chart.png", Data: png}})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := a.Chat.DocumentImage(infos[0].ID)
	stored, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/jpeg;base64,"))
	res, err := a.Chat.SendMessage("r1", "", WithDocuments("read the chart", infos))
	if err != nil {
		t.Fatal(err)
	}
	a.Chat.SendMessage("r2", res.Session.ID, "thanks")
	traces := imageTraces(stored)
	core.db.Checkpoint(ctx)
	if raw, _ := tracesIn(t, core.dataDir, traces); raw < 9 {
		t.Fatalf("setup: %d of 12 pieces of the image found in the data dir", raw)
	}
	if _, err := core.EraseTurn(ctx, res.Session.ID, res.User.ID); err != nil {
		t.Fatal(err)
	}
	if raw, b64 := tracesIn(t, core.dataDir, traces); raw+b64 > 0 {
		t.Errorf("after the turn's delete, %d raw and %d base64 pieces of the image are in the data dir", raw, b64)
	}
	if d, _ := a.Sessions.LoadSession(res.Session.ID); len(d.Messages) != 2 {
		t.Errorf("the other turn went too: %d messages", len(d.Messages))
	}
}

func TestDocumentImageRefuses(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(1, 0))
	txt, err := a.Chat.AttachDocument("a.txt", base64.StdEncoding.EncodeToString([]byte("words")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, code, says string }{
		{"no-such-id", CodeNotFound, "no longer exists"},
		{"", CodeNotFound, "no longer exists"},
		{txt.ID, CodeInvalidInput, `"a.txt" is not an image`},
	} {
		_, err := a.Chat.DocumentImage(c.id)
		var ue *UserError
		if !errors.As(err, &ue) || ue.Code != c.code || !strings.Contains(ue.Message, c.says) {
			t.Errorf("DocumentImage(%q) = %#v", c.id, err)
		}
	}
}
