package cli

import (
	"context"
	"fmt"
	"strings"

	"hermes/app"
)

// projectCmd manages projects: chats grouped with their own defaults.
//
//	hermes project list
//	hermes project create NAME [--system T] [--model M] [--knowledge C,…|none] [--memory-profile P]
//	hermes project show NAME
//	hermes project move SESSION… --to NAME|--out
//	hermes project delete NAME [--keep-chats|--delete-chats] [--yes]
func projectCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("project: say list, create, show, move or delete")
	}
	ctx := context.Background()
	sub, args := args[0], args[1:]
	switch sub {
	case "list":
		if err := noArgs("project list", args); err != nil {
			return err
		}
		list, err := core.Projects(ctx)
		if err != nil || g.json {
			return orJSON(env, list, err)
		}
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "NAME\tCHATS\tMODEL\tSYSTEM PROMPT")
		for _, p := range list {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", p.Name, p.Chats, dash(p.Model), firstLine(dash(p.System), 60))
		}
		return tw.Flush()
	case "create":
		return projectCreate(ctx, core, g, args, env)
	case "show":
		if len(args) != 1 {
			return usagef("project show: give one project name")
		}
		return projectShow(ctx, core, g, args[0], env)
	case "move":
		return projectMove(ctx, core, args, env)
	case "delete":
		return projectDelete(ctx, core, g, args, env)
	}
	return usagef("project: unknown subcommand %q (list, create, show, move or delete)", sub)
}

func projectCreate(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("project create")
	system := fs.String("system", "", "the system prompt of its chats")
	model := fs.String("model", "", "the model of its chats")
	knowledge := fs.String("knowledge", "", `the collections its chats may cite, comma-separated, or "none"`)
	profile := fs.String("memory-profile", "", "the memory profile of its chats")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("project create: give one name (quote a name with spaces), e.g. hermes project create \"Field trip\" --system \"Answer as a field guide.\"")
	}
	in := app.ProjectInput{Name: fs.Arg(0), System: *system, Model: *model, MemoryProfile: *profile}
	switch k := strings.TrimSpace(*knowledge); k {
	case "":
	case "none":
		in.Knowledge = []string{}
	default:
		for _, n := range strings.Split(k, ",") {
			in.Knowledge = append(in.Knowledge, strings.TrimSpace(n))
		}
	}
	p, err := core.SaveProject(ctx, in)
	if err != nil {
		return inputErr("project create", err)
	}
	if g.json {
		return printJSON(env.Stdout, p)
	}
	fmt.Fprintf(env.Stderr, "created project %q; move chats in with `hermes project move SESSION --to %q`\n", p.Name, p.Name)
	return nil
}

func projectShow(ctx context.Context, core *app.Core, g globals, name string, env Env) error {
	p, err := core.Project(ctx, name)
	if app.IsNotFound(err) {
		return usagef("project show: no project %q; see `hermes project list`", name)
	}
	if err != nil {
		return err
	}
	chats, err := core.ProjectChats(ctx, p.ID)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, struct {
			app.ProjectInfo
			Sessions []app.SessionInfo `json:"sessions"`
		}{p, chats})
	}
	knowledge := "every collection"
	if p.Knowledge != nil {
		knowledge = dash(strings.Join(p.Knowledge, ", "))
	}
	fmt.Fprintf(env.Stdout, "project: %s\nmodel: %s\nsystem prompt: %s\nknowledge: %s\nmemory profile: %s\nchats: %d\n",
		p.Name, dash(p.Model), dash(p.System), knowledge, dash(p.MemoryProfile), len(chats))
	for _, s := range chats {
		fmt.Fprintf(env.Stdout, "  %s\t%s\n", s.ID, s.Title)
	}
	return nil
}

func projectMove(ctx context.Context, core *app.Core, args []string, env Env) error {
	fs := newFlags("project move")
	to := fs.String("to", "", "the project to move the chats into")
	out := fs.Bool("out", false, "take the chats out of their project")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 || (*to == "") == !*out {
		return usagef("project move: give session ids and either --to PROJECT or --out")
	}
	if err := core.MoveToProject(ctx, *to, fs.Args()...); err != nil {
		if app.IsNotFound(err) {
			return usagef("project move: %s; see `hermes project list` and `hermes session list`", app.DescribeError(err, "", "").Error())
		}
		return err
	}
	if *out {
		fmt.Fprintf(env.Stderr, "took %d chat(s) out of their project\n", fs.NArg())
	} else {
		fmt.Fprintf(env.Stderr, "moved %d chat(s) to %q\n", fs.NArg(), *to)
	}
	return nil
}

func projectDelete(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("project delete")
	keep := fs.Bool("keep-chats", false, "keep its chats (in no project)")
	del := fs.Bool("delete-chats", false, "delete its chats for good too")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("project delete: give one project name")
	}
	if *keep == *del {
		return usagef("project delete: say what happens to its chats: --keep-chats (they stay, in no project) or --delete-chats (deleted for good)")
	}
	p, err := core.Project(ctx, fs.Arg(0))
	if app.IsNotFound(err) {
		return usagef("project delete: no project %q; see `hermes project list`", fs.Arg(0))
	}
	if err != nil {
		return err
	}
	q := fmt.Sprintf("Delete project %q? Its %d chat(s) stay, in no project.", p.Name, p.Chats)
	if *del {
		q = fmt.Sprintf("Delete project %q and its %d chat(s), with all their messages, for good?", p.Name, p.Chats)
	}
	if ok, err := proceed(env, g, q, "refusing to delete without confirmation", "nothing deleted"); !ok {
		return err
	}
	r, err := core.DeleteProject(ctx, p.ID, *del)
	if err != nil || g.json {
		return orJSON(env, r, err)
	}
	for _, d := range r.Deleted {
		fmt.Fprintf(env.Stdout, "%s: %s\n", d.SessionID, d.Summary())
	}
	fmt.Fprintf(env.Stderr, "deleted project %q: %d chat(s) kept, %d deleted\n", r.Project, r.Kept, len(r.Deleted))
	return nil
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
