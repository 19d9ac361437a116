package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/kb/kbtool"
	"hermes/backend/llm/llmtest"
)

// A question is offered the passages of the user's documents that answer it,
// fenced and numbered; the reply keeps them as its sources, and a number it
// cites that no passage has is flagged, live and after a reload.
func TestQuestionIsAnsweredFromTheKnowledgeBase(t *testing.T) {
	var seen []string
	script := func(req api.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			if strings.HasPrefix(m.Content, `<data kind="knowledge"`) {
				seen = append(seen, m.Content)
			}
		}
		return llmtest.Reply{Chunks: llmtest.Words("Replace the capacitor [1]. Also see [4].")}
	}
	a, core, _, _ := newTestApp(t, script)
	if tools, _ := a.Tools.ListTools(); slices.ContainsFunc(tools, func(ti ToolInfo) bool { return ti.Name == kbtool.Name && ti.Enabled }) {
		t.Fatal("knowledge_search is offered before any collection exists")
	}
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "pump.md"), []byte("# Pump\n\n## Faults\n\nIf the pump hums but does not turn, the capacitor has failed."), 0o644)
	os.WriteFile(filepath.Join(docs, "garden.md"), []byte("# Garden\n\nRoses need sun."), 0o644)
	if _, err := a.Knowledge.KBAdd(docs, "manuals"); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Knowledge().Index(context.Background(), "manuals", nil); err != nil {
		t.Fatal(err)
	}
	res, err := a.Chat.SendMessage("r1", "", "Why does my pump hum but not turn?")
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || !strings.Contains(seen[0], `source="pump.md"`) || !strings.Contains(seen[0], `n="1"`) || !strings.Contains(seen[0], "capacitor") {
		t.Fatalf("the model was offered %q", seen)
	}
	src := res.Assistant.Sources
	if len(src) == 0 || src[0].N != 1 || src[0].File != "pump.md" || src[0].Heading != "Pump › Faults" || src[0].Chunk == "" {
		t.Fatalf("sources %+v", src)
	}
	if !slices.Equal(res.Assistant.BadCitations, []int{4}) {
		t.Fatalf("bad citations %v, want [4]", res.Assistant.BadCitations)
	}
	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := d.Messages[len(d.Messages)-1]
	if len(last.Sources) != len(src) || !slices.Equal(last.BadCitations, []int{4}) {
		t.Fatalf("after a reload: sources %+v, bad %v", last.Sources, last.BadCitations)
	}
	p, err := a.Knowledge.KBPassage(src[0].Chunk)
	if err != nil || !strings.Contains(p.Text, "# Pump") || string([]rune(p.Text)[p.Start:p.End]) == "" || !strings.Contains(string([]rune(p.Text)[p.Start:p.End]), "capacitor") {
		t.Fatalf("passage %+v %v", p, err)
	}
	if tools, _ := a.Tools.ListTools(); !slices.ContainsFunc(tools, func(ti ToolInfo) bool { return ti.Name == kbtool.Name && ti.Enabled }) {
		t.Fatal("knowledge_search is not offered once a collection exists")
	}
}

// A chat limited to no collection is offered no passage and keeps no sources.
func TestChatWithoutKnowledgeCitesNothing(t *testing.T) {
	var offered bool
	a, core, _, _ := newTestApp(t, func(req api.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			offered = offered || strings.HasPrefix(m.Content, `<data kind="knowledge"`)
		}
		return llmtest.Reply{Chunks: llmtest.Words("No idea.")}
	})
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "pump.md"), []byte("# Pump\n\nIf the pump hums, the capacitor has failed."), 0o644)
	if _, err := a.Knowledge.KBAdd(docs, "manuals"); err != nil {
		t.Fatal(err)
	}
	core.Knowledge().Index(context.Background(), "manuals", nil)
	first, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.SetChatSettings(context.Background(), first.Session.ID, ChatSettingsInput{Knowledge: []string{}}); err != nil {
		t.Fatal(err)
	}
	offered = false
	res, err := a.Chat.SendMessage("r2", first.Session.ID, "Why does my pump hum?")
	if err != nil || offered || len(res.Assistant.Sources) != 0 {
		t.Fatalf("a chat without knowledge: offered %v, sources %v, %v", offered, res.Assistant.Sources, err)
	}
	cs, _ := core.ChatSettings(context.Background(), first.Session.ID)
	if cs.Knowledge == nil || len(cs.Knowledge) != 0 {
		t.Fatalf("stored knowledge %v, want []", cs.Knowledge)
	}
}
