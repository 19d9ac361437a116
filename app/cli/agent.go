package cli

import (
	"fmt"
	"strings"

	"hermes/app"
)

// agentCmd: hermes agent list | enable NAME | disable NAME
func agentCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("agent: use list, enable NAME or disable NAME")
	}
	sub, args := args[0], args[1:]
	rest, err := positional("agent "+sub, args)
	if err != nil {
		return err
	}
	switch sub {
	case "list":
		if len(rest) > 0 {
			return usagef("agent list takes no arguments")
		}
		return agentList(core, g, env)
	case "enable", "disable":
		if len(rest) != 1 {
			return usagef("agent %s: give one agent name (see `hermes agent list`)", sub)
		}
		if err := core.SetAgentEnabled(rest[0], sub == "enable"); err != nil {
			return agentErr(err)
		}
		fmt.Fprintf(env.Stdout, "%sd %s (the tool agent__%s)\n", sub, rest[0], rest[0])
		return nil
	}
	return usagef("agent: unknown command %q; use list, enable NAME or disable NAME", sub)
}

func agentList(core *app.Core, g globals, env Env) error {
	list, errs := core.Agents()
	for _, e := range errs {
		fmt.Fprintln(env.Stderr, "warning:", e)
	}
	if g.json {
		return printJSON(env.Stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(env.Stdout, "no sub-agents; declare them in %s\n", core.AgentFile())
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tSTATE\tMEMORY\tTOOLS\tDESCRIPTION")
	for _, a := range list {
		state := "on"
		if a.Disabled {
			state = "off"
		}
		if a.Builtin && a.Line == 0 {
			state += " (built-in)"
		}
		tools := strings.Join(a.Tools, ",")
		if tools == "" {
			tools = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.Name, state, orNone(a.Memory), tools, firstLine(a.Description, 70))
	}
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// agentErr maps the user's mistakes to exit 2 with the agents file's own message.
func agentErr(err error) error {
	if app.IsAgentBadInput(err) {
		return usagef("%v", err)
	}
	return err
}
