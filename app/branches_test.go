package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// numbered answers "reply N to <last user message>" and keeps every request.
type numbered struct {
	mu   sync.Mutex
	n    int
	seen []api.ChatRequest
}

func (s *numbered) reply(req api.ChatRequest) llmtest.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.seen = append(s.seen, req)
	last := req.Messages[len(req.Messages)-1].Content
	return llmtest.Reply{Chunks: []string{fmt.Sprintf("reply %d to %s", s.n, last)}}
}

// lastRequest is the text of every message of the latest request.
func (s *numbered) lastRequest() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, m := range s.seen[len(s.seen)-1].Messages[1:] {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

func shown(d SessionDetail) string {
	var b strings.Builder
	for _, m := range d.Messages {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

// TestRegenerateKeepsVersions: a regenerated reply is a new version; the user's
// message is not stored again; the model does not see the old reply; choosing
// the old version makes it what the next turn sees.
func TestRegenerateKeepsVersions(t *testing.T) {
	s := &numbered{}
	a, core, _, _ := newTestApp(t, s.reply)
	first, err := a.Chat.SendMessage("r1", "", "hello there")
	if err != nil {
		t.Fatal(err)
	}
	sid := first.Session.ID
	res, err := a.Chat.RegenerateReply("r2", sid, first.Assistant.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Assistant.Content != "reply 2 to hello there" || res.Assistant.Versions == nil || res.Assistant.Versions.Count != 2 || res.Assistant.Versions.Index != 1 {
		t.Fatalf("regenerated = %+v", res.Assistant)
	}
	if got := s.lastRequest(); strings.Contains(got, "reply 1") || strings.Count(got, "user: hello there") != 1 {
		t.Errorf("the regenerate request saw:\n%s", got)
	}
	var users int
	if err := core.db.QueryRow(`SELECT count(*) FROM messages WHERE session_id = ? AND role = 'user'`, sid).Scan(&users); err != nil || users != 1 {
		t.Errorf("user messages stored: %d, %v", users, err)
	}
	d, err := a.Sessions.LoadSession(sid)
	if err != nil || shown(d) != "user: hello there\nassistant: reply 2 to hello there\n" {
		t.Fatalf("shown:\n%s%v", shown(d), err)
	}
	d, err = a.Chat.SelectVersion(sid, d.Messages[1].Versions.IDs[0])
	if err != nil || shown(d) != "user: hello there\nassistant: reply 1 to hello there\n" || d.Messages[1].Versions.Index != 0 {
		t.Fatalf("after choosing version 1:\n%s%v", shown(d), err)
	}
	if _, err := a.Chat.SendMessage("r3", sid, "and then?"); err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); !strings.Contains(got, "reply 1 to hello there") || strings.Contains(got, "reply 2") {
		t.Errorf("the next turn saw:\n%s", got)
	}
	if f := d.Messages[1].Figures; f == nil || f.Model != "llama3.2" || f.CompletionTokens != 1 || f.PromptTokens == 0 || f.TokensPerSecond <= 0 {
		t.Errorf("figures = %+v", f)
	}
}

// TestEditBranchesTheConversation: an edited message is a new version; the old
// message and the turns after it stay reachable as the other version.
func TestEditBranchesTheConversation(t *testing.T) {
	s := &numbered{}
	a, _, _, _ := newTestApp(t, s.reply)
	one, err := a.Chat.SendMessage("r1", "", "first question")
	if err != nil {
		t.Fatal(err)
	}
	sid := one.Session.ID
	if _, err := a.Chat.SendMessage("r2", sid, "second question"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.EditMessage("r3", sid, one.User.ID, "   "); err == nil {
		t.Fatal("an empty edit was taken")
	}
	res, err := a.Chat.EditMessage("r4", sid, one.User.ID, "first question, better")
	if err != nil {
		t.Fatal(err)
	}
	if res.User.Versions == nil || res.User.Versions.Count != 2 || res.User.Versions.Index != 1 {
		t.Fatalf("edited = %+v", res.User)
	}
	if got := s.lastRequest(); strings.Contains(got, "second question") || strings.Contains(got, "user: first question\n") {
		t.Errorf("the edited turn saw:\n%s", got)
	}
	d, _ := a.Sessions.LoadSession(sid)
	if shown(d) != "user: first question, better\nassistant: reply 3 to first question, better\n" {
		t.Fatalf("shown:\n%s", shown(d))
	}
	d, err = a.Chat.SelectVersion(sid, res.User.Versions.IDs[0])
	if err != nil || shown(d) != "user: first question\nassistant: reply 1 to first question\nuser: second question\nassistant: reply 2 to second question\n" {
		t.Fatalf("old branch:\n%s%v", shown(d), err)
	}
	if d.Messages[0].Versions == nil || d.Messages[0].Versions.Index != 0 {
		t.Errorf("versions = %+v", d.Messages[0].Versions)
	}
}

// TestDeleteTurn: deleting a turn removes its message and replies (from the
// search index too); the turns after it follow the one before it.
func TestDeleteTurn(t *testing.T) {
	s := &numbered{}
	a, core, _, _ := newTestApp(t, s.reply)
	one, err := a.Chat.SendMessage("r1", "", "alpha question")
	if err != nil {
		t.Fatal(err)
	}
	sid := one.Session.ID
	two, err := a.Chat.SendMessage("r2", sid, "zqbravo question")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.RegenerateReply("r3", sid, two.Assistant.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r4", sid, "charlie question"); err != nil {
		t.Fatal(err)
	}
	d, err := a.Chat.DeleteTurn(sid, two.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := shown(d); got != "user: alpha question\nassistant: reply 1 to alpha question\nuser: charlie question\nassistant: reply 4 to charlie question\n" {
		t.Fatalf("after delete:\n%s", got)
	}
	var n int
	core.db.QueryRow(`SELECT count(*) FROM messages WHERE session_id = ?`, sid).Scan(&n)
	if n != 4 {
		t.Errorf("%d messages stored, want 4", n)
	}
	if hits, err := core.sessions.Search(context.Background(), "zqbravo", 10); err != nil || len(hits) != 0 {
		t.Errorf("search still finds the deleted turn: %v %v", hits, err)
	}
	if _, err := a.Chat.SendMessage("r5", sid, "delta question"); err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); strings.Contains(got, "bravo") || !strings.Contains(got, "charlie question") {
		t.Errorf("the next turn saw:\n%s", got)
	}
	if _, err := a.Chat.DeleteTurn(sid, "nope"); err == nil {
		t.Error("deleting an unknown message worked")
	}
}
