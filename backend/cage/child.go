package cage

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"hermes/backend/document"
)

// IsChild is whether args (os.Args) start a cage child.
func IsChild(args []string) bool { return len(args) > 1 && args[1] == Command }

// RunIfChild runs the cage child and exits when this process is one; main and
// the TestMain of packages whose tests read PDFs call it first.
func RunIfChild() {
	if IsChild(os.Args) {
		os.Exit(Child(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// Child is the child's side: it limits itself (before it reads a byte of the
// file), reads the file from stdin, and writes one answer to stdout. With
// --text it reads as document.ExtractText and says on stderr as each page's
// recognition begins (progressPrefix). Exit 0 with an answer, 2 on a bad
// command line; a parser's death is the parent's to word.
func Child(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	memory := fs.Int64("memory", DefaultLimits().Memory, "bytes")
	cpu := fs.Int64("cpu", int64(DefaultLimits().CPU.Seconds()), "seconds")
	text := fs.Bool("text", false, "read for the knowledge base (document.ExtractText)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: hermes "+Command+" --memory BYTES --cpu SECONDS [--text] -- NAME <FILE")
		return 2
	}
	if err := limit(*memory, *cpu); err != nil {
		fmt.Fprintln(stderr, "cage: "+err.Error())
		return 3
	}
	debug.SetMemoryLimit(*memory / 2) // collect early; the hard limit is the kernel's
	data, err := io.ReadAll(io.LimitReader(stdin, document.MaxFileBytes+1))
	if err != nil {
		fmt.Fprintln(stderr, "cage: read the file: "+err.Error())
		return 3
	}
	var a answer
	var doc document.Doc
	if *text {
		doc, err = document.ExtractTextWith(fs.Arg(0), data, document.TextOptions{
			Page:   func(n, of int) { fmt.Fprintf(stderr, "%s%d of %d\n", progressPrefix, n, of) },
			CPU:    time.Duration(*cpu) * time.Second,
			Memory: *memory,
		})
	} else {
		doc, err = document.Extract(fs.Arg(0), data)
	}
	var r *document.Refusal
	switch {
	case err == nil:
		a.Doc = &doc
	case errors.As(err, &r):
		a.Refusal = &refusal{Reason: r.Reason, Kind: r.KindName(), Params: r.Params, Message: r.Message()}
	default:
		a.Refusal = &refusal{Reason: document.RefusedReaderFailed, Kind: "unsupported", Params: map[string]string{"detail": err.Error()}, Message: err.Error()}
	}
	if err := json.NewEncoder(stdout).Encode(a); err != nil {
		fmt.Fprintln(stderr, "cage: write the answer: "+err.Error())
		return 3
	}
	return 0
}
