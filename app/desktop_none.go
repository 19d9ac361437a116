//go:build !desktop

package app

// DesktopLinked: this executable holds the window (built with the desktop
// tag). hermes, the command line and web mode, is built without it: no GTK or
// WebKit is loaded for a command, and it starts the window's executable,
// hermes-desktop, when asked for the window (docs/architecture.md, "Executables").
const DesktopLinked = false

// RunDesktop is not in an executable built without the desktop tag.
func RunDesktop(*App, DesktopOptions) error { return ErrNoWindow }
