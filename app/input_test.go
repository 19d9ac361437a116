package app

import (
	"strings"
	"testing"
)

// TestNULRefusedAtEveryDoor: the window and web mode (SendMessage) and an
// edit refuse a NUL character that a later import or export could not carry.
func TestNULRefusedAtEveryDoor(t *testing.T) {
	a, _, _, _ := newTestApp(t, nil)
	if _, err := a.Chat.SendMessage("r1", "", "cut\x00here"); err == nil || !IsBadInput(err) || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("send: %v", err)
	}
	res, err := a.Chat.SendMessage("r2", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.EditMessage("r3", res.Session.ID, res.User.ID, "x\x00y"); err == nil || !IsBadInput(err) {
		t.Fatalf("edit: %v", err)
	}
	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil || len(d.Messages) != 2 {
		t.Fatalf("the conversation changed: %+v, %v", d.Messages, err)
	}
}
