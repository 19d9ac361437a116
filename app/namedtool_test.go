package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// TestANamedToolIsOffered: a message that names the user's own tool is offered
// it whatever the classifier says ("shout hello world" is no obvious task);
// small talk that names no tool is offered none.
func TestANamedToolIsOffered(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tools.yaml"), []byte(`version: 1
tools:
  - name: shout
    description: Print a message on the console.
    parameters: {type: object, properties: {text: {type: string}}, required: [text]}
    command:
      argv: [/bin/echo, "{{text}}"]
`), 0o600)
	var mu sync.Mutex
	offered := map[string][]string{}
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Function.Name)
		}
		mu.Lock()
		offered[req.Messages[len(req.Messages)-1].Content] = names
		mu.Unlock()
		return llmtest.Reply{Chunks: []string{"ok"}}
	}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL}
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := NewApp(core, func(string, any) {})
	for _, text := range []string{"shout hello world", "hi there, how are you?"} {
		if _, err := a.Chat.SendMessage("r-"+text, "", text); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(offered["shout hello world"], ","); !strings.Contains(got, "shout") {
		t.Errorf("\"shout hello world\" was offered %q", got)
	}
	if got := offered["hi there, how are you?"]; len(got) != 0 {
		t.Errorf("small talk was offered %v", got)
	}
}
