package cli

import (
	"context"
	"fmt"
	"strings"

	"hermes/app"
)

// presetCmd manages the saved system prompts the window's chat settings offer:
//
//	hermes preset list [--json]
//	hermes preset save NAME --system TEXT
//	hermes preset delete NAME
func presetCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("preset: say list, save NAME --system TEXT or delete NAME")
	}
	ctx := context.Background()
	sub, args := args[0], args[1:]
	switch sub {
	case "list":
		if _, err := positional("preset list", args); err != nil {
			return err
		}
		if len(args) != 0 {
			return usagef("preset list: takes no arguments")
		}
		ps, err := core.SystemPresets(ctx)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, ps)
		}
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "NAME\tKIND\tSYSTEM PROMPT")
		for _, p := range ps {
			kind := "saved"
			if p.Builtin {
				kind = "built-in"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, kind, firstLine(p.Text, 70))
		}
		return tw.Flush()
	case "save":
		fs := newFlags("preset save")
		system := fs.String("system", "", "the system prompt to save")
		if err := parse(fs, args); err != nil {
			return err
		}
		if fs.NArg() != 1 || strings.TrimSpace(*system) == "" {
			return usagef("preset save: give one name and --system TEXT, e.g. hermes preset save Terse --system \"Answer in one sentence.\"")
		}
		if err := core.SaveSystemPreset(ctx, fs.Arg(0), *system); err != nil {
			return inputErr("preset save", err)
		}
		fmt.Fprintf(env.Stderr, "saved preset %q; use it with `hermes chat --preset %q`\n", strings.TrimSpace(fs.Arg(0)), strings.TrimSpace(fs.Arg(0)))
		return nil
	case "delete", "rm":
		args, err := positional("preset delete", args)
		if err != nil {
			return err
		}
		if len(args) != 1 {
			return usagef("preset delete: give one preset's name; see `hermes preset list`")
		}
		if err := core.DeleteSystemPreset(ctx, args[0]); err != nil {
			return inputErr("preset delete", err)
		}
		fmt.Fprintf(env.Stderr, "deleted preset %q\n", args[0])
		return nil
	}
	return usagef("preset: unknown subcommand %q; say list, save or delete", sub)
}

// inputErr is refused input (exit 2) in the user's words, or err as it is.
func inputErr(cmd string, err error) error {
	if app.IsKBMissing(err) {
		return usagef("%s: %v; see `hermes kb list`", cmd, err)
	}
	if !app.IsBadInput(err) {
		return err
	}
	msg := app.DescribeError(err, "", "").Error()
	if strings.Contains(msg, "no such preset") {
		msg = strings.TrimSuffix(msg, ".") + "; see `hermes preset list`"
	}
	return usagef("%s: %s", cmd, msg)
}
