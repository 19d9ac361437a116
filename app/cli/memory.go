package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"hermes/app"
)

// memoryCmd: hermes memory add TEXT | list | show ID | edit ID TEXT [--key K] [--value V] | confirm ID... | forget ID... |
// forget --query Q [--limit N] | import --jsonl FILE | search QUERY [--k N] | --batch FILE | export [--out FILE]
func memoryCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("memory: use add, list, show, edit, confirm, forget, import, search, export, profile, decay or recall-log")
	}
	ctx := context.Background()
	sub, args := args[0], args[1:]
	notFound := func(id string) error { return usagef("memory %s: no memory %q; see `hermes memory list`", sub, id) }
	switch sub {
	case "profile":
		return profileCmd(ctx, core, g, args, env)
	case "decay":
		return decayCmd(ctx, core, g, args, env)
	case "recall-log":
		return recallLogCmd(ctx, core, g, args, env)
	case "add":
		return memoryAdd(ctx, core, g, args, env)
	case "list":
		return memoryList(ctx, core, g, args, env)
	case "show":
		return memoryShow(ctx, core, g, args, env, notFound)
	case "edit":
		return memoryEditCmd(ctx, core, g, args, env)
	case "confirm":
		return memoryConfirm(ctx, core, g, args, env)
	case "forget":
		return forgetCmd(ctx, core, g, args, env)
	case "import":
		return memoryImport(ctx, core, g, args, env)
	case "search":
		return memorySearch(ctx, core, g, args, env)
	case "export":
		return memoryExport(ctx, core, args, env)
	}
	return usagef("memory: unknown subcommand %q", sub)
}

func memoryAdd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	args, err := positional("memory add", args)
	if err != nil {
		return err
	}
	text := strings.Join(args, " ")
	if strings.TrimSpace(text) == "" {
		return usagef("memory add: give the text to remember")
	}
	mm, err := core.AddMemory(ctx, text)
	if err != nil {
		if app.IsMemoryBadInput(err) {
			return usagef("memory add: %v", err)
		}
		return err
	}
	if g.json {
		return printJSON(env.Stdout, mm)
	}
	fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", mm.ID, mm.Status, mm.Text)
	return nil
}

func memoryList(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory list")
	status := fs.String("status", "", "pending, active, archived or superseded")
	layer := fs.String("layer", "", "working, fact or profile")
	profile := fs.String("profile", "", "only this profile")
	limit := fs.Int("limit", 100, "most rows")
	if err := parse(fs, args); err != nil {
		return err
	}
	f := app.MemoryFilter{Profile: *profile, Layer: *layer, Limit: *limit}
	if *status != "" {
		f.Statuses = []string{*status}
	}
	list, err := core.ListMemories(ctx, f)
	if err != nil {
		return err
	}
	if g.json {
		if list == nil {
			list = []app.Memory{}
		}
		return printJSON(env.Stdout, list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tLAYER\tSTATUS\tSTRENGTH\tTEXT")
	for _, mm := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\n", mm.ID, mm.Layer, mm.Status, mm.Strength, mm.Text)
	}
	return tw.Flush()
}

func memoryShow(ctx context.Context, core *app.Core, g globals, args []string, env Env, notFound func(string) error) error {
	if len(args) != 1 {
		return usagef("memory show: give one memory id")
	}
	d, err := core.ShowMemory(ctx, args[0])
	if app.IsNotFound(err) {
		return notFound(args[0])
	}
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, d.Memory)
	}
	mm := d.Memory
	fmt.Fprintf(env.Stdout, "%s (%s, %s, strength %.2f)\n%s\nsaid in messages: %s\ncreated %s, last confirmed %s\n",
		mm.ID, mm.Layer, mm.Status, mm.Strength, mm.Text, strings.Join(mm.SourceMessageIDs, ", "),
		mm.CreatedAt.Format("2006-01-02 15:04"), mm.LastConfirmedAt.Format("2006-01-02 15:04"))
	for _, r := range d.History {
		b, _ := json.Marshal(r)
		fmt.Fprintf(env.Stdout, "  earlier: %s\n", b)
	}
	return nil
}

func memoryConfirm(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("memory confirm: give the ids of the memories that are true")
	}
	list, err := core.ConfirmMemories(ctx, args...)
	if app.IsNotFound(err) {
		return usagef("memory confirm: %v; see `hermes memory list`", err)
	}
	if app.IsMemoryBadInput(err) {
		return usagef("memory confirm: %v", err)
	}
	if err != nil || g.json {
		return orJSON(env, list, err)
	}
	for _, mm := range list {
		fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", mm.ID, mm.Layer, mm.Text)
	}
	return nil
}

func memoryImport(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory import")
	file := fs.String("jsonl", "", "JSONL file: lines {\"id\",\"text\",\"created_at\"?,\"layer\"?}, or a file `memory export` wrote")
	mode := fs.String("mode", "skip", "skip, merge or replace memories whose id is already there")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return usagef("memory import: give --jsonl FILE")
	}
	f, err := os.Open(*file)
	if err != nil {
		return usagef("memory import: %v", err)
	}
	defer f.Close()
	res, err := core.ImportMemories(ctx, f, *mode, func(done, total int) {
		fmt.Fprintf(env.Stderr, "\rimporting %d/%d", done, total)
	})
	fmt.Fprintln(env.Stderr)
	if app.IsMemoryBadInput(err) {
		return usagef("memory import: %s: %v", *file, err)
	}
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, res)
	}
	fmt.Fprintf(env.Stdout, "added %d, merged %d, replaced %d, skipped %d\n", res.Added, res.Merged, res.Replaced, res.Skipped)
	return nil
}

func memorySearch(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory search")
	k := fs.Int("k", 10, "how many results")
	batch := fs.String("batch", "", "JSONL file of {\"id\",\"query\"}")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *batch != "" {
		return memoryBatch(ctx, core, *batch, *k, env)
	}
	q := strings.Join(fs.Args(), " ")
	hits, err := core.SearchMemories(ctx, q, *k)
	if app.IsMemoryBadInput(err) {
		return usagef("memory search: give words to search for")
	}
	if err != nil || g.json {
		return orJSON(env, hits, err)
	}
	for _, h := range hits {
		fmt.Fprintf(env.Stdout, "%.4f\t%s\t%s\n", h.Score, h.MemoryID, h.Text)
	}
	return nil
}

func memoryExport(ctx context.Context, core *app.Core, args []string, env Env) error {
	fs := newFlags("memory export")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := parse(fs, args); err != nil {
		return err
	}
	w := env.Stdout
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return fmt.Errorf("memory export: %w", err)
		}
		defer f.Close()
		w = f
	}
	return core.ExportMemories(ctx, w)
}

// memoryBatch: lines {"id","query"} -> {"id","results":[{"memory_id","ref","text","score"}]}.
func memoryBatch(ctx context.Context, core *app.Core, file string, k int, env Env) error {
	return eachLine("memory search", file, env, func(n int, raw []byte, enc *json.Encoder) error {
		var l struct {
			ID    json.RawMessage `json:"id"`
			Query string          `json:"query"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || strings.TrimSpace(l.Query) == "" {
			return usagef("memory search: %s line %d: want {\"id\",\"query\"}", file, n)
		}
		hits, err := core.SearchMemories(ctx, l.Query, k)
		if err != nil {
			return fmt.Errorf("%s line %d: %w", file, n, err)
		}
		return enc.Encode(struct {
			ID      json.RawMessage `json:"id"`
			Results []app.MemoryHit `json:"results"`
		}{l.ID, hits})
	})
}

// forgetShown is how many matches of a forget by query are listed before the count.
const forgetShown = 20

// forgetCmd: hermes memory forget ID... | --query Q [--limit N]. A query forgets
// every match (or the best N); the count comes first, then the question.
func forgetCmd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory forget")
	query := fs.String("query", "", "forget every memory that matches this query (the count and the matches are shown first)")
	limit := fs.Int("limit", 0, "with --query: forget only the best N matches")
	if err := parse(fs, args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case given["query"] && strings.TrimSpace(*query) == "":
		return usagef("memory forget: --query needs words to match")
	case given["limit"] && !given["query"]:
		return usagef("memory forget: --limit goes with --query")
	case *limit < 0 || given["limit"] && *limit == 0:
		return usagef("memory forget: --limit must be a positive number, not %d", *limit)
	}
	list := fs.Args()
	for _, id := range list {
		if _, err := core.GetMemory(ctx, id); err != nil {
			return usagef("memory forget: no memory %q; see `hermes memory list`", id)
		}
	}
	if *query != "" {
		hits, err := core.ForgetMatches(ctx, *query, *limit)
		if err != nil {
			return err
		}
		if len(hits) == 0 && len(list) == 0 {
			fmt.Fprintln(env.Stderr, "nothing matches")
			return nil
		}
		listMatches(env, *query, hits)
		for _, h := range hits {
			list = append(list, h.MemoryID)
		}
	}
	if len(list) == 0 {
		return usagef("memory forget: give memory ids or --query Q")
	}
	if ok, err := proceed(env, g, fmt.Sprintf("Forget %d memories for good?", len(list)), "this needs confirmation", "nothing forgotten"); !ok {
		return err
	}
	r, err := core.ForgetMemories(ctx, list...)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, r)
	}
	fmt.Fprintln(env.Stdout, r.Summary())
	return nil
}

// listMatches prints on stderr how many memories match, then the first of them.
func listMatches(env Env, query string, hits []app.MemoryHit) {
	what := "memories match"
	if len(hits) == 1 {
		what = "memory matches"
	}
	fmt.Fprintf(env.Stderr, "%d %s %q:\n", len(hits), what, termText(query))
	for _, h := range hits[:min(len(hits), forgetShown)] {
		fmt.Fprintf(env.Stderr, "  %s  %s\n", h.MemoryID, termText(h.Text))
	}
	if len(hits) > forgetShown {
		fmt.Fprintf(env.Stderr, "  … and %d more\n", len(hits)-forgetShown)
	}
}

// memoryEditCmd: hermes memory edit ID TEXT [--key K] [--value V]. A key or
// value not given is kept, or, for a value the new text no longer says, dropped.
func memoryEditCmd(ctx context.Context, core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("memory edit")
	key := fs.String("key", "", "what the memory is about (e.g. home_city)")
	value := fs.String("value", "", "its value (e.g. Porto)")
	if err := parse(fs, args); err != nil {
		return usagef("memory edit: %v", err)
	}
	if fs.NArg() < 2 {
		return usagef("memory edit: give an id and the corrected text (--key K and --value V set those too)")
	}
	e := app.MemoryEdit{Text: strings.Join(fs.Args()[1:], " ")}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "key":
			e.Key = key
		case "value":
			e.Value = value
		}
	})
	mm, err := core.EditMemory(ctx, fs.Arg(0), e)
	if app.IsNotFound(err) {
		return usagef("memory edit: no memory %q; see `hermes memory list`", fs.Arg(0))
	}
	if app.IsMemoryBadInput(err) {
		return usagef("memory edit: %v", err)
	}
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, mm)
	}
	fmt.Fprintf(env.Stdout, "%s\t%s\n", mm.ID, mm.Text)
	return nil
}
