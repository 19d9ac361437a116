package cli

import (
	"context"
	"fmt"

	"hermes/app"
)

// profileCmd: hermes memory profile list | create NAME | use NAME | rename OLD NEW | delete NAME
func profileCmd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	args, err := positional("memory profile", args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"list"}
	}
	bad := func(err error) error {
		if app.IsMemoryBadInput(err) {
			return usagef("memory profile %s: %v", args[0], err)
		}
		return err
	}
	switch {
	case args[0] == "list" && len(args) == 1:
		list, err := core.MemoryProfiles(ctx)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, list)
		}
		for _, p := range list {
			mark := " "
			if p.Active {
				mark = "*"
			}
			fmt.Fprintf(env.Stdout, "%s %-20s %d memories\n", mark, p.Name, p.Memories)
		}
		return nil
	case args[0] == "create" && len(args) == 2:
		if err := core.CreateMemoryProfile(ctx, args[1]); err != nil {
			return bad(err)
		}
		fmt.Fprintf(env.Stderr, "created profile %s; switch to it with `hermes memory profile use %s`\n", args[1], args[1])
		return nil
	case args[0] == "use" && len(args) == 2:
		if err := core.UseMemoryProfile(ctx, args[1]); err != nil {
			return bad(err)
		}
		fmt.Fprintf(env.Stderr, "%s is the active profile: new conversations and memory commands use it\n", args[1])
		return nil
	case args[0] == "rename" && len(args) == 3:
		if err := core.RenameMemoryProfile(ctx, args[1], args[2]); err != nil {
			return bad(err)
		}
		fmt.Fprintf(env.Stderr, "renamed profile %s to %s\n", args[1], args[2])
		return nil
	case args[0] == "delete" && len(args) == 2:
		// Ask only when there is something to confirm: the active, the default or
		// an unknown profile is refused (by the one rule, in memory) before anything goes.
		if n, ok := deletable(ctx, core, args[1]); ok && !g.yes {
			what := fmt.Sprintf("its %d memories", n)
			if n == 1 {
				what = "its 1 memory"
			}
			if ok, err := proceed(env, g, fmt.Sprintf("Delete profile %s and erase %s for good?", args[1], what),
				fmt.Sprintf("refusing to delete profile %s (%s would be erased) without confirmation", args[1], what[4:]), "nothing deleted"); !ok {
				return err
			}
		}
		r, err := core.DeleteMemoryProfile(ctx, args[1])
		if err != nil {
			return bad(err)
		}
		if g.json {
			return printJSON(env.Stdout, r)
		}
		fmt.Fprintln(env.Stdout, r.Summary())
		return nil
	}
	return usagef("memory profile: use list, create NAME, use NAME, rename OLD NEW or delete NAME")
}

// deletable is the memory count of a profile that exists and is neither active
// nor the default one; ok is false otherwise (the delete then says why).
func deletable(ctx context.Context, core *app.Core, name string) (int, bool) {
	list, err := core.MemoryProfiles(ctx)
	if err != nil {
		return 0, false
	}
	for _, p := range list {
		if p.Name == name {
			return p.Memories, !p.Active && name != app.DefaultMemoryProfile
		}
	}
	return 0, false
}
