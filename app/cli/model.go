package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"hermes/app"
)

// modelCmd: hermes model list | show NAME | pull NAME | import FILE.gguf --name NAME [--modelfile F] | rm NAME... | use NAME [--embed]
func modelCmd(core *app.Core, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("model: use list, show NAME, pull NAME, import FILE.gguf --name NAME, rm NAME..., or use NAME [--embed]")
	}
	sub, args := args[0], args[1:]
	if sub != "import" && sub != "use" { // these parse their own flags
		var err error
		if args, err = positional("model "+sub, args); err != nil {
			return err
		}
	}
	relay := &progressRelay{}
	a := app.NewApp(core, relay.emit)
	switch sub {
	case "list":
		return modelList(a, g, args, env)
	case "show":
		return modelShow(a, g, args, env)
	case "pull":
		return modelPull(a, g, args, env, relay)
	case "import":
		return modelImport(a, g, args, env, relay)
	case "rm":
		return modelRemove(a, g, args, env)
	case "use":
		return modelUse(a, args, env)
	}
	return usagef("model: unknown subcommand %q", sub)
}

func modelList(a *app.App, g globals, args []string, env Env) error {
	if len(args) > 0 {
		return usagef("model list: takes no arguments, got %q", args[0])
	}
	models, err := a.Models.ListModelDetails()
	if err != nil || g.json {
		return orJSON(env, models, err)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tROLE\tPARAMS\tQUANT\tCONTEXT\tSIZE\tCAN\tLOADED")
	for _, m := range models {
		role := ""
		if m.IsChat {
			role = "chat"
		}
		if m.IsEmbed {
			role = strings.TrimPrefix(role+",embed", ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%v\n", m.Name, role, m.ParameterSize, m.Quantization, m.ContextLength,
			byteSize(m.Size), strings.Join(m.Capabilities, ","), m.Loaded)
	}
	if len(models) == 0 {
		fmt.Fprintln(env.Stderr, "no models installed: `hermes model pull llama3.2`, or `hermes model import FILE.gguf --name NAME` offline")
	}
	return tw.Flush()
}

func modelShow(a *app.App, g globals, args []string, env Env) error {
	if len(args) != 1 {
		return usagef("model show: give one model name")
	}
	models, err := a.Models.ListModelDetails()
	if err != nil {
		return err
	}
	for _, m := range models {
		if strings.TrimSuffix(m.Name, ":latest") == strings.TrimSuffix(args[0], ":latest") {
			if g.json {
				return printJSON(env.Stdout, m)
			}
			fmt.Fprintf(env.Stdout, "name          %s\nfamily        %s\nparameters    %s\nquantisation  %s\ncontext       %d tokens\nsize          %s\ncan           %s\nloaded        %v\nrole          chat=%v embeddings=%v\n",
				m.Name, m.Family, m.ParameterSize, m.Quantization, m.ContextLength, byteSize(m.Size), strings.Join(m.Capabilities, ", "), m.Loaded, m.IsChat, m.IsEmbed)
			return nil
		}
	}
	return usagef("model show: %s is not installed; see `hermes model list`", args[0])
}

func modelPull(a *app.App, g globals, args []string, env Env, relay *progressRelay) error {
	if len(args) != 1 {
		return usagef("model pull: give one model name, e.g. llama3.2")
	}
	relay.bar = newProgressBar(env, "pull "+args[0])
	m, err := a.Models.PullModel("cli-pull", args[0])
	relay.bar.done()
	if err != nil {
		return err
	}
	return printModel(g, env, "pulled", m)
}

func modelImport(a *app.App, g globals, args []string, env Env, relay *progressRelay) error {
	fs := newFlags("model import")
	name := fs.String("name", "", "the new model's name")
	modelfile := fs.String("modelfile", "", "a Modelfile whose TEMPLATE, SYSTEM, PARAMETER … apply")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *name == "" {
		return usagef("model import: give FILE.gguf and --name NAME")
	}
	mf := ""
	if *modelfile != "" {
		b, err := os.ReadFile(*modelfile)
		if err != nil {
			return usagef("model import: read the Modelfile: %v", err)
		}
		mf = string(b)
	}
	relay.bar = newProgressBar(env, "import "+*name)
	m, err := a.Models.ImportModel("cli-import", fs.Arg(0), *name, mf)
	relay.bar.done()
	if err != nil {
		if app.IsBadInput(err) || errors.Is(err, os.ErrNotExist) {
			return usagef("%v", err)
		}
		return err
	}
	return printModel(g, env, "imported", m)
}

func modelRemove(a *app.App, g globals, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("model rm: give one or more model names")
	}
	if ok, err := proceed(env, g, fmt.Sprintf("Delete %s from Ollama?", strings.Join(args, ", ")), "refusing to delete without confirmation", "nothing deleted"); !ok {
		return err
	}
	for _, n := range args {
		if err := a.Models.DeleteModel(n); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "deleted %s\n", n)
	}
	return nil
}

func modelUse(a *app.App, args []string, env Env) error {
	fs := newFlags("model use")
	embed := fs.Bool("embed", false, "make it the embedding model instead of the chat model")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("model use: give one model name")
	}
	if _, err := a.Models.UseModel(fs.Arg(0), *embed); err != nil {
		if app.IsBadInput(err) {
			return usagef("model use: %v", err)
		}
		return err
	}
	what := "chat model"
	if *embed {
		what = "embedding model"
	}
	fmt.Fprintf(env.Stderr, "%s is now the %s\n", fs.Arg(0), what)
	return nil
}

func printModel(g globals, env Env, verb string, m app.ModelDetail) error {
	if g.json {
		return printJSON(env.Stdout, m)
	}
	fmt.Fprintf(env.Stdout, "%s %s (%s, %s)\n", verb, m.Name, byteSize(m.Size), strings.Join(m.Capabilities, ", "))
	return nil
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// progressRelay hands a model's pull or import progress to the bar of the
// command running (none yet: nothing is shown).
type progressRelay struct{ bar *progressBar }

func (r *progressRelay) emit(name string, data any) {
	if p, ok := data.(app.Progress); ok && strings.HasPrefix(name, "model:progress:") && r.bar != nil {
		r.bar.show(p)
	}
}

// progressBar shows long work on stderr: a redrawn bar on a terminal, a line
// per status change and every tenth otherwise.
type progressBar struct {
	env     Env
	what    string
	tty     bool
	status  string
	lastPct int
}

func newProgressBar(env Env, what string) *progressBar {
	f, ok := env.Stderr.(*os.File)
	return &progressBar{env: env, what: what, tty: ok && isTerminal(f), lastPct: -1}
}

func (b *progressBar) show(p app.Progress) {
	pct := int(p.Percent)
	line := p.Status
	if p.Total > 0 {
		line = fmt.Sprintf("%s %3d%% %s/%s", p.Status, pct, byteSize(p.Completed), byteSize(p.Total))
		if p.Rate > 0 {
			line += fmt.Sprintf(" %s/s", byteSize(int64(p.Rate)))
		}
		if p.ETA > 0 {
			line += " ETA " + p.ETA.Round(time.Second).String()
		}
	}
	if b.tty {
		width := 24
		fill := pct * width / 100
		fmt.Fprintf(b.env.Stderr, "\r\033[K%s [%s%s] %s", b.what, strings.Repeat("#", fill), strings.Repeat(".", width-fill), line)
		return
	}
	if p.Status != b.status || pct/10 != b.lastPct/10 {
		fmt.Fprintf(b.env.Stderr, "%s: %s\n", b.what, line)
	}
	b.status, b.lastPct = p.Status, pct
}

func (b *progressBar) done() {
	if b.tty {
		fmt.Fprintln(b.env.Stderr)
	}
}
