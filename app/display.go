package app

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"hermes/backend/intent"
)

// DesktopOptions configure the window.
type DesktopOptions struct {
	Assets fs.FS
	// Smoke makes the app print "HERMES_UI_READY ms=N" to Log once the UI has
	// loaded and called the backend, then quit after SmokeHold. Used by the
	// desktop smoke test.
	Smoke     bool
	SmokeHold time.Duration
	Started   time.Time
	Log       io.Writer
	// Getenv reads the environment (the display the window opens on).
	Getenv func(string) string
	// OnStage, when set, is told each stage of the window's start as it ends
	// (HERMES_START_TRACE): took 0 is the time since the stage before.
	OnStage func(name string, took time.Duration)
}

// ErrNoDisplay is a window asked for where there is no display to show it on.
var ErrNoDisplay = errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
	"use `hermes serve` to open Hermes in a browser, or the command line (`hermes help`)")

// HasDisplay is whether a graphical session is there to open a window on.
func HasDisplay(getenv func(string) string) bool {
	if goruntime.GOOS != "linux" || getenv == nil {
		return true
	}
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// WindowName is the window's executable: hermes, the command line, links no
// desktop stack and starts it for the window (docs/architecture.md,
// "Executables").
const WindowName = "hermes-desktop"

// ErrNoWindow is the window asked of a hermes whose window executable is not
// installed beside it.
var ErrNoWindow = errors.New("the window is not installed (" + WindowName + ", next to hermes or in " + intent.SystemDir + "): " +
	"reinstall Hermes, or use `hermes serve` to open it in a browser")

// PackagedBinDir is where the package puts hermes (build/package/nfpm.yaml).
const PackagedBinDir = "/usr/bin"

// WindowExecutable finds the window's executable for the hermes at self: in
// the same folder (a build, the offline bundle), else, for the packaged
// /usr/bin/hermes only, in the package's lib directory (a hermes elsewhere, a
// build or a test, never starts the window of an installed package, which may
// be another version).
func WindowExecutable(self string) (string, error) {
	dirs := []string{filepath.Dir(self)}
	if filepath.Dir(self) == PackagedBinDir {
		dirs = append(dirs, intent.SystemDir)
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, WindowName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", ErrNoWindow
}
