package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// hermes project: create with defaults a chat in it takes (its system prompt
// reaches the model), move chats in and out, show, and delete keeping or
// erasing the chats, asking first.
func TestProjectCommands(t *testing.T) {
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": t.TempDir()}
	r := runCLI(t, env, "", "chat", "hello", "project")
	id := strings.TrimSpace(strings.TrimPrefix(r.stderr[strings.Index(r.stderr, "session: "):], "session: "))
	if r = runCLI(t, env, "", "project", "create", "Field trip", "--system", "Answer as a field guide."); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "create", "field TRIP"); r.code != 2 || !strings.Contains(r.stderr, "exists already") {
		t.Fatalf("a second project of the same name: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "move", id, "--to", "field trip"); r.code != 0 {
		t.Fatalf("move: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "move", id); r.code != 2 || !strings.Contains(r.stderr, "--to PROJECT or --out") {
		t.Fatalf("move without a project: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "session", "settings", id)
	var cs struct {
		System   string
		Defaults struct{ System string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &cs) != nil || cs.System != "" || cs.Defaults.System != "Answer as a field guide." {
		t.Fatalf("the chat's settings in the project: %+v %+v", cs, r)
	}
	if r = runCLI(t, env, "", "project", "list"); r.code != 0 || !strings.Contains(r.stdout, "Field trip") || !strings.Contains(r.stdout, "Answer as a field guide.") {
		t.Fatalf("list: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "show", "Field trip"); r.code != 0 || !strings.Contains(r.stdout, "chats: 1") || !strings.Contains(r.stdout, id) {
		t.Fatalf("show: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "delete", "Field trip"); r.code != 2 || !strings.Contains(r.stderr, "--keep-chats") {
		t.Fatalf("delete without saying what happens to the chats: %+v", r)
	}
	if r = runCLI(t, env, "", "project", "delete", "Field trip", "--keep-chats"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("delete without --yes in a script: %+v", r)
	}
	if r = runCLI(t, env, "", "--yes", "project", "delete", "Field trip", "--keep-chats"); r.code != 0 || !strings.Contains(r.stderr, "1 chat(s) kept, 0 deleted") {
		t.Fatalf("delete keeping the chats: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "show", id); r.code != 0 {
		t.Fatalf("the kept chat: %+v", r)
	}
	runCLI(t, env, "", "project", "create", "Scratch")
	runCLI(t, env, "", "project", "move", id, "--to", "Scratch")
	if r = runCLI(t, env, "", "--yes", "project", "delete", "Scratch", "--delete-chats"); r.code != 0 || !strings.Contains(r.stderr, "0 chat(s) kept, 1 deleted") {
		t.Fatalf("delete with the chats: %+v", r)
	}
	if r = runCLI(t, env, "", "session", "show", id); r.code != 2 {
		t.Fatalf("the deleted chat is still there: %+v", r)
	}
}
