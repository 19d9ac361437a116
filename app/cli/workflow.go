package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"hermes/app"
)

// workflowCmd: hermes workflow list | run NAME [--input JSON] | runs [--session S] [--limit N] |
// show RUN | resume RUN | cancel RUN
func workflowCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("workflow: use list, run NAME [--input JSON], runs, show RUN, resume RUN or cancel RUN")
	}
	sub, args := args[0], args[1:]
	env.Stderr = &lockedWriter{w: env.Stderr} // progress and approval prompts write from several goroutines
	switch sub {
	case "list":
		rest, err := positional("workflow list", args)
		if err != nil {
			return err
		}
		if len(rest) > 0 {
			return usagef("workflow list takes no arguments")
		}
		return workflowList(core, g, env)
	case "run":
		fs := newFlags("workflow run")
		input := fs.String("input", "{}", "the inputs, a JSON object")
		if err := parse(fs, args); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return usagef("workflow run: give one workflow name (see `hermes workflow list`)")
		}
		if !json.Valid([]byte(*input)) {
			return usagef("workflow run: --input is not valid JSON; give an object like '{\"phone\": \"+1555\"}'")
		}
		return workflowRun(core, g, env, fs.Arg(0), json.RawMessage(*input))
	case "runs":
		fs := newFlags("workflow runs")
		sess := fs.String("session", "", "only the runs of this session")
		limit := fs.Int("limit", 50, "most runs")
		if err := parse(fs, args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usagef("workflow runs takes no arguments besides --session and --limit")
		}
		runs, err := core.WorkflowRuns(context.Background(), *sess, *limit)
		if err != nil {
			return err
		}
		return printRuns(runs, g, env)
	case "show", "resume", "cancel":
		rest, err := positional("workflow "+sub, args)
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return usagef("workflow %s: give one run id (see `hermes workflow runs`)", sub)
		}
		id := rest[0]
		switch sub {
		case "show":
			r, err := core.WorkflowRun(context.Background(), id)
			if err != nil {
				return workflowErr(err)
			}
			if g.json {
				return printJSON(env.Stdout, r)
			}
			printRun(env.Stdout, r)
			return nil
		case "resume":
			return workflowResume(core, g, env, id)
		default:
			r, err := core.CancelWorkflow(context.Background(), id)
			if err != nil {
				return workflowErr(err)
			}
			if g.json {
				return printJSON(env.Stdout, runSummary(r))
			}
			fmt.Fprintf(env.Stdout, "%s %s\n", r.ID, r.Status)
			return nil
		}
	}
	return usagef("workflow: unknown subcommand %q", sub)
}

// workflowErr makes a refused request (unknown run, nothing to resume...) exit 2.
func workflowErr(err error) error {
	if app.IsWorkflowBadInput(err) {
		return usagef("%s", oneLine(err))
	}
	return err
}

func workflowList(core *app.Core, g globals, env Env) error {
	list, errs := core.Workflows()
	for _, e := range errs {
		fmt.Fprintln(env.Stderr, e.Error())
	}
	if g.json {
		return printJSON(env.Stdout, list)
	}
	if len(list) == 0 && len(errs) == 0 {
		fmt.Fprintf(env.Stderr, "no workflows in %s; declare them there (see README, Workflows)\n", core.WorkflowFile())
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "WORKFLOW\tPHASES\tDESCRIPTION")
	for _, w := range list {
		var phases []string
		for _, p := range w.Phases {
			phases = append(phases, fmt.Sprintf("%s[%s: %s]", p.Name, p.Mode, strings.Join(p.Steps, ", ")))
		}
		d := w.Description
		if r := []rune(d); len(r) > 60 {
			d = string(r[:60]) + "…"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", w.Name, strings.Join(phases, " -> "), d)
	}
	return tw.Flush()
}

// interruptible is a context that Ctrl+C ends (the run is then interrupted and
// can be resumed).
func interruptible(env Env) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	go func() {
		select {
		case <-env.Interrupts:
			cancel()
		case <-stop:
		}
	}()
	return ctx, func() { close(stop); cancel() }
}

func workflowRun(core *app.Core, g globals, env Env, name string, inputs json.RawMessage) error {
	core.SetApprover(newTermApprover(g, env))
	ctx, stop := interruptible(env)
	defer stop()
	p := newProgress(env.Stderr)
	r, err := core.RunWorkflow(ctx, name, inputs, app.WorkflowOptions{Observe: p.event, OnCreated: func(r app.WorkflowRun) {
		fmt.Fprintf(env.Stderr, "workflow %s: run %s started\n", r.Workflow, r.ID)
	}})
	if err != nil {
		return workflowErr(err)
	}
	return finishRun(r, g, env)
}

func workflowResume(core *app.Core, g globals, env Env, id string) error {
	ctx, stop := interruptible(env)
	defer stop()
	r, err := core.WorkflowRun(ctx, id)
	if err != nil {
		return workflowErr(err)
	}
	confirmed := g.yes
	if unsure := app.UnsureWorkflowSteps(r); len(unsure) > 0 && !confirmed && r.Resumable() {
		fmt.Fprintf(env.Stderr, "Step %s was stopped while it ran and may have acted already; resuming runs it again.\n", strings.Join(unsure, ", "))
		if ok, err := proceed(env, g, "Run it again?", "resuming needs confirmation to run "+strings.Join(unsure, ", ")+" again", "not resumed"); !ok {
			return err
		}
		confirmed = true
	}
	core.SetApprover(newTermApprover(g, env))
	p := newProgress(env.Stderr)
	fmt.Fprintf(env.Stderr, "workflow %s: resuming run %s\n", r.Workflow, r.ID)
	r, err = core.ResumeWorkflow(ctx, id, app.WorkflowOptions{Confirm: confirmed, Observe: p.event})
	if err != nil {
		return workflowErr(err)
	}
	return finishRun(r, g, env)
}

// finishRun prints the run's outcome: 0 when done, 1 otherwise (the snapshot is
// kept and says how to go on).
func finishRun(r app.WorkflowRun, g globals, env Env) error {
	if g.json {
		if err := printJSON(env.Stdout, r); err != nil {
			return err
		}
	} else {
		printRun(env.Stdout, r)
	}
	if r.Status == "done" {
		return nil
	}
	hint := ""
	if r.Resumable() {
		hint = fmt.Sprintf("; resume it with `hermes workflow resume %s`", r.ID)
	}
	fmt.Fprintf(env.Stderr, "hermes: workflow run %s %s: %s%s\n", r.ID, r.Status, oneLine(errors.New(r.Error)), hint)
	return codeError{exitFail}
}
