package app

import (
	"strings"
	"testing"
)

// A profile switched to in the window is the one a new conversation recalls
// from: the default profile's memory is not offered there, and deleting the
// profile leaves the default one as it was.
func TestMemoryProfilesFromTheWindow(t *testing.T) {
	a, _, fake, _, _ := rememberPeanuts(t)
	if err := a.Memory.CreateMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.CreateMemoryProfile("work"); err == nil || !strings.Contains(err.Error(), "A profile of that name already exists") {
		t.Fatalf("second create = %v", err)
	}
	if err := a.Memory.UseMemoryProfile("nope"); err == nil || !strings.Contains(err.Error(), "no such profile") {
		t.Fatalf("use missing = %v", err)
	}
	if err := a.Memory.UseMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	list, err := a.Memory.MemoryProfiles()
	if err != nil || len(list) != 2 {
		t.Fatalf("profiles = %+v, %v", list, err)
	}
	for _, p := range list {
		if (p.Name == "work") != p.Active {
			t.Fatalf("active marked wrong: %+v", list)
		}
		if p.Name != "work" && p.Memories != 1 {
			t.Fatalf("default profile should hold the peanut memory: %+v", list)
		}
	}
	if _, err := a.Chat.SendMessage("w1", "", "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "allergic to peanuts") && strings.Contains(m.Content, "you told me on") {
			t.Fatal("a conversation in the work profile recalled the default profile's memory")
		}
	}
	if _, err := a.Memory.DeleteMemoryProfile("work"); err == nil || err.Error() != "Work is the active profile; switch to another profile first (hermes memory profile use personal), then delete it" {
		t.Fatalf("deleting the active profile = %v", err)
	}
	if err := a.Memory.UseMemoryProfile("personal"); err != nil {
		t.Fatal(err)
	}
	if r, err := a.Memory.DeleteMemoryProfile("work"); err != nil || r.LexicalMatches != 0 || r.VectorMatches != 0 {
		t.Fatal(r, err)
	}
	list, _ = a.Memory.MemoryProfiles()
	if len(list) != 1 || !list[0].Active || list[0].Memories != 1 {
		t.Fatalf("after delete: %+v", list)
	}
	if _, err := a.Memory.DeleteMemoryProfile(list[0].Name); err == nil || !strings.Contains(err.Error(), "default profile") {
		t.Fatalf("deleting the default = %v", err)
	}
}

// Renaming from the window: the memories and the active mark follow, and
// Confirm moves a fact into the profile layer.
func TestRenameMemoryProfileAndConfirmFromTheWindow(t *testing.T) {
	a, _, _, _, _ := rememberPeanuts(t)
	if err := a.Memory.CreateMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.UseMemoryProfile("work"); err != nil {
		t.Fatal(err)
	}
	m, err := a.Memory.MemoryAdd("My desk is on the third floor")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.MemoryConfirm([]string{m.ID}); err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.RenameMemoryProfile("work", "job"); err != nil {
		t.Fatal(err)
	}
	if err := a.Memory.RenameMemoryProfile("job", "personal"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("rename onto another profile = %v", err)
	}
	d, err := a.Memory.MemoryShow(m.ID)
	if err != nil || d.Memory.Profile != "job" || d.Memory.Layer != "profile" {
		t.Fatalf("after rename: %+v, %v", d.Memory, err)
	}
	list, _ := a.Memory.MemoryProfiles()
	for _, p := range list {
		if (p.Name == "job") != p.Active || p.Name == "work" {
			t.Fatalf("profiles = %+v", list)
		}
	}
}
