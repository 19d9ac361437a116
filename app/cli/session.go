package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"hermes/app"
	"hermes/backend/intent"
	"hermes/backend/prompt"
	"hermes/backend/session"
)

// coreIntent is what the intent command needs.
type coreIntent interface {
	Intent() (*intent.Classifier, error)
	IntentProblem() (string, string)
}

func notFound(cmd, id string) error {
	return usagef("%s: no session %q; see `hermes session list`", cmd, id)
}

func sessionCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("session: say list, show, search, export, import, context, rename, pin, unpin, archive or delete")
	}
	ctx := context.Background()
	st := core.Sessions
	a := app.NewApp(core, nil)
	sub, args := args[0], args[1:]
	switch sub {
	case "export", "import", "context", "search": // these parse their own flags
	default:
		var err error
		if args, err = positional("session "+sub, args); err != nil {
			return err
		}
	}
	switch sub {
	case "list":
		list, err := a.ListSessions()
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, list)
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUPDATED\tSTATE\tMESSAGES\tTITLE")
		for _, s := range list {
			pin := ""
			if s.Pinned {
				pin = "📌 "
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s%s\n", s.ID, s.UpdatedAt[:19], s.State, s.MessageCount, pin, s.Title)
		}
		return tw.Flush()
	case "show":
		if len(args) != 1 {
			return usagef("session show: give one session id")
		}
		d, err := a.LoadSession(args[0])
		if err != nil {
			if errors.Is(err, session.ErrNotFound) {
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
			case m.Status != session.StatusOK:
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
	case "search":
		fs := newFlags("session search")
		limit := fs.Int("limit", 20, "most results")
		if err := parse(fs, args); err != nil {
			return err
		}
		q := strings.Join(fs.Args(), " ")
		hits, err := st.Search(ctx, q, *limit)
		if err != nil {
			if errors.Is(err, session.ErrInvalid) {
				return usagef("session search: give words to search for")
			}
			return err
		}
		if g.json {
			return printJSON(env.Stdout, app.ToSearchHits(hits))
		}
		for _, h := range hits {
			fmt.Fprintf(env.Stdout, "%s  %s #%d (%s)\n    %s\n", h.SessionID, h.SessionTitle, h.Seq, h.Role, session.SnippetText(h.Snippet))
		}
		if len(hits) == 0 {
			fmt.Fprintln(env.Stderr, "no matches")
		}
		return nil
	case "export":
		fs := newFlags("session export")
		format := fs.String("format", "md", "md or json")
		out := fs.String("out", "", "write to this file instead of stdout")
		if err := parse(fs, args); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return usagef("session export: give one session id")
		}
		var body []byte
		switch *format {
		case "md", "markdown":
			md, err := st.ExportMarkdown(ctx, fs.Arg(0))
			if errors.Is(err, session.ErrNotFound) {
				return notFound("session export", fs.Arg(0))
			}
			if err != nil {
				return err
			}
			body = []byte(md)
		case "json":
			e, err := st.ExportJSON(ctx, fs.Arg(0))
			if errors.Is(err, session.ErrNotFound) {
				return notFound("session export", fs.Arg(0))
			}
			if err != nil {
				return err
			}
			body, _ = json.MarshalIndent(e, "", "  ")
			body = append(body, '\n')
		default:
			return usagef("session export: --format must be md or json")
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
	case "import":
		fs := newFlags("session import")
		file := fs.String("jsonl", "", "JSONL file of {\"session\",\"id\",\"role\",\"content\",\"created_at\"}")
		if err := parse(fs, args); err != nil {
			return err
		}
		if *file == "" {
			return usagef("session import: give --jsonl FILE")
		}
		f, err := os.Open(*file)
		if err != nil {
			return usagef("session import: %v", err)
		}
		defer f.Close()
		lines, err := session.ParseImport(f)
		if err != nil {
			return usagef("session import: %s: %s", *file, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		res, err := st.Import(ctx, lines, progressPrinter(env, "importing messages"))
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, res)
		}
		fmt.Fprintf(env.Stdout, "imported %d messages in %d new sessions (%d already there)\n", res.Messages, res.Sessions, res.Skipped)
		return nil
	case "context":
		return contextCmd(core, g, args, env)
	case "rename":
		if len(args) < 2 {
			return usagef("session rename: give an id and a title")
		}
		return sessionErr("session rename", args[0], st.Rename(ctx, args[0], strings.Join(args[1:], " ")))
	case "pin", "unpin":
		if len(args) != 1 {
			return usagef("session %s: give one session id", sub)
		}
		return sessionErr("session "+sub, args[0], st.Pin(ctx, args[0], sub == "pin"))
	case "archive":
		if len(args) != 1 {
			return usagef("session archive: give one session id")
		}
		return sessionErr("session archive", args[0], st.Archive(ctx, args[0]))
	case "delete":
		if len(args) == 0 {
			return usagef("session delete: give one or more session ids")
		}
		for _, id := range args {
			if _, err := st.Get(ctx, id); err != nil {
				return sessionErr("session delete", id, err)
			}
		}
		if !g.yes {
			ok, err := confirm(env, fmt.Sprintf("Delete %d session(s) and all their messages for good?", len(args)), "refusing to delete without confirmation")
			if err != nil {
				return err
			}
			if !ok {
				fmt.Fprintln(env.Stderr, "nothing deleted")
				return nil
			}
		}
		var receipts []session.DeleteReceipt
		for _, id := range args {
			r, err := a.DeleteSession(id) // with the memories derived from it
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
	return usagef("session: unknown subcommand %q", sub)
}

func sessionErr(cmd, id string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, session.ErrNotFound):
		return notFound(cmd, id)
	case errors.Is(err, session.ErrInvalid):
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

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// contextCmd: hermes session context --session S --query Q --budget N | --batch FILE
func contextCmd(core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("session context")
	sid := fs.String("session", "", "session id or ref")
	query := fs.String("query", "", "the message to build the context for")
	budget := fs.Int("budget", 0, "prompt token budget")
	batch := fs.String("batch", "", "JSONL file of {\"id\",\"session\",\"query\",\"budget\"}")
	reply := fs.String("reply", "", "a stored reply (message id): what the model saw when it wrote it")
	channel := fs.String("channel", "", "a sub-agent's channel (or main): the window its next turn starts from")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *channel != "" {
		return channelContext(core, g, *sid, *channel, env)
	}
	if *reply != "" {
		rep, err := app.NewApp(core, nil).MessageContext(*reply)
		if errors.Is(err, session.ErrNotFound) {
			return usagef("session context: no message %q; see `hermes session show ID --json`", *reply)
		}
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, rep)
		}
		if len(rep.Items) == 0 {
			fmt.Fprintf(env.Stderr, "reply %s kept no record of its context (not a reply, or written before Hermes kept them)\n", *reply)
			return nil
		}
		for _, it := range rep.Items {
			fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, firstLine(it.Preview, 60))
		}
		fmt.Fprintf(env.Stdout, "%d of %d tokens; intent %s\n", rep.Tokens, rep.Budget, rep.Intent)
		return nil
	}
	ctx := context.Background()
	type out struct {
		ID       json.RawMessage `json:"id,omitempty"`
		Included []string        `json:"included"`
		Tokens   int             `json:"tokens"`
	}
	build := func(s, q string, b int) (prompt.Context, error) {
		if b <= 0 {
			return prompt.Context{}, usagef("session context: --budget must be a positive number of tokens")
		}
		c, err := core.BuildContext(ctx, s, q, b)
		if errors.Is(err, session.ErrNotFound) {
			return c, notFound("session context", s)
		}
		return c, err
	}
	if *batch == "" {
		if *sid == "" || *query == "" {
			return usagef("session context: give --session, --query and --budget, or --batch FILE")
		}
		c, err := build(*sid, *query, *budget)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, struct {
				out
				Items []prompt.Item `json:"items"`
			}{out{Included: nonNil(c.Refs()), Tokens: c.Tokens}, c.Items})
		}
		for _, it := range c.Items {
			ref := it.Ref
			if ref == "" {
				ref = it.MessageID
			}
			fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, ref)
		}
		fmt.Fprintf(env.Stdout, "%d of %d tokens; %d older messages left out\n", c.Tokens, c.Budget, c.Dropped)
		return nil
	}
	return eachLine("session context", *batch, env, func(n int, raw []byte, enc *json.Encoder) error {
		var l struct {
			ID      json.RawMessage `json:"id"`
			Session string          `json:"session"`
			Query   string          `json:"query"`
			Budget  int             `json:"budget"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || l.Session == "" || l.Budget <= 0 {
			return usagef("session context: %s line %d: want {\"id\",\"session\",\"query\",\"budget\"}", *batch, n)
		}
		c, err := build(l.Session, l.Query, l.Budget)
		if err != nil {
			return fmt.Errorf("%s line %d: %w", *batch, n, err)
		}
		return enc.Encode(out{ID: l.ID, Included: nonNil(c.Refs()), Tokens: c.Tokens})
	})
}

// firstLine is the start of a text's first line, at most n runes.
func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// channelContext prints the window a channel's next turn would be built from.
func channelContext(core *app.Core, g globals, sid, channel string, env Env) error {
	if sid == "" {
		return usagef("session context --channel: give --session too")
	}
	c, err := core.ChannelContext(context.Background(), sid, channel)
	switch {
	case errors.Is(err, session.ErrNotFound):
		return notFound("session context", sid)
	case err != nil:
		return agentErr(err)
	}
	if g.json {
		return printJSON(env.Stdout, c)
	}
	for _, it := range c.Items {
		fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, firstLine(it.Content, 60))
	}
	fmt.Fprintf(env.Stdout, "%d of %d tokens; channel %s\n", c.Tokens, c.Budget, channel)
	return nil
}
