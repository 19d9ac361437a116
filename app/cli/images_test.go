package cli

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"strings"
	"testing"

	"hermes/backend/document/documenttest"
	"hermes/backend/llm/llmtest"
)

// TestChatAttachImage: `chat --attach photo.jpg` sends the downscaled image to
// a model that can see; for one that cannot it exits 2, names the models that
// can, and stores nothing.
func TestChatAttachImage(t *testing.T) {
	rec := &recorder{}
	url := rec.startWith(t, llmtest.Reply{Chunks: []string{"A pump."}},
		llmtest.Model{Name: "gemma3", ContextLength: 8192, Capabilities: []string{"completion", "vision"}})
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": url, "HERMES_DATA_DIR": dir}
	photo := writeFile(t, t.TempDir(), "pump.jpg", documenttest.JPEG(documenttest.Photo(4000, 3000), 90))

	r := runCLI(t, env, "", "chat", "--attach", photo, "what is this?")
	if r.code != 2 || !strings.Contains(r.stderr, "llama3.2 cannot see images; choose a model that can (gemma3)") {
		t.Fatalf("an image for llama3.2: %+v", r)
	}
	if rec.count() != 0 {
		t.Fatal("the refused message reached the model")
	}
	if _, linked, _ := documentRows(t, dir); linked != 0 {
		t.Fatalf("%d documents stored with a message that was refused", linked)
	}

	r = runCLI(t, env, "", "chat", "--model", "gemma3", "--attach", photo, "what is this?")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "A pump." || !strings.Contains(r.stderr, "attached pump.jpg (image, ") {
		t.Fatalf("an image for gemma3: %+v", r)
	}
	var imgs [][]byte
	for _, m := range rec.last(t).Messages {
		for _, b := range m.Images {
			imgs = append(imgs, b)
		}
	}
	if len(imgs) != 1 {
		t.Fatalf("the request carries %d images", len(imgs))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(imgs[0]))
	if err != nil || format != "jpeg" || cfg.Width != 1024 || cfg.Height != 768 {
		t.Fatalf("the image sent: %s %dx%d, %v; want the 4000x3000 photo as a 1024x768 JPEG", format, cfg.Width, cfg.Height, err)
	}
}
