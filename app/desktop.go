//go:build desktop

package app

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// DesktopLinked: this executable holds the window (built with the desktop
// tag). The command line, hermes, is built without it and starts the window's
// executable instead (docs/architecture.md, "Executables").
const DesktopLinked = true

// RunDesktop opens the Wails window and blocks until it is closed.
func RunDesktop(app *App, opts DesktopOptions) error {
	if !HasDisplay(opts.Getenv) {
		return ErrNoDisplay
	}
	var wailsCtx context.Context
	stage := opts.OnStage
	if stage == nil {
		stage = func(string, time.Duration) {}
	}
	app.ready = func() {
		stage("window: first status answered (UI ready)", 0)
		if !opts.Smoke {
			return
		}
		fmt.Fprintf(opts.Log, "HERMES_UI_READY ms=%d\n", time.Since(opts.Started).Milliseconds())
		go func() {
			time.Sleep(opts.SmokeHold)
			runtime.Quit(wailsCtx)
		}()
	}
	err := wails.Run(&options.App{
		Title:            "Hermes",
		Width:            1100,
		Height:           760,
		MinWidth:         640,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		AssetServer:      &assetserver.Options{Assets: opts.Assets},
		OnDomReady:       func(context.Context) { stage("window: page loaded and run (DOM ready)", 0) },
		OnStartup: func(ctx context.Context) {
			stage("window: GTK and the web view made (startup)", 0)
			wailsCtx = ctx
			app.core.WarmIntent() // loads while the page does
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
					Filters: []runtime.FileFilter{{DisplayName: title + " (" + pattern + ")", Pattern: pattern}}})
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
