package app

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"hermes/backend/session"
)

// attach attaches a text document and returns the line a message names it with.
func attach(t *testing.T, a *App, name, text string) string {
	t.Helper()
	info, err := a.Chat.AttachDocument(name, base64.StdEncoding.EncodeToString([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	return session.DocumentRef{ID: info.ID, Name: info.Name, Kind: info.Kind, Tokens: info.Tokens, Chars: info.Chars}.Tag()
}

func reportHas(rep ContextReport, text string) bool {
	for _, it := range rep.Items {
		if it.Reason == "document" && strings.Contains(it.Preview, text) {
			return true
		}
	}
	return false
}

// contextHas reports whether the reply's context report (the inspector, and
// `session context --reply`) lists a document whose preview holds text.
func contextHas(t *testing.T, a *App, sid, replyID, text string) bool {
	t.Helper()
	rep, err := a.Chat.ReplyContext(sid, replyID)
	if err != nil {
		t.Fatal(err)
	}
	return reportHas(rep, text)
}

// builtHas reports whether `session context` (BuildContext) for a next message
// carries a document holding text.
func builtHas(t *testing.T, core *Core, sid, text string) bool {
	t.Helper()
	c, err := core.BuildContext(context.Background(), sid, "what next?", 4096)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range c.Items {
		if it.Reason == "document" && strings.Contains(it.Content, text) {
			return true
		}
	}
	return false
}

// TestHiddenBranchDocumentsStayOut: a document attached to a message on a
// branch that is no longer shown does not enter later turns; choosing that
// branch again brings it back.
func TestHiddenBranchDocumentsStayOut(t *testing.T) {
	s := &numbered{}
	a, core, _, _ := newTestApp(t, s.reply)
	const textA, textB = "Alpha ledger: the quokka fund holds 41 shares.", "Beta ledger: the narwhal fund holds 7 shares."
	one, err := a.Chat.SendMessage("r1", "", "summarise the ledger\n\n"+attach(t, a, "a.txt", textA))
	if err != nil {
		t.Fatal(err)
	}
	sid := one.Session.ID
	if got := s.lastRequest(); !strings.Contains(got, "quokka fund") {
		t.Fatalf("doc A missing from the first turn:\n%s", got)
	}
	// Edit: the new version names doc B instead of A.
	ed, err := a.Chat.EditMessage("r2", sid, one.User.ID, "summarise this ledger instead\n\n"+attach(t, a, "b.txt", textB))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); strings.Contains(got, "quokka") || !strings.Contains(got, "narwhal fund") {
		t.Fatalf("the edited turn saw:\n%s", got)
	}
	next, err := a.Chat.SendMessage("r3", sid, "and the total?")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); strings.Contains(got, "quokka") || !strings.Contains(got, "narwhal fund") {
		t.Fatalf("the turn after the edit saw:\n%s", got)
	}
	if contextHas(t, a, sid, next.Assistant.ID, "quokka") || !contextHas(t, a, sid, next.Assistant.ID, "narwhal") {
		t.Errorf("the context report of the turn after the edit disagrees with its request")
	}
	if builtHas(t, core, sid, "quokka") || !builtHas(t, core, sid, "narwhal") {
		t.Errorf("session context after the edit disagrees with the turn")
	}
	// Regenerating on the new branch keeps A out too.
	if _, err := a.Chat.RegenerateReply("r3b", sid, next.Assistant.ID); err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); strings.Contains(got, "quokka") || !strings.Contains(got, "narwhal fund") {
		t.Fatalf("the regenerated turn saw:\n%s", got)
	}
	// Back to the first version: A is back, B is gone.
	if _, err := a.Chat.SelectVersion(sid, ed.User.Versions.IDs[0]); err != nil {
		t.Fatal(err)
	}
	// The Context panel (LastContext) shows the chosen branch's last reply, not
	// the newest reply of the branch just hidden.
	last, err := a.Sessions.LastContext(sid)
	if err != nil || last.MessageID != one.Assistant.ID || !reportHas(last, "quokka") || reportHas(last, "narwhal") {
		t.Errorf("the Context panel after choosing the first version: %+v, %v", last, err)
	}
	back, err := a.Chat.SendMessage("r4", sid, "and the total now?")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.lastRequest(); !strings.Contains(got, "quokka fund") || strings.Contains(got, "narwhal") {
		t.Fatalf("after choosing the first version the turn saw:\n%s", got)
	}
	if !contextHas(t, a, sid, back.Assistant.ID, "quokka") || contextHas(t, a, sid, back.Assistant.ID, "narwhal") {
		t.Errorf("the context report after choosing the first version disagrees with its request")
	}
	if !builtHas(t, core, sid, "quokka") || builtHas(t, core, sid, "narwhal") {
		t.Errorf("session context after choosing the first version disagrees with the turn")
	}
}
