package cli

import (
	"strings"
	"testing"
)

// HERMES_START_TRACE=1 lists each stage of a command with its time, on
// stderr; without it nothing is added.
func TestStartTrace(t *testing.T) {
	env := map[string]string{"HERMES_DATA_DIR": t.TempDir(), "HERMES_START_TRACE": "1"}
	r := runCLI(t, env, "", "session", "list")
	for _, stage := range []string{"flags", "database (open, migrations, check)", "tools (built-in", "session", "close"} {
		if !strings.Contains(r.stderr, "start: "+stage) {
			t.Errorf("no %q stage in %q", stage, r.stderr)
		}
	}
	delete(env, "HERMES_START_TRACE")
	if r = runCLI(t, env, "", "session", "list"); strings.Contains(r.stderr, "start:") {
		t.Errorf("traced without asking: %q", r.stderr)
	}
}
