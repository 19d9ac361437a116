package cli

import (
	"context"
	"fmt"

	"hermes/app"
)

// activityCmd: hermes activity network [--json]
func activityCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("activity: use `activity network`")
	}
	sub, args := args[0], args[1:]
	if sub != "network" {
		return usagef("activity: unknown subcommand %q; use `activity network`", sub)
	}
	rest, err := positional("activity network", args)
	if err != nil {
		return err
	}
	if err := noArgs("activity network", rest); err != nil {
		return err
	}
	act, err := core.NetworkActivity(context.Background())
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, act.Entries)
	}
	return printNetwork(env, act)
}

// printNetwork is the table of connections, the latest first, and the setting.
func printNetwork(env Env, act app.NetworkActivity) error {
	state := "offline_only is off: each part's own rules apply (`hermes settings set offline_only true` refuses every connection beyond this computer)"
	if act.OfflineOnly {
		state = "offline_only is on: every connection beyond this computer is refused"
	}
	if len(act.Entries) == 0 {
		fmt.Fprintln(env.Stdout, "No connection recorded yet.")
		fmt.Fprintln(env.Stdout, state)
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "LAST (UTC)\tPART\tHOST\tPORT\tADDRESS\tOUTCOME\tCOUNT\tFIRST (UTC)")
	for _, e := range act.Entries {
		out := e.Outcome
		if e.Reason != "" {
			out += " (" + e.Reason + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", clock(e.Last), e.Part, e.Host, e.Port, e.Address, out, e.Count, clock(e.First))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, state)
	return nil
}

// clock is an RFC 3339 time without its zone letter: 2025-03-10 09:00:00.
func clock(s string) string {
	if len(s) >= 19 {
		return s[:10] + " " + s[11:19]
	}
	return s
}
