package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"hermes/app"
)

// termApprover asks on the terminal before a call that needs approval, showing the
// full arguments; in scripts --yes allows, and without it the call is denied.
type termApprover struct {
	yes         bool
	interactive bool
	in          *bufio.Reader
	out         io.Writer
	mu          sync.Mutex
}

func newTermApprover(g globals, env Env) *termApprover {
	f, ok := env.Stdin.(*os.File)
	return &termApprover{yes: g.yes, interactive: ok && isTerminal(f), in: bufio.NewReader(env.Stdin), out: env.Stderr}
}

func (t *termApprover) Approve(ctx context.Context, req app.ApprovalRequest) (app.Decision, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	args, _ := json.MarshalIndent(json.RawMessage(req.Args), "    ", "  ")
	if t.yes {
		fmt.Fprintf(t.out, "[approved by --yes] %s %s\n", req.Tool, args)
		return app.Decision{Allow: true, Scope: app.ScopeOnce}, nil
	}
	if !t.interactive {
		fmt.Fprintf(t.out, "[denied] %s needs approval; run with --yes to allow it in scripts\n", req.Tool)
		return app.Decision{Allow: false}, nil
	}
	fmt.Fprintf(t.out, "\nThe model wants to run %s: %s\n    %s\nAllow? [y]es once / [s]ession / [N]o: ", req.Tool, req.Description, args)
	line, err := t.in.ReadString('\n')
	if err != nil && line == "" {
		return app.Decision{Allow: false}, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return app.Decision{Allow: true, Scope: app.ScopeOnce}, nil
	case "s", "session":
		return app.Decision{Allow: true, Scope: app.ScopeSession}, nil
	}
	return app.Decision{Allow: false}, nil
}

// toolsCmd: hermes tools log [--json] [--tool T] [--status S] [--session S] [--limit N] | list
func toolsCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("tools: use `tools log` or `tools list`")
	}
	switch args[0] {
	case "list":
		rest, err := positional("tools list", args[1:])
		if err != nil {
			return err
		}
		if err := noArgs("tools list", rest); err != nil {
			return err
		}
		list := core.ListTools()
		if g.json {
			return printJSON(env.Stdout, list)
		}
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "TOOL\tGROUPS\tAPPROVAL\tBREAKER\tDESCRIPTION")
		for _, t := range list {
			ask := "no"
			if t.Annotations.NeedsApproval() {
				ask = "asks"
			}
			d := t.Description
			if r := []rune(d); len(r) > 60 {
				d = string(r[:60]) + "…"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, strings.Join(t.Groups, ","), ask, t.Breaker, d)
		}
		for _, e := range core.ToolFileErrors() {
			fmt.Fprintf(env.Stderr, "tools.yaml: %v\n", e)
		}
		return tw.Flush()
	case "log":
		fs := newFlags("tools log")
		tool := fs.String("tool", "", "only this tool")
		status := fs.String("status", "", "only this status (ok, error, denied, blocked, timeout, cancelled)")
		sess := fs.String("session", "", "only this session")
		limit := fs.Int("limit", 50, "most rows")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		if err := noArgs("tools log", fs.Args()); err != nil {
			return err
		}
		rows, err := core.ToolActivity(context.Background(), *tool, *status, *sess, *limit)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, rows)
		}
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "TIME\tTOOL\tSTATUS\tMS\tBREAKER\tARGUMENTS")
		for _, r := range rows {
			st := r.Status
			if r.ErrorKind != "" {
				st += " (" + r.ErrorKind + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.CreatedAt[:19], r.Tool, st, r.LatencyMs, r.Breaker, r.Arguments)
		}
		return tw.Flush()
	}
	return usagef("tools: unknown subcommand %q", args[0])
}
