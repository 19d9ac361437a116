// Hermes: a private, offline desktop assistant. With no arguments it opens the desktop
// window; with a subcommand it is the CLI; `hermes serve` is the loopback web mode.
package main

import (
	"embed"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"hermes/app"
	"hermes/app/cli"
	"hermes/backend/cage"
	"hermes/backend/intent"
)

//go:embed all:frontend/dist
var dist embed.FS

// version is set at build time: -ldflags "-X main.version=$(git describe --tags --always --dirty)".
var version = "dev"

// The intent model travels inside the binary (about 1.8 MB, read there: no
// copy is written to disk), with the data it was trained from (about 1.1 MB)
// for `hermes intent train --with-corrections`.
//
//go:embed models/intent/labels.json models/intent/featurizer.json
//go:embed models/intent/train.jsonl models/intent/dev.jsonl models/intent/test.jsonl
var intentModel embed.FS

// The model's graph is a []byte where the linker placed it: handed to ONNX
// Runtime without a copy in the heap (intent.BuiltIn).
//
//go:embed models/intent/intent.onnx
var intentONNX []byte

func main() {
	cage.RunIfChild() // a file reader in the parser cage: nothing else of Hermes starts
	started := time.Now()
	app.TuneRuntime(os.Getenv)
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	files, err := fs.Sub(intentModel, "models/intent")
	if err != nil {
		panic(err)
	}
	model := intent.BuiltIn{FS: files, InPlace: map[string][]byte{intent.ModelFile: intentONNX}}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	os.Exit(cli.Main(cli.Env{
		Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Assets: assets, IntentModel: model, Started: started, Interrupts: interrupts, Version: version,
	}))
}
