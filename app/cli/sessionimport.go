package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"hermes/app"
)

// sessionImport is `session import`: Hermes' own JSONL (--jsonl FILE) or
// another assistant's export (--from chatgpt|claude|openwebui FILE), checked
// whole first, then written all or nothing (the new conversations in
// --project P); --dry-run prints what the file holds and writes nothing.
func sessionImport(core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("session import")
	jsonl := fs.String("jsonl", "", "JSONL file of {\"session\",\"id\",\"role\",\"content\",\"created_at\"}")
	from := fs.String("from", "", "the export's maker: chatgpt, claude or openwebui")
	dry := fs.Bool("dry-run", false, "count what the file holds; write nothing")
	project := fs.String("project", "", "put the new conversations in this project (its name or id)")
	if err := parse(fs, args); err != nil {
		return err
	}
	source, file := "jsonl", *jsonl
	switch {
	case *from != "" && *jsonl != "":
		return usagef("session import: give --jsonl FILE or --from SOURCE FILE, not both")
	case *from != "":
		if fs.NArg() != 1 {
			return usagef("session import: give the export file: --from %s FILE (ChatGPT and Claude: the conversations.json in the export's zip)", *from)
		}
		source, file = strings.ToLower(*from), fs.Arg(0)
		if !knownSource(source) {
			return usagef("session import: --from %q is no source Hermes reads; use chatgpt, claude or openwebui", *from)
		}
	case *jsonl == "":
		return usagef("session import: give --jsonl FILE, or --from chatgpt|claude|openwebui FILE")
	default:
		if err := noArgs("session import", fs.Args()); err != nil {
			return err
		}
	}
	f, err := os.Open(file)
	if err != nil {
		return usagef("session import: %v", err)
	}
	defer f.Close()
	ctx := context.Background()
	check := bytesPrinter(env, "checking "+file)
	bad := func(err error) error {
		msg := strings.TrimPrefix(err.Error(), app.ErrInvalid.Error()+": ")
		return usagef("session import: %s: %s", file, strings.ReplaceAll(msg, "\n", "; "))
	}
	if *dry {
		p, err := core.PreviewChatImport(ctx, source, f, check)
		if errors.Is(err, app.ErrInvalid) {
			return bad(err)
		}
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, p)
		}
		printPreview(env.Stdout, file, p)
		fmt.Fprintln(env.Stdout, "nothing was written (--dry-run)")
		return nil
	}
	res, p, err := core.ImportChats(ctx, source, *project, f, check, progressPrinter(env, "importing messages"))
	if errors.Is(err, app.ErrInvalid) {
		return bad(err)
	}
	if app.IsNotFound(err) && *project != "" {
		return usagef("session import: no project %q; see `hermes project list` (`hermes project create NAME` makes one)", *project)
	}
	if err != nil {
		return err
	}
	if g.json {
		if source == "jsonl" {
			return printJSON(env.Stdout, res)
		}
		return printJSON(env.Stdout, struct {
			app.SessionImportResult
			Preview app.ChatImportPreview `json:"preview"`
		}{res, p})
	}
	fmt.Fprintf(env.Stdout, "imported %d messages in %d new sessions (%d already there)\n", res.Messages, res.Sessions, res.Skipped)
	if p.Images > 0 {
		fmt.Fprintln(env.Stdout, imagesNote(p.Images))
	}
	return nil
}

func knownSource(s string) bool {
	for _, k := range app.ChatImportSources() {
		if k == s {
			return true
		}
	}
	return s == "open-webui"
}

// printPreview says what an import would write.
func printPreview(w io.Writer, file string, p app.ChatImportPreview) {
	if p.Source == "jsonl" {
		fmt.Fprintf(w, "%s: %d messages\n", file, p.Messages)
		return
	}
	fmt.Fprintf(w, "%s: %d conversations, %d messages", file, p.Conversations, p.Messages)
	if p.Branches > 0 {
		fmt.Fprintf(w, " (%d of them other versions: regenerated replies and edited prompts)", p.Branches)
	}
	fmt.Fprintln(w)
	if p.First != "" {
		fmt.Fprintf(w, "from %s to %s\n", p.First[:10], p.Last[:10])
	}
	if p.Skipped > 0 {
		fmt.Fprintf(w, "%d entries not carried: system and hidden messages, tool calls and their results, empty ones\n", p.Skipped)
	}
	if p.Images > 0 {
		fmt.Fprintln(w, imagesNote(p.Images))
	}
	if p.Shortened > 0 {
		fmt.Fprintf(w, "%d messages over 256 KiB are shortened, with a note saying so\n", p.Shortened)
	}
}

// imagesNote says that n images are not carried.
func imagesNote(n int) string {
	if n == 1 {
		return "1 image is not carried: it is a line such as [image: file-…] in its message"
	}
	return fmt.Sprintf("%d images are not carried: each is a line such as [image: file-…] in its message", n)
}

// bytesPrinter reports the reading of a file on stderr, in KiB.
func bytesPrinter(env Env, what string) func(done, total int64) {
	p := progressPrinter(env, what+" (KiB)")
	last := -1
	return func(done, total int64) {
		if d := int(done >> 10); d != last { // the reader reads ahead: several conversations end at one offset
			last = d
			p(d, int(total>>10))
		}
	}
}

// exportPDF is `session export ID --format pdf`: to --out, or to stdout when
// it is not a terminal.
func exportPDF(core *app.Core, id, out string, env Env) error {
	if out == "" {
		if f, ok := env.Stdout.(*os.File); ok && isTerminal(f) {
			return usagef("session export: a PDF is not for the terminal; give --out FILE.pdf (or redirect stdout)")
		}
		err := core.ExportPDF(context.Background(), id, env.raw())
		return sessionErr("session export", id, err)
	}
	var b strings.Builder
	if err := core.ExportPDF(context.Background(), id, &b); err != nil {
		return sessionErr("session export", id, err)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("session export: %w", err)
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", out)
	return nil
}
