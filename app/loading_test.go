package app

import (
	"strings"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
)

// A model Ollama has to load first: the page hears "loading" with the model's
// name before the first token; once loaded, the next turn announces nothing.
func TestLoadingIsAnnouncedBeforeTheFirstToken(t *testing.T) {
	a, _, fake, ev := newTestApp(t, llmtest.Echo(0, 0))
	fake.LoadDelay = 400 * time.Millisecond
	if _, err := a.Chat.SendMessage("r1", "", "hello"); err != nil {
		t.Fatal(err)
	}
	status, delta := -1, -1
	for i, e := range ev.got {
		switch {
		case strings.HasPrefix(e, "chat:status:r1 ") && status < 0:
			status = i
			if !strings.Contains(e, `"state":"loading"`) || !strings.Contains(e, `"model":"llama3.2"`) {
				t.Errorf("status event %s", e)
			}
		case strings.HasPrefix(e, "chat:delta:r1 ") && delta < 0:
			delta = i
		}
	}
	if status < 0 || delta < 0 || status > delta {
		t.Fatalf("loading announced at %d, first token at %d: %v", status, delta, ev.got)
	}
	if _, err := a.Chat.SendMessage("r2", "", "again"); err != nil {
		t.Fatal(err)
	}
	for _, e := range ev.got {
		if strings.HasPrefix(e, "chat:status:r2 ") {
			t.Errorf("a loaded model announced as loading: %s", e)
		}
	}
}
