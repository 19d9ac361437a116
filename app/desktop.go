//go:build desktop

package app

import (
	"context"
	"fmt"
	"net/url"
	"sync"
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
	stage := opts.OnStage
	if stage == nil {
		stage = func(string, time.Duration) {}
	}
	var wailsCtx context.Context
	var work deferredWork
	app.ready = func() {
		stage("window: first status answered (UI ready)", 0)
		go work.start(wailsCtx, app.core)
		if !opts.Smoke {
			return
		}
		fmt.Fprintf(opts.Log, "HERMES_UI_READY ms=%d\n", time.Since(opts.Started).Milliseconds())
		checkBound(wailsCtx, app, opts.Log)
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
		OnShutdown:       func(context.Context) { work.stop() },
		OnStartup: func(ctx context.Context) {
			stage("window: GTK and the web view made (startup)", 0)
			wailsCtx = ctx
			app.emit = func(name string, data any) { runtime.EventsEmit(ctx, name, data) }
			_ = app.core.StartMCP(ctx) // problems show in the MCP panel, which the page lists at once
			work.arm(ctx, app.core)
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
		Bind: app.boundServices(),
		// A failed call rejects the page's promise with an ErrorBody (message, code,
		// params), as the web mode answers it.
		ErrorFormatter: FormatError,
	})
	if err != nil {
		return fmt.Errorf("open desktop window: %w", err)
	}
	return nil
}

// deferredWork is what the window keeps running while it is open (the
// classifier's ONNX Runtime, maintenance, the memory worker): it starts once
// the page has answered its first status, or backgroundDelay after start if it
// never does, since on two cores it would otherwise take the CPU the page
// needs to load; never after the window closed.
type deferredWork struct {
	once  sync.Once
	timer *time.Timer
}

// backgroundDelay bounds how long the background work waits for the page.
const backgroundDelay = 5 * time.Second

func (w *deferredWork) arm(ctx context.Context, core *Core) {
	w.timer = time.AfterFunc(backgroundDelay, func() { w.start(ctx, core) })
}

func (w *deferredWork) start(ctx context.Context, core *Core) {
	w.once.Do(func() {
		core.WarmIntent()
		go core.RunMaintenance(ctx, time.Minute)
		go core.RunMemoryWorker(ctx)
	})
}

// stop: the window closes; what has not started never will.
func (w *deferredWork) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
	w.once.Do(func() {})
}
