package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"hermes/app"
)

// sessionSettingsCmd shows or changes one conversation's own settings:
//
//	hermes session settings ID|--session ID [--json]
//	hermes session settings ID [--system TEXT|--preset NAME] [--model M] [--temperature T] [--num-ctx N]
//	                           [--think default|on|off|low|medium|high]
//
// Only the flags given change; "default" (or "") returns a field to the global setting.
func sessionSettingsCmd(core *app.Core, g globals, args []string, env Env) error {
	const cmd = "session settings"
	fs := newFlags(cmd)
	sid := fs.String("session", "", "the session (id or ref)")
	sf := addSettingsFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	id := *sid
	switch {
	case id == "" && fs.NArg() == 1:
		id = fs.Arg(0)
	case id == "" || fs.NArg() != 0:
		return usagef("%s: give one session id (or --session ID); see `hermes session list`", cmd)
	}
	ctx := context.Background()
	cur, err := core.ChatSettings(ctx, id)
	if err != nil {
		return settingsErr(cmd, id, err)
	}
	if !sf.given() {
		return printChatSettings(env, g, cur)
	}
	in, err := sf.input(cmd, cur)
	if err != nil {
		return err
	}
	out, err := core.SetChatSettings(ctx, id, in)
	if err != nil {
		return settingsErr(cmd, id, err)
	}
	return printChatSettings(env, g, out)
}

// settingsFlags are the flags that set a conversation's own settings, the same
// for `session settings` and `chat`.
type settingsFlags struct {
	fs                                         *flag.FlagSet
	system, preset, model, temp, numCtx, think *string
	knowledge                                  *string
}

func addSettingsFlags(fs *flag.FlagSet) *settingsFlags {
	f := &settingsFlags{fs: fs,
		system:    fs.String("system", "", "the chat's system prompt (\"default\" or \"\": the global one)"),
		preset:    fs.String("preset", "", "use a saved system prompt by name (see `hermes preset list`)"),
		model:     fs.String("model", "", "the chat's model (\"default\": chat_model)"),
		temp:      fs.String("temperature", "", "0 to 2 (\"default\": the model's own)"),
		numCtx:    fs.String("num-ctx", "", "context size in tokens, 512 to 1048576 (\"default\" or 0: context_window)"),
		think:     fs.String("think", "", "a thinking model thinks: default (the model decides), on, off, or low, medium, high (models with levels)"),
		knowledge: fs.String("knowledge", "", "the knowledge-base collections the chat may cite: all (default), none, or names separated by commas"),
	}
	fs.Var(stringFlag{f.numCtx}, "context", "the same as --num-ctx")
	return f
}

// stringFlag is a second name for a string flag.
type stringFlag struct{ p *string }

func (s stringFlag) String() string {
	if s.p == nil {
		return ""
	}
	return *s.p
}
func (s stringFlag) Set(v string) error { *s.p = v; return nil }

func (f *settingsFlags) set() map[string]bool {
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) {
		name := fl.Name
		if name == "context" {
			name = "num-ctx"
		}
		set[name] = true
	})
	return set
}

// given reports whether any setting's flag was given.
func (f *settingsFlags) given() bool {
	set := f.set()
	return set["system"] || set["preset"] || set["model"] || set["temperature"] || set["num-ctx"] || set["think"] || set["knowledge"]
}

// input is cur changed by the flags given; a value that is not a number is
// refused here (exit 2), the rest of the checks are the app's.
func (f *settingsFlags) input(cmd string, cur app.ChatSettings) (app.ChatSettingsInput, error) {
	set := f.set()
	if set["system"] && set["preset"] {
		return app.ChatSettingsInput{}, usagef("%s: give --system or --preset, not both", cmd)
	}
	in := app.ChatSettingsInput{System: cur.System, Model: cur.Model, Temperature: cur.Temperature, NumCtx: cur.NumCtx, Think: cur.Think,
		Knowledge: cur.Knowledge}
	if set["system"] {
		in.System = clearable(*f.system)
	}
	if set["preset"] {
		in.Preset = *f.preset
		if strings.TrimSpace(*f.preset) == "" {
			return in, usagef("%s: --preset needs a preset's name; see `hermes preset list`", cmd)
		}
	}
	if set["model"] {
		in.Model = clearable(*f.model)
	}
	if set["temperature"] {
		in.Temperature = nil
		if v := clearable(*f.temp); v != "" {
			t, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return in, usagef("%s: --temperature %q is not a number; use 0 to 2, e.g. 0.7", cmd, *f.temp)
			}
			in.Temperature = &t
		}
	}
	if set["num-ctx"] {
		in.NumCtx = 0
		if v := clearable(*f.numCtx); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return in, usagef("%s: --num-ctx %q is not a whole number of tokens; use 512 to 1048576, e.g. 16384", cmd, *f.numCtx)
			}
			in.NumCtx = n
		}
	}
	if set["think"] {
		in.Think = app.Think(clearable(*f.think))
	}
	if set["knowledge"] {
		in.Knowledge = collections(*f.knowledge)
	}
	return in, nil
}

// collections reads --knowledge: all (or default) is nil, none is empty.
func collections(v string) []string {
	switch v = strings.TrimSpace(v); strings.ToLower(v) {
	case "", "all", "default":
		return nil
	case "none":
		return []string{}
	}
	out := []string{}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// clearable is a flag's value, with "default" meaning empty (the global setting).
func clearable(v string) string {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "default") {
		return ""
	}
	return v
}

func settingsErr(cmd, id string, err error) error {
	if app.IsNotFound(err) {
		return notFound(cmd, id)
	}
	return inputErr(cmd, err)
}

func printChatSettings(env Env, g globals, s app.ChatSettings) error {
	if g.json {
		return printJSON(env.Stdout, s)
	}
	or := func(v, def string) string {
		if v == "" {
			return def + " (default)"
		}
		return v
	}
	temp := "the model's default"
	if s.Temperature != nil {
		temp = strconv.FormatFloat(*s.Temperature, 'f', -1, 64)
	}
	numCtx := strconv.Itoa(s.Defaults.NumCtx) + " (default)"
	if s.NumCtx > 0 {
		numCtx = strconv.Itoa(s.NumCtx)
	}
	knowledge := "every collection (default)"
	switch {
	case s.Knowledge == nil:
	case len(s.Knowledge) == 0:
		knowledge = "none"
	default:
		knowledge = strings.Join(s.Knowledge, ", ")
	}
	fmt.Fprintf(env.Stdout, "session:     %s\nmodel:       %s\ntemperature: %s\ncontext:     %s tokens\nthink:       %s\nknowledge:   %s\nsystem:\n%s\n",
		s.SessionID, or(s.Model, s.Defaults.Model), temp, numCtx, or(string(s.Think), "the model decides"), knowledge, or(s.System, s.Defaults.System))
	return nil
}
