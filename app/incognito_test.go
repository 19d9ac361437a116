package app

import (
	"context"
	"os"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/procid"
	"hermes/backend/session"
	"hermes/backend/store/storetest"
)

func openAt(t *testing.T, dir, ollama string) *Core {
	t.Helper()
	env := map[string]string{"OLLAMA_HOST": ollama}
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string { return env[k] },
		IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	return core
}

// TestIncognitoChatIsKeptOnlyWhileOpen: a chat started in incognito is marked
// so, found by no search, and erased (every file of the data dir) when its
// Hermes closes; a normal chat stays.
func TestIncognitoChatIsKeptOnlyWhileOpen(t *testing.T) {
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(1, 0)
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	dir := t.TempDir()
	core := openAt(t, dir, srv.URL)
	a := NewApp(core, nil)
	if _, err := a.Chat.SendMessage("r0", "", "a normal chat about zqxnormal"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SetIncognito(true); err != nil {
		t.Fatal(err)
	}
	fresh, err := a.Chat.NewSession() // the window's new chat: incognito while incognito is on
	if err != nil || !fresh.Incognito {
		t.Fatalf("new chat in incognito: %+v, %v", fresh, err)
	}
	res, err := a.Chat.SendMessage("r1", fresh.ID, "a secret about zqxincognito")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r2", res.Session.ID, "more of zqxincognito"); err != nil {
		t.Fatal(err)
	}
	list, err := a.Sessions.ListSessions()
	if err != nil || len(list) != 2 {
		t.Fatalf("list = %+v, %v", list, err)
	}
	for _, s := range list {
		if s.Incognito != (s.ID == res.Session.ID) {
			t.Errorf("session %s marked incognito=%v", s.ID, s.Incognito)
		}
	}
	ctx := context.Background()
	if hits, err := core.SearchSessions(ctx, "zqxincognito", 10); err != nil || len(hits) != 0 {
		t.Errorf("an incognito chat was found by search: %+v, %v", hits, err)
	}
	if hits, err := core.SearchSessions(ctx, "zqxnormal", 10); err != nil || len(hits) == 0 {
		t.Errorf("a normal chat was not found: %+v, %v", hits, err)
	}
	if err := core.Close(); err != nil {
		t.Fatal(err)
	}
	if held := storetest.DirHolds(t, dir, "zqxincognito"); len(held) != 0 {
		t.Errorf("the incognito chat survived its Hermes in %v", held)
	}
	again := openAt(t, dir, srv.URL)
	defer again.Close()
	list, err = NewApp(again, nil).Sessions.ListSessions()
	if err != nil || len(list) != 1 || list[0].Incognito {
		t.Fatalf("after close: %+v, %v", list, err)
	}
}

// TestIncognitoLeftByADeadHermesIsErasedAtOpen: an incognito chat whose Hermes
// died is erased by the next one to open the data dir, with a receipt; one
// whose Hermes still runs is left alone.
func TestIncognitoLeftByADeadHermesIsErasedAtOpen(t *testing.T) {
	dir := t.TempDir()
	core := openAt(t, dir, closedHost(t))
	ctx := context.Background()
	gone := procid.ID{PID: 1 << 22, Start: 1, Boot: procid.Self().Boot}.String() // no such process
	alive := procid.Of(os.Getppid()).String()
	for owner, text := range map[string]string{gone: "zqxorphan", alive: "zqxlive"} {
		s, err := core.sessions.CreateIncognito(ctx, owner)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := core.sessions.Append(ctx, session.Message{SessionID: s.ID, Role: "user", Content: text}); err != nil {
			t.Fatal(err)
		}
	}
	core.Close() // this process owns neither: both stay
	again := openAt(t, dir, closedHost(t))
	defer again.Close()
	erased := again.ErasedIncognito()
	if len(erased) != 1 || erased[0].Messages != 1 || !erased[0].Checkpointed {
		t.Fatalf("erased at open: %+v", erased)
	}
	if held := storetest.DirHolds(t, dir, "zqxorphan"); len(held) != 0 {
		t.Errorf("the orphan survived in %v", held)
	}
	list, _ := NewApp(again, nil).Sessions.ListSessions()
	if len(list) != 1 || !list[0].Incognito {
		t.Errorf("the live Hermes's incognito chat: %+v", list)
	}
}
