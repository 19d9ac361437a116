package session

import (
	"context"
	"errors"
	"testing"
)

// A project's defaults fill what a chat leaves empty, never what it set; a
// chat moves in and out; names are unique in any case; deleting a project
// keeps its chats, out of any project.
func TestProjectsGroupChatsAndGiveDefaults(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	p, err := st.SaveProject(ctx, Project{Name: "Field trip", System: "Answer as a field guide.", Model: "qwen3", Knowledge: "[2]", MemoryProfile: "work"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveProject(ctx, Project{Name: "field TRIP"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a second project of the same name: %v", err)
	}
	if _, err := st.SaveProject(ctx, Project{Name: "  "}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a project without a name: %v", err)
	}
	a, _ := st.Create(ctx, "")
	b, _ := st.Create(ctx, "")
	if err := st.SetChatSettings(ctx, b.ID, ChatSettings{Model: "llama3.2"}); err != nil {
		t.Fatal(err)
	}
	if err := st.MoveToProject(ctx, "field trip", a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Get(ctx, a.ID)
	if got.ProjectID != p.ID || got.Profile != "work" {
		t.Fatalf("moved chat: project %q profile %q", got.ProjectID, got.Profile)
	}
	ea, _ := st.EffectiveChatSettings(ctx, a.ID)
	eb, _ := st.EffectiveChatSettings(ctx, b.ID)
	if ea.System != "Answer as a field guide." || ea.Model != "qwen3" || ea.Knowledge != "[2]" {
		t.Fatalf("a chat with no settings of its own: %+v", ea)
	}
	if eb.Model != "llama3.2" || eb.System != "Answer as a field guide." {
		t.Fatalf("a chat's own model must win: %+v", eb)
	}
	if own, _ := st.ChatSettings(ctx, a.ID); own.System != "" {
		t.Fatalf("the chat's own settings took the project's: %+v", own)
	}
	if p2, _ := st.Project(ctx, p.ID); p2.Chats != 2 {
		t.Fatalf("project counts %d chats", p2.Chats)
	}
	if err := st.MoveToProject(ctx, "", b.ID); err != nil {
		t.Fatal(err)
	}
	if eb, _ = st.EffectiveChatSettings(ctx, b.ID); eb.System != "" {
		t.Fatalf("out of the project, the chat keeps its defaults: %+v", eb)
	}
	if err := st.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Get(ctx, a.ID); err != nil || got.ProjectID != "" {
		t.Fatalf("after the project's deletion the chat is %+v, %v", got, err)
	}
	if err := st.MoveToProject(ctx, "gone", a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("moving to no project: %v", err)
	}
}
