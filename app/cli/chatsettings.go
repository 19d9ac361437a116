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
//	hermes session settings ID [--json]
//	hermes session settings ID [--system TEXT|--preset NAME] [--model M] [--temperature T] [--context N]
//
// Only the flags given change; "default" (or "") returns a field to the global setting.
func sessionSettingsCmd(core *app.Core, g globals, args []string, env Env) error {
	const cmd = "session settings"
	fs := newFlags(cmd)
	system := fs.String("system", "", "the chat's system prompt (\"default\" or \"\": the global one)")
	preset := fs.String("preset", "", "use a saved system prompt by name")
	model := fs.String("model", "", "the chat's model (\"default\": chat_model)")
	temp := fs.String("temperature", "", "0 to 2 (\"default\": the model's own)")
	numCtx := fs.String("context", "", "context size in tokens, 512 to 1048576 (\"default\" or 0: context_window)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("%s: give one session id", cmd)
	}
	id := fs.Arg(0)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	ctx := context.Background()
	cur, err := core.ChatSettings(ctx, id)
	if err != nil {
		return settingsErr(cmd, id, err)
	}
	if len(set) == 0 {
		return printChatSettings(env, g, cur)
	}
	if set["system"] && set["preset"] {
		return usagef("%s: give --system or --preset, not both", cmd)
	}
	in := app.ChatSettingsInput{System: cur.System, Model: cur.Model, Temperature: cur.Temperature, NumCtx: cur.NumCtx}
	if set["system"] {
		in.System = clearable(*system)
	}
	if set["preset"] {
		in.Preset = *preset
		if strings.TrimSpace(*preset) == "" {
			return usagef("%s: --preset needs a preset's name", cmd)
		}
	}
	if set["model"] {
		in.Model = clearable(*model)
	}
	if set["temperature"] {
		in.Temperature = nil
		if v := clearable(*temp); v != "" {
			t, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return usagef("%s: --temperature %q is not a number; use 0 to 2, e.g. 0.7", cmd, *temp)
			}
			in.Temperature = &t
		}
	}
	if set["context"] {
		in.NumCtx = 0
		if v := clearable(*numCtx); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return usagef("%s: --context %q is not a whole number of tokens; use 512 to 1048576, e.g. 16384", cmd, *numCtx)
			}
			in.NumCtx = n
		}
	}
	out, err := core.SetChatSettings(ctx, id, in)
	if err != nil {
		return settingsErr(cmd, id, err)
	}
	return printChatSettings(env, g, out)
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
	switch {
	case app.IsNotFound(err):
		return notFound(cmd, id)
	case app.IsBadInput(err):
		return usagef("%s: %v", cmd, app.DescribeError(err, "", ""))
	}
	return err
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
	fmt.Fprintf(env.Stdout, "session:     %s\nmodel:       %s\ntemperature: %s\ncontext:     %s tokens\nsystem:\n%s\n",
		s.SessionID, or(s.Model, s.Defaults.Model), temp, numCtx, or(s.System, s.Defaults.System))
	return nil
}
