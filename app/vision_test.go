package app

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/document/documenttest"
	"hermes/backend/llm/llmtest"
)

// A message with an image for a model that cannot see is refused before
// anything is stored, naming the installed models that can; a model that can
// see gets it; after a switch back to a blind model, a message without images
// of its own goes without the earlier ones.
func TestImagesOnlyGoToAModelThatCanSee(t *testing.T) {
	a, core, fake, _ := newTestApp(t, nil)
	fake.Models = append(fake.Models, llmtest.Model{Name: "gemma3", ContextLength: 8192, Capabilities: []string{"completion", "vision"}})
	fake.Chat = func(api.ChatRequest) llmtest.Reply { return llmtest.Reply{Chunks: []string{"Seen."}} }
	photo := documenttest.JPEG(documenttest.Photo(1600, 1200), 90)
	info, err := a.Chat.AttachDocument("pump.jpg", base64.StdEncoding.EncodeToString(photo))
	if err != nil {
		t.Fatal(err)
	}
	text := WithDocuments("what is broken here?", []DocumentInfo{info})

	_, err = a.Chat.SendMessage("r1", "", text)
	var ue *UserError
	if !errors.As(err, &ue) || ue.Code != CodeCannotSee || ue.Params["model"] != "llama3.2" || ue.Params["models"] != "gemma3" || !IsBadInput(err) {
		t.Fatalf("an image for llama3.2: %v (%+v)", err, ue)
	}
	if !strings.Contains(err.Error(), "llama3.2 cannot see images; choose a model that can (gemma3)") {
		t.Errorf("message: %v", err)
	}
	if n := len(fake.ChatRequests()); n != 0 {
		t.Fatalf("the refused message reached the model (%d requests)", n)
	}
	if list, _ := a.Sessions.ListSessions(); len(list) != 0 {
		t.Fatalf("the refused message was stored: %+v", list)
	}

	if _, err := a.Settings.SetSetting("chat_model", "gemma3"); err != nil {
		t.Fatal(err)
	}
	res, err := a.Chat.SendMessage("r2", "", text)
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	if got := imagesIn(reqs[len(reqs)-1]); got != 1 {
		t.Fatalf("the vision model got %d images; want 1", got)
	}

	// The chat goes on with a model that cannot see: the earlier image stays out.
	if _, err := a.Settings.SetSetting("chat_model", "llama3.2"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r3", res.Session.ID, "and now in words?"); err != nil {
		t.Fatalf("a message without images to a blind model, after one with: %v", err)
	}
	reqs = fake.ChatRequests()
	if got := imagesIn(reqs[len(reqs)-1]); got != 0 {
		t.Errorf("a model that cannot see was sent %d earlier images", got)
	}
	_ = core
}

func imagesIn(req api.ChatRequest) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Images)
	}
	return n
}
