package cli

import (
	"fmt"
	"os"
	"syscall"

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
	return fmt.Errorf("open the window: %s: %w", exe, syscall.Exec(exe, argv, os.Environ()))
}
