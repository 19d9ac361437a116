package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hermes/app"
)

// mcpCmd: hermes mcp list | tools [SERVER] | call SERVER TOOL [ARGS_JSON] | import [FILE] | approve NAME | accept NAME [TOOL]
func mcpCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("mcp: use list, tools [SERVER], call SERVER TOOL [ARGS_JSON], import [FILE], approve NAME or accept NAME [TOOL]")
	}
	ctx := context.Background()
	sub, args := args[0], args[1:]
	args, err := positional("mcp "+sub, args)
	if err != nil {
		return err
	}
	if err := core.StartMCP(ctx); err != nil {
		return err
	}
	switch sub {
	case "import":
		return mcpImport(ctx, core, g, args, env)
	case "accept":
		return mcpAccept(ctx, core, g, args, env)
	case "approve":
		return mcpApprove(ctx, core, g, args, env)
	}
	printMCPProblems(core, env)
	switch sub {
	case "list":
		return mcpList(core, g, args, env)
	case "tools":
		return mcpTools(ctx, core, g, args, env)
	case "call":
		return mcpCall(ctx, core, g, args, env)
	}
	return usagef("mcp: unknown subcommand %q", sub)
}

func mcpList(core *app.Core, g globals, args []string, env Env) error {
	if err := noArgs("mcp list", args); err != nil {
		return err
	}
	// Listing starts no server: it shows each one as configured and how it
	// did when a Hermes process last ran it.
	list := core.MCPList()
	if g.json {
		return printJSON(env.Stdout, list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "SERVER\tSTATE\tLAST SEEN\tTRANSPORT\tCOMMAND OR URL\tERROR")
	for _, s := range list {
		seen, errText := "-", s.Error
		if lk := s.LastKnown; lk != nil {
			seen = fmt.Sprintf("%s, %d tools, %s", lk.State, lk.Tools, lk.At.Local().Format("2006-01-02 15:04"))
			if errText == "" {
				errText = lk.Error
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.State, seen, s.Transport, s.Command, errText)
	}
	if _, err := core.MCPProblems(); err != nil {
		return codeError{exitFail} // the file could not be used: said above
	}
	if len(list) == 0 {
		fmt.Fprintf(env.Stderr, "no MCP servers in %s; add one there (Claude Desktop's format: a command, or a url) or run `hermes mcp import`\n", core.MCPConfigPath())
	}
	return tw.Flush()
}

func mcpTools(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	list := core.MCPWaitSettled(ctx, 15*time.Second)
	if len(args) == 1 {
		st, err := core.MCPWaitReady(ctx, args[0])
		if err != nil {
			return usagef("mcp tools: %v", err)
		}
		list = []app.MCPStatus{st}
	}
	if g.json {
		return printJSON(env.Stdout, list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "TOOL\tSERVER\tENABLED\tASKS\tDESCRIPTION")
	for _, s := range list {
		for _, t := range s.Tools {
			d := t.Description
			if r := []rune(d); len(r) > 60 {
				d = string(r[:60]) + "…"
			}
			fmt.Fprintf(tw, "%s\t%s\t%v\t%v\t%s\n", t.Name, s.Name, t.Enabled, t.Annotations.NeedsApproval() && !t.AutoApprove, d)
		}
	}
	return tw.Flush()
}

func mcpCall(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) < 2 || len(args) > 3 {
		return usagef("mcp call: give SERVER TOOL [ARGS_JSON]")
	}
	raw := json.RawMessage("{}")
	if len(args) == 3 {
		if !json.Valid([]byte(args[2])) {
			return usagef("mcp call: ARGS_JSON is not valid JSON")
		}
		raw = json.RawMessage(args[2])
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if _, err := core.MCPWaitReady(wctx, args[0]); err != nil {
		return fmt.Errorf("mcp call: %w", err)
	}
	name, err := core.MCPToolName(args[0], args[1])
	if err != nil {
		return usagef("mcp call: %v", err)
	}
	o := core.CallTool(ctx, name, raw) // the user's own request: its own approval
	if g.json {
		printJSON(env.Stdout, app.ToolCallInfo(o))
	} else if o.OK() {
		fmt.Fprintln(env.Stdout, o.Content)
	}
	if !o.OK() {
		return fmt.Errorf("mcp call %s: %s (%s): %s", name, o.Status, o.ErrorKind, strings.TrimSpace(o.Error))
	}
	return nil
}

func mcpImport(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) > 1 {
		return usagef("mcp import: give at most one file (default: Claude Desktop's config)")
	}
	from := ""
	if len(args) == 1 {
		from = args[0]
	}
	res, err := core.MCPImport(ctx, from)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, res)
	}
	fmt.Fprintf(env.Stdout, "added %d, unchanged %d, conflicts kept as they were %d, skipped %d\n",
		len(res.Added), len(res.Unchanged), len(res.Conflicts), len(res.Skipped))
	for _, n := range res.Added {
		fmt.Fprintf(env.Stdout, "  %s: approve it with `hermes mcp approve %s`\n", n, n)
	}
	for _, p := range res.Skipped {
		fmt.Fprintf(env.Stderr, "  skipped: %s\n", p.Error())
	}
	return nil
}

func mcpAccept(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) < 1 || len(args) > 2 {
		return usagef("mcp accept: give NAME and optionally one TOOL whose changed definition you accept")
	}
	st, err := core.MCPWaitReady(ctx, args[0])
	if err != nil {
		return fmt.Errorf("mcp accept: %w", err)
	}
	var changed []string
	for _, t := range st.Tools {
		if t.Changed && (len(args) == 1 || t.Remote == args[1]) {
			changed = append(changed, t.Remote)
			fmt.Fprintf(env.Stderr, "%s changed; it is now:\n    %s\n", t.Remote, t.Description)
		}
	}
	if len(changed) == 0 {
		return usagef("mcp accept: %s has no changed tool%s; see `hermes mcp tools %s`", args[0], map[bool]string{true: " named " + strings.Join(args[1:], ""), false: ""}[len(args) == 2], args[0])
	}
	if ok, err := proceed(env, g, fmt.Sprintf("Accept the new definition of %s and switch it back on?", strings.Join(changed, ", ")), "this needs confirmation", "not accepted"); !ok {
		return err
	}
	if err := core.MCPAcceptTools(args[0], changed...); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "accepted %s\n", strings.Join(changed, ", "))
	return nil
}

func mcpApprove(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) != 1 {
		return usagef("mcp approve: give one server name")
	}
	if err := core.MCPReload(ctx); err != nil {
		return err
	}
	st, err := core.MCPServer(args[0])
	if err != nil {
		return usagef("mcp approve: %v; see `hermes mcp list`", err)
	}
	verb, question := "runs", "Allow Hermes to start it?"
	if st.Transport != app.MCPStdio {
		verb, question = "connects to", "Allow Hermes to connect to it?"
	}
	fmt.Fprintf(env.Stderr, "Server %s %s:\n    %s\n", st.Name, verb, st.Command)
	if st.Internet {
		fmt.Fprintln(env.Stderr, "    Warning: this server is on the internet; your messages and tool arguments leave this computer.")
	}
	if ok, err := proceed(env, g, question, "this needs confirmation", "not approved"); !ok {
		return err
	}
	if err := core.MCPApproveServer(ctx, args[0]); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "approved %s\n", args[0])
	return nil
}

// printMCPProblems reports mistakes in mcp.json, each with its line and field.
func printMCPProblems(core *app.Core, env Env) {
	probs, err := core.MCPProblems()
	if err != nil {
		fmt.Fprintf(env.Stderr, "hermes: %v\n", err)
	}
	for _, p := range probs {
		fmt.Fprintf(env.Stderr, "%s\n", p.Error())
	}
}
