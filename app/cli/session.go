package cli

import (
	"bufio"
	"context"
	"fmt"
	"golang.org/x/term"
	"io"
	"os"
	"strings"

	"hermes/app"
)

func notFound(cmd, id string) error {
	return usagef("%s: no session %q; see `hermes session list`", cmd, id)
}

func sessionCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("session: say list, show, search, export, import, context, settings, rename, pin, unpin, archive or delete")
	}
	ctx := context.Background()
	sub, args := args[0], args[1:]
	switch sub {
	case "export", "import", "context", "search", "settings": // these parse their own flags
	default:
		var err error
		if args, err = positional("session "+sub, args); err != nil {
			return err
		}
	}
	switch sub {
	case "list":
		return sessionList(ctx, core, g, args, env)
	case "show":
		return sessionShow(ctx, core, g, args, env)
	case "search":
		return sessionSearch(ctx, core, g, args, env)
	case "export":
		return sessionExport(core, app.NewApp(core, nil), args, env)
	case "import":
		return sessionImport(core, g, args, env)
	case "context":
		return contextCmd(core, g, args, env)
	case "settings":
		return sessionSettingsCmd(core, g, args, env)
	case "rename":
		if len(args) < 2 {
			return usagef("session rename: give an id and a title")
		}
		return sessionErr("session rename", args[0], core.RenameSession(ctx, args[0], strings.Join(args[1:], " ")))
	case "pin", "unpin":
		if len(args) != 1 {
			return usagef("session %s: give one session id", sub)
		}
		return sessionErr("session "+sub, args[0], core.PinSession(ctx, args[0], sub == "pin"))
	case "archive":
		if len(args) != 1 {
			return usagef("session archive: give one session id")
		}
		return sessionErr("session archive", args[0], core.ArchiveSession(ctx, args[0]))
	case "delete":
		return sessionDelete(ctx, core, g, args, env)
	}
	return usagef("session: unknown subcommand %q", sub)
}

func sessionList(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if err := noArgs("session list", args); err != nil {
		return err
	}
	list, err := core.ListSessions(ctx)
	if err != nil || g.json {
		return orJSON(env, list, err)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tUPDATED\tSTATE\tMESSAGES\tTITLE")
	for _, s := range list {
		pin := ""
		if s.Pinned {
			pin = "📌 "
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s%s\n", s.ID, s.UpdatedAt[:19], s.State, s.MessageCount, pin, s.Title)
	}
	return tw.Flush()
}

func sessionShow(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) != 1 {
		return usagef("session show: give one session id")
	}
	d, err := core.LoadSession(ctx, args[0])
	if err != nil {
		if app.IsNotFound(err) {
			return notFound("session show", args[0])
		}
		return err
	}
	if g.json {
		return printJSON(env.Stdout, d)
	}
	fmt.Fprintf(env.Stdout, "# %s\n(session %s, %d messages)\n", d.Session.Title, d.Session.ID, len(d.Messages))
	for _, m := range d.Messages {
		head := m.Role
		switch {
		case m.Tool != nil:
			head = fmt.Sprintf("tool %s %s [%s, %d ms]", m.Tool.Tool, m.Tool.Args, m.Tool.Status, m.Tool.LatencyMs)
		case m.Status != app.MessageOK:
			head += " [" + m.Status + "]"
		}
		fmt.Fprintf(env.Stdout, "\n%s:\n%s\n", head, m.Content)
		if m.Stop != nil {
			fmt.Fprintf(env.Stdout, "(the loop guard stopped this turn: %s)\n", m.Stop.Message)
		}
		if m.Unverified {
			fmt.Fprintln(env.Stdout, "(warning: this reply claims an action no tool call performed)")
		}
	}
	return nil
}

func sessionSearch(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("session search")
	limit := fs.Int("limit", 20, "most results")
	if err := parse(fs, args); err != nil {
		return err
	}
	q := strings.Join(fs.Args(), " ")
	hits, err := core.SearchSessions(ctx, q, *limit)
	if err != nil {
		if app.IsBadInput(err) {
			return usagef("session search: give words to search for")
		}
		return err
	}
	if g.json {
		return printJSON(env.Stdout, app.ToSearchHits(hits))
	}
	for _, h := range hits {
		fmt.Fprintf(env.Stdout, "%s  %s #%d (%s)\n    %s\n", h.SessionID, h.SessionTitle, h.Seq, h.Role, app.SnippetText(h.Snippet))
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stderr, "no matches")
	}
	return nil
}

func sessionExport(core *app.Core, a *app.App, args []string, env Env) error {
	fs := newFlags("session export")
	format := fs.String("format", "md", "md, json, html or pdf")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("session export: give one session id")
	}
	if *format == "pdf" {
		return exportPDF(core, fs.Arg(0), *out, env)
	}
	if *format != "md" && *format != "markdown" && *format != "json" && *format != "html" {
		return usagef("session export: --format must be md, json, html or pdf")
	}
	text, err := a.Sessions.ExportSession(fs.Arg(0), app.ExportFormat(*format))
	if app.IsNotFound(err) {
		return notFound("session export", fs.Arg(0))
	}
	if err != nil {
		return err
	}
	body := []byte(text)
	if *format == "json" {
		body = append(body, '\n')
	}
	if *out == "" && *format == "json" {
		_, err := env.raw().Write(body) // the text as stored, escaped by JSON
		return err
	}
	if *out == "" {
		_, err := env.Stdout.Write(body)
		return err
	}
	if err := os.WriteFile(*out, body, 0o600); err != nil {
		return fmt.Errorf("session export: %w", err)
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", *out)
	return nil
}

func sessionDelete(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("session delete: give one or more session ids")
	}
	for _, id := range args {
		if _, err := core.Session(ctx, id); err != nil {
			return sessionErr("session delete", id, err)
		}
	}
	if ok, err := proceed(env, g, fmt.Sprintf("Delete %d session(s) and all their messages for good?", len(args)), "refusing to delete without confirmation", "nothing deleted"); !ok {
		return err
	}
	var receipts []app.DeleteReceipt
	for _, id := range args {
		r, err := core.DeleteSession(ctx, id) // with the memories derived from it
		if err != nil {
			return sessionErr("session delete", id, err)
		}
		receipts = append(receipts, r)
	}
	if g.json {
		return printJSON(env.Stdout, receipts)
	}
	for _, r := range receipts {
		fmt.Fprintf(env.Stdout, "%s: %s\n", r.SessionID, r.Summary())
	}
	fmt.Fprintf(env.Stderr, "deleted %d session(s)\n", len(args))
	return nil
}

func sessionErr(cmd, id string, err error) error {
	switch {
	case err == nil:
		return nil
	case app.IsNotFound(err):
		return notFound(cmd, id)
	case app.IsBadInput(err):
		return usagef("%s: %v", cmd, err)
	}
	return err
}

// confirm asks question on a terminal; without one (a script) it refuses with
// refusal and says to pass --yes.
func confirm(env Env, question, refusal string) (bool, error) {
	if f, ok := env.Stdin.(*os.File); !ok || !isTerminal(f) {
		return false, usagef("%s; pass --yes in scripts", refusal)
	}
	fmt.Fprintf(env.Stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(env.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, err
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}

// proceed is true with --yes, or when the user says yes to question; a
// refusal without a terminal is confirm's, and a no prints declined (when
// set) on stderr.
func proceed(env Env, g globals, question, refusal, declined string) (bool, error) {
	if g.yes {
		return true, nil
	}
	ok, err := confirm(env, question, refusal)
	if err == nil && !ok && declined != "" {
		fmt.Fprintln(env.Stderr, declined)
	}
	return ok && err == nil, err
}

// progressPrinter reports long work on stderr: one line redrawn on a terminal,
// a line per tenth otherwise.
func progressPrinter(env Env, what string) func(done, total int) {
	f, ok := env.Stderr.(*os.File)
	tty := ok && isTerminal(f)
	last := -1
	return func(done, total int) {
		pct := 100
		if total > 0 {
			pct = done * 100 / total
		}
		switch {
		case tty:
			fmt.Fprintf(env.Stderr, "\r%s: %d/%d (%d%%)", what, done, total, pct)
			if done == total {
				fmt.Fprintln(env.Stderr)
			}
		case pct/10 != last/10 || done == total:
			fmt.Fprintf(env.Stderr, "%s: %d/%d (%d%%)\n", what, done, total, pct)
		}
		last = pct
	}
}

// isTerminal is whether f is a terminal (a tty), not merely a character device:
// </dev/null is one too, and a script must not be asked a question there.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
