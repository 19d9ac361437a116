package cli

import (
	"strings"
	"testing"
)

// HERMES_START_TRACE=1 lists each stage of a command with its time, on
// stderr; without it nothing is added. A command that only reads
// conversations opens no tools (Options.ReadConversations); others do.
func TestStartTrace(t *testing.T) {
	env := map[string]string{"HERMES_DATA_DIR": t.TempDir(), "HERMES_START_TRACE": "1"}
	r := runCLI(t, env, "", "session", "list")
	for _, stage := range []string{"flags", "database (open, migrations, check)", "incognito chats left", "session", "close"} {
		if !strings.Contains(r.stderr, "start: "+stage) {
			t.Errorf("no %q stage in %q", stage, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "start: tools (built-in") {
		t.Errorf("session list opened the tools: %q", r.stderr)
	}
	if r = runCLI(t, env, "", "settings", "get", "chat_model"); !strings.Contains(r.stderr, "start: tools (built-in") {
		t.Errorf("no tools stage for settings get: %q", r.stderr)
	}
	delete(env, "HERMES_START_TRACE")
	if r = runCLI(t, env, "", "session", "list"); strings.Contains(r.stderr, "start:") {
		t.Errorf("traced without asking: %q", r.stderr)
	}
}
