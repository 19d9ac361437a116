package cli

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"hermes/app"
)

// openWindow puts the window's executable in this process's place (the same
// pid, arguments and environment): hermes, the command line and web mode,
// links no GTK or WebKit (docs/architecture.md, "Executables").
func openWindow(env Env) error {
	if !app.HasDisplay(env.Getenv) {
		return app.ErrNoDisplay
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("open the window: %w", err)
	}
	exe, err := app.WindowExecutable(self)
	if err != nil {
		return err
	}
	argv := append([]string{exe}, env.Args...)
	environ := append(os.Environ(), launchedAt+"="+strconv.FormatInt(env.Started.UnixNano(), 10))
	return fmt.Errorf("open the window: %s: %w", exe, syscall.Exec(exe, argv, environ))
}

// launchedAt carries when hermes started into the window's executable, so
// that the window's start-up (HERMES_SMOKE's UI-ready time) counts from the
// command the user ran.
const launchedAt = "HERMES_LAUNCHED_AT"

// started is when the user's command started: the launching hermes's time
// when it handed over to this executable, else this process's.
func started(env Env) time.Time {
	if ns, err := strconv.ParseInt(env.Getenv(launchedAt), 10, 64); err == nil && ns > 0 && ns <= env.Started.UnixNano() {
		return time.Unix(0, ns)
	}
	return env.Started
}
