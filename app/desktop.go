package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	goruntime "runtime"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
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
}

// ErrNoDisplay is a window asked for where there is no display to show it on.
var ErrNoDisplay = errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
	"use `hermes serve` to open Hermes in a browser, or the command line (`hermes help`)")

// hasDisplay is whether a graphical session is there to open a window on.
func hasDisplay(getenv func(string) string) bool {
	if goruntime.GOOS != "linux" || getenv == nil {
		return true
	}
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// RunDesktop opens the Wails window and blocks until it is closed.
func RunDesktop(app *App, opts DesktopOptions) error {
	if !hasDisplay(opts.Getenv) {
		return ErrNoDisplay
	}
	var wailsCtx context.Context
	if opts.Smoke {
		app.ready = func() {
			fmt.Fprintf(opts.Log, "HERMES_UI_READY ms=%d\n", time.Since(opts.Started).Milliseconds())
			go func() {
				time.Sleep(opts.SmokeHold)
				runtime.Quit(wailsCtx)
			}()
		}
	}
	err := wails.Run(&options.App{
		Title:            "Hermes",
		Width:            1100,
		Height:           760,
		MinWidth:         640,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		AssetServer:      &assetserver.Options{Assets: opts.Assets},
		OnStartup: func(ctx context.Context) {
			wailsCtx = ctx
			app.emit = func(name string, data any) { runtime.EventsEmit(ctx, name, data) }
			go app.core.RunMaintenance(ctx, time.Minute)
			_ = app.core.StartMCP(ctx) // problems show in the MCP panel
			go app.core.RunMemoryWorker(ctx)
			app.saveDialog = func(name string) (string, error) {
				return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{DefaultFilename: name, Title: "Export conversation"})
			}
			app.folderDialog = func(title string) (string, error) {
				return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title})
			}
			app.openPath = func(path string) { runtime.BrowserOpenURL(ctx, (&url.URL{Scheme: "file", Path: path}).String()) }
			app.openDialog = func(title, pattern string) (string, error) {
				return runtime.OpenFileDialog(ctx, runtime.OpenDialogOptions{Title: title,
					Filters: []runtime.FileFilter{{DisplayName: "GGUF model files (" + pattern + ")", Pattern: pattern}}})
			}
		},
		Bind: []interface{}{app},
		// A failed call rejects the page's promise with an ErrorBody (message, code,
		// params), as the web mode answers it.
		ErrorFormatter: FormatError,
	})
	if err != nil {
		return fmt.Errorf("open desktop window: %w", err)
	}
	return nil
}
