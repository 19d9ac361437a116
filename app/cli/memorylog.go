package cli

import (
	"context"
	"flag"
	"fmt"

	"hermes/app"
)

// decayCmd: hermes memory decay [--category C --half-life 30d]: lists each
// category's half-life, or sets one ("" returns it to the default).
func decayCmd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory decay")
	category := fs.String("category", "", "the memory category to change")
	halfLife := fs.String("half-life", "", `how long until a fact not restated or confirmed is half as strong, e.g. 30d, 2w, 36h ("" for the default)`)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("memory decay: unexpected %q; use --category C --half-life 30d", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	list, err := core.MemoryHalfLives(ctx)
	switch {
	case given["half-life"] && !given["category"]:
		return usagef("memory decay: --half-life needs --category (one of the categories `hermes memory decay` lists)")
	case given["category"] && !given["half-life"]:
		return usagef("memory decay: --category needs --half-life, e.g. --half-life 30d")
	case given["category"]:
		list, err = core.SetMemoryHalfLife(ctx, *category, *halfLife)
		if app.IsMemoryBadInput(err) || app.IsBadInput(err) {
			return usagef("memory decay: %v", err)
		}
	}
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "CATEGORY\tHALF-LIFE\t\tARCHIVED AFTER")
	for _, h := range list {
		note := "default"
		if h.Custom {
			note = "set"
		}
		fmt.Fprintf(tw, "%s\t%s\t(%s)\t%s\n", h.Category, h.HalfLife, note, h.ArchivedAfter)
	}
	fmt.Fprintln(tw, "profile facts (confirmed)\tnever fade\t\t")
	fmt.Fprintf(tw, "(archived after: a fact stated with confidence %.1f and never restated)\n", app.TypicalConfidence)
	return tw.Flush()
}

// recallLogCmd: hermes memory recall-log MESSAGE_ID: what the recall for a
// message considered, kept and dropped, with scores and reasons.
func recallLogCmd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	args, err := positional("memory recall-log", args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("memory recall-log: give the id of the message the recall was for (a user message; see `hermes session show ID --json`)")
	}
	list, err := core.MemoryRecallLog(ctx, args[0])
	if err != nil {
		return err
	}
	if g.json {
		if list == nil {
			list = []app.MemoryRecallCandidate{}
		}
		return printJSON(env.Stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(env.Stderr, "no recall was logged for message %s (recall did not run for it, it ran in incognito, or its memories were forgotten since)\n", args[0])
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "\tRANK\tRERANK\tSCORE\tLEX\tVEC\tSIM\tMEMORY\tWHY")
	for _, c := range list {
		mark := "kept"
		if !c.Kept {
			mark = "dropped"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.4f\t%d\t%d\t%.2f\t%s\t%s\n", mark, c.Rank, c.Rerank, c.Score, c.LexicalRank, c.VectorRank, c.Similarity,
			firstLine(c.Memory.Text, 50), c.Reason)
	}
	return tw.Flush()
}
