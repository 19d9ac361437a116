package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"hermes/app"
)

// kbCmd: hermes kb add DIR [--name N] [--background] | list | status [N] | index [N] | reindex [N] |
// remove N [--yes] | search QUERY [--collection N]... [--k K] | search --batch FILE |
// export [--out FILE] | import FILE
func kbCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("kb: use add, list, status, index, reindex, remove, search, export or import")
	}
	ctx := context.Background()
	k := core.Knowledge()
	sub, args := args[0], args[1:]
	var err error
	switch sub {
	case "add":
		err = kbAdd(ctx, k, g, args, env)
	case "list":
		err = kbList(ctx, k, g, args, env)
	case "status":
		err = kbStatus(ctx, k, g, args, env)
	case "reindex":
		err = kbReindex(ctx, k, g, args, env)
	case "index":
		err = kbResume(ctx, k, g, args, env)
	case "export":
		err = kbExport(ctx, k, args, env)
	case "import":
		err = kbImport(ctx, k, g, args, env)
	case "remove":
		err = kbRemove(ctx, k, g, args, env)
	case "search":
		err = kbSearch(ctx, k, g, args, env)
	default:
		return usagef("kb: unknown subcommand %q", sub)
	}
	return kbError("kb "+sub, err)
}

// kbError makes a request Hermes refuses exit 2, with the way forward.
func kbError(cmd string, err error) error {
	switch {
	case app.IsKBMissing(err):
		return usagef("%s: %v; see `hermes kb list`", cmd, err)
	case app.IsKBBadInput(err):
		return usagef("%s: %v", cmd, err)
	}
	return err
}

func kbAdd(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	fs := newFlags("kb add")
	name := fs.String("name", "", "the collection's name (default: the folder's)")
	bg := fs.Bool("background", false, "return once the files are listed; a running Hermes indexes them")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("kb add: give one folder (or file): hermes kb add DIR [--name N]")
	}
	c, err := k.Add(ctx, fs.Arg(0), *name)
	if err != nil {
		return err
	}
	if !*bg {
		if err := kbIndex(ctx, k, c.Name, env); err != nil {
			return err
		}
		if c, err = k.Get(ctx, c.Name); err != nil {
			return err
		}
	}
	if g.json {
		return printJSON(env.Stdout, c)
	}
	kbSummary(env, c)
	return nil
}

// kbIndex indexes a collection's waiting files with a bar on stderr.
func kbIndex(ctx context.Context, k *app.Knowledge, name string, env Env) error {
	bar := newProgressBar(env, "indexing "+name)
	_, err := k.Index(ctx, name, func(p app.KBProgress) {
		bar.show(app.Progress{Status: fmt.Sprintf("%d files", p.Files), Total: p.Bytes, Completed: p.DoneBytes,
			Percent: pct(p.DoneBytes, p.Bytes), Rate: p.MBps * (1 << 20), ETA: time.Duration(p.ETASeconds * float64(time.Second))})
	})
	bar.done()
	return err
}

func pct(done, total int64) float64 {
	if total <= 0 {
		return 100
	}
	return float64(done) * 100 / float64(total)
}

func kbSummary(env Env, c app.KBCollection) {
	fmt.Fprintf(env.Stdout, "%s: %d files indexed, %d passages", c.Name, c.Indexed, c.Chunks)
	if c.Pending > 0 {
		fmt.Fprintf(env.Stdout, ", %d waiting (`hermes kb index %s` reads them)", c.Pending, c.Name)
	}
	fmt.Fprintln(env.Stdout)
	if c.Failed > 0 {
		fmt.Fprintf(env.Stdout, "%d files could not be read: see `hermes kb status %s`\n", c.Failed, c.Name)
	}
}

func kbList(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	if err := noArgs("kb list", args); err != nil {
		return err
	}
	cs, err := k.List(ctx)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, cs)
	}
	if len(cs) == 0 {
		fmt.Fprintln(env.Stdout, "no collections yet: add a folder with `hermes kb add DIR`")
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tFILES\tINDEXED\tWAITING\tFAILED\tPASSAGES\tFOLDER")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", c.Name, c.Files, c.Indexed, c.Pending, c.Failed, c.Chunks, c.Root)
	}
	return tw.Flush()
}

func kbStatus(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	args, err := positional("kb status", args)
	if err != nil || len(args) == 0 {
		if err != nil {
			return err
		}
		return kbList(ctx, k, g, nil, env)
	}
	name := strings.Join(args, " ")
	c, err := k.Get(ctx, name)
	if err != nil {
		return err
	}
	files, err := k.Files(ctx, name)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, struct {
			Collection app.KBCollection `json:"collection"`
			Files      []app.KBFile     `json:"files"`
		}{c, files})
	}
	fmt.Fprintf(env.Stdout, "%s (%s)\n", c.Name, c.Root)
	kbSummary(env, c)
	for _, f := range files {
		if f.State == "failed" {
			fmt.Fprintf(env.Stdout, "  failed\t%s\t%s\n", f.Path, f.Detail)
		}
	}
	return nil
}

func kbReindex(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	return kbEach(ctx, k, g, "kb reindex", args, env, func(n string) error {
		_, err := k.Reindex(ctx, n)
		return err
	})
}

// kbResume reads the files left waiting (by a quit, a crash or --background).
func kbResume(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	return kbEach(ctx, k, g, "kb index", args, env, func(string) error { return nil })
}

// kbEach runs first on the collection args names (every collection without
// any), then indexes its waiting files with a bar and sums it up.
func kbEach(ctx context.Context, k *app.Knowledge, g globals, cmd string, args []string, env Env, first func(name string) error) error {
	args, err := positional(cmd, args)
	if err != nil {
		return err
	}
	names, err := kbNames(ctx, k, args)
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := first(n); err != nil {
			return err
		}
		if err := kbIndex(ctx, k, n, env); err != nil {
			return err
		}
		c, err := k.Get(ctx, n)
		if err != nil {
			return err
		}
		if !g.json {
			kbSummary(env, c)
		}
	}
	return nil
}

// kbNames is the collection args names, or every collection.
func kbNames(ctx context.Context, k *app.Knowledge, args []string) ([]string, error) {
	if len(args) > 0 {
		return []string{strings.Join(args, " ")}, nil
	}
	cs, err := k.List(ctx)
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return names, err
}

func kbRemove(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	args, err := positional("kb remove", args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("kb remove: name the collection: hermes kb remove NAME")
	}
	name := strings.Join(args, " ")
	c, err := k.Get(ctx, name)
	if err != nil {
		return err
	}
	q := fmt.Sprintf("Remove %q from the knowledge base (%d files, %d passages)? The files on disk stay.", c.Name, c.Files, c.Chunks)
	if ok, err := proceed(env, g, q, "kb remove: not removed", ""); !ok {
		return err
	}
	r, err := k.Remove(ctx, c.Name)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, r)
	}
	fmt.Fprintf(env.Stdout, "removed %q: %d files, %d passages and %d vectors erased", r.Collection, r.Files, r.Chunks, r.Vectors)
	if !r.Scrubbed {
		fmt.Fprint(env.Stdout, " (the database file is scrubbed when another Hermes lets go of it)")
	}
	fmt.Fprintln(env.Stdout)
	return nil
}

func kbSearch(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	fs := newFlags("kb search")
	var colls listFlag
	fs.Var(&colls, "collection", "search only this collection (repeatable)")
	n := fs.Int("k", 5, "how many passages")
	batch := fs.String("batch", "", "JSONL file of {\"id\",\"query\"}")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *n <= 0 {
		return usagef("kb search: --k must be at least 1")
	}
	if *batch != "" {
		return kbBatch(ctx, k, *batch, colls, *n, env)
	}
	q := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(q) == "" {
		return usagef("kb search: give words to search for")
	}
	hits, err := k.Search(ctx, q, colls, *n)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, hits)
	}
	for i, h := range hits {
		where := h.File
		if h.Page > 0 {
			where += fmt.Sprintf(" p.%d", h.Page)
		}
		fmt.Fprintf(env.Stdout, "[%d] %s · %s\n%s\n\n", i+1, where, h.Collection, snippet(h.Text, 300))
	}
	return nil
}

func snippet(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + "…"
}

// kbBatch: lines {"id","query"} -> {"id","results":[{"file","page","text","score",…}]}.
func kbBatch(ctx context.Context, k *app.Knowledge, file string, colls []string, n int, env Env) error {
	return eachLine("kb search", file, env, func(line int, raw []byte, enc *json.Encoder) error {
		var l struct {
			ID    json.RawMessage `json:"id"`
			Query string          `json:"query"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || l.ID == nil {
			return usagef("kb search: %s line %d: want {\"id\",\"query\"}", file, line)
		}
		hits, err := k.Search(ctx, l.Query, colls, n)
		if err != nil && !app.IsKBBadInput(err) { // an empty query finds nothing
			return fmt.Errorf("%s line %d: %w", file, line, err)
		}
		if hits == nil {
			hits = []app.KBHit{}
		}
		return enc.Encode(struct {
			ID      json.RawMessage `json:"id"`
			Results []app.KBHit     `json:"results"`
		}{l.ID, hits})
	})
}

// kbExport writes the collections as references (no text) to stdout or --out.
func kbExport(ctx context.Context, k *app.Knowledge, args []string, env Env) error {
	fs := newFlags("kb export")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArgs("kb export", fs.Args()); err != nil {
		return err
	}
	if *out == "" {
		return k.Export(ctx, env.Stdout)
	}
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return usagef("kb export: %v", err)
	}
	defer f.Close()
	return k.Export(ctx, f)
}

// kbImport adds the collections of an export whose folders are here.
func kbImport(ctx context.Context, k *app.Knowledge, g globals, args []string, env Env) error {
	args, err := positional("kb import", args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("kb import: give the export file: hermes kb import FILE")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return usagef("kb import: %v", err)
	}
	defer f.Close()
	added, skipped, err := k.Import(ctx, f)
	if err != nil {
		return err
	}
	for _, c := range added {
		if err := kbIndex(ctx, k, c.Name, env); err != nil {
			return err
		}
	}
	if g.json {
		return printJSON(env.Stdout, struct {
			Added   []app.KBCollection `json:"added"`
			Skipped []app.KBSkipped    `json:"skipped"`
		}{added, skipped})
	}
	for _, c := range added {
		fmt.Fprintf(env.Stdout, "added %s (%s)\n", c.Name, c.Root)
	}
	for _, s := range skipped {
		fmt.Fprintf(env.Stdout, "skipped %s: %s\n", s.Name, s.Reason)
	}
	return nil
}
