package app

import (
	"context"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
)

// A chat in a project runs with the project's system prompt and model unless
// it has its own; out of the project it runs with the defaults again.
func TestAChatInAProjectRunsWithItsDefaults(t *testing.T) {
	a, c, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	ctx := context.Background()
	p, err := c.SaveProject(ctx, ProjectInput{Name: "Field trip", System: "Answer as a field guide."})
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Sessions.MoveToProject(p.ID, first.Session.ID); err != nil {
		t.Fatal(err)
	}
	system := func() string {
		reqs := fake.ChatRequests()
		last := reqs[len(reqs)-1]
		return last.Messages[0].Content
	}
	if _, err := a.Chat.SendMessage("r2", first.Session.ID, "which plants are edible here?"); err != nil {
		t.Fatal(err)
	}
	if s := system(); !strings.HasPrefix(s, "Answer as a field guide.") {
		t.Fatalf("the turn's system prompt: %q", s)
	}
	list, _ := a.Sessions.ListSessions()
	if len(list) != 1 || list[0].ProjectID != p.ID {
		t.Fatalf("the sidebar's chat: %+v", list)
	}
	if err := a.Sessions.MoveToProject("", first.Session.ID); err != nil {
		t.Fatal(err)
	}
	a.Chat.SendMessage("r3", first.Session.ID, "and now?")
	if s := system(); strings.Contains(s, "field guide") {
		t.Fatalf("out of the project, the system prompt is still the project's: %q", s)
	}
	r, err := a.Sessions.DeleteProject(p.ID, false)
	if err != nil || r.Kept != 0 || len(r.Deleted) != 0 {
		t.Fatalf("delete: %+v %v", r, err)
	}
}
