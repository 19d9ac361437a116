package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"hermes/app"
)

// coreIntent is what the intent command needs of the service.
type coreIntent interface {
	IntentModel() (app.IntentModel, error)
	IntentProblem() (string, string)
	ClassifyIntent(ctx context.Context, text string) (app.IntentResult, error)
	ClassifyIntents(ctx context.Context, texts []string) ([]app.IntentResult, error)
	IntentCorrections(ctx context.Context) ([]app.IntentCorrection, error)
	ClearIntentCorrections(ctx context.Context) (int, error)
	TrainIntent(ctx context.Context, withCorrections bool) (app.IntentTraining, error)
}

// intentCmd: hermes intent classify TEXT | --batch FILE | corrections list|clear | train [--with-corrections]
func intentCmd(core coreIntent, g globals, args []string, env Env) error {
	if len(args) > 0 {
		switch args[0] {
		case "corrections":
			return intentCorrectionsCmd(core, g, args[1:], env)
		case "train":
			return intentTrainCmd(core, g, args[1:], env)
		}
	}
	if len(args) == 0 || args[0] != "classify" {
		return usagef("intent: use `intent classify TEXT`, `intent classify --batch FILE`, `intent corrections list|clear` or `intent train --with-corrections`")
	}
	fs := newFlags("intent classify")
	batch := fs.String("batch", "", "JSONL file of {\"id\",\"text\"}")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	text := strings.Join(fs.Args(), " ")
	if (*batch == "") == (text == "") {
		return usagef("intent classify: give TEXT or --batch FILE (not both)")
	}
	if _, err := core.IntentModel(); err != nil {
		problem, fix := core.IntentProblem()
		return fmt.Errorf("intent classify: %s %s", problem, fix)
	}
	ctx := context.Background()
	if text != "" {
		r, err := core.ClassifyIntent(ctx, text)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, map[string]any{"label": r.Label, "confidence": r.Confidence, "scores": r.Scores})
		}
		fmt.Fprintf(env.Stdout, "%s\t%.3f\n", r.Label, r.Confidence)
		return nil
	}
	type line struct {
		ID   json.RawMessage `json:"id"`
		Text *string         `json:"text"`
	}
	f, err := os.Open(*batch)
	if err != nil {
		return usagef("intent classify: %v", err)
	}
	defer f.Close()
	var ids []json.RawMessage
	var texts []string
	err = app.JSONLines(f, 4<<20, func(n int, raw []byte) error {
		var l line
		if err := json.Unmarshal(raw, &l); err != nil || l.Text == nil || len(l.ID) == 0 {
			return usagef("intent classify: %s line %d: want {\"id\": ..., \"text\": \"...\"}", *batch, n)
		}
		ids = append(ids, l.ID)
		texts = append(texts, *l.Text)
		return nil
	})
	if le, ok := err.(*app.LineError); ok {
		return usagef("intent classify: %s %v", *batch, le)
	} else if err != nil {
		return err
	}
	results, err := core.ClassifyIntents(ctx, texts)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(env.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, r := range results {
		enc.Encode(struct {
			ID         json.RawMessage `json:"id"`
			Label      string          `json:"label"`
			Confidence float32         `json:"confidence"`
		}{ids[i], r.Label, r.Confidence})
	}
	return w.Flush()
}

// intentCorrectionsCmd: hermes intent corrections list | clear
func intentCorrectionsCmd(core coreIntent, g globals, args []string, env Env) error {
	ctx := context.Background()
	if len(args) != 1 || (args[0] != "list" && args[0] != "clear") {
		return usagef("intent corrections: use `intent corrections list` or `intent corrections clear`")
	}
	if args[0] == "list" {
		list, err := core.IntentCorrections(ctx)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, list)
		}
		for _, c := range list {
			fmt.Fprintf(env.Stdout, "%s\t%s\n", c.Label, c.Text)
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stderr, "no intent corrections")
		}
		return nil
	}
	list, err := core.IntentCorrections(ctx)
	if err == nil && len(list) == 0 {
		fmt.Fprintln(env.Stderr, "no intent corrections")
		if g.json {
			return printJSON(env.Stdout, map[string]any{"cleared": 0})
		}
		return nil
	}
	if ok, err := proceed(env, g, fmt.Sprintf("Clear %d intent corrections?", len(list)), "this needs confirmation", "nothing cleared"); !ok {
		return err
	}
	n, err := core.ClearIntentCorrections(ctx)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, map[string]any{"cleared": n})
	}
	fmt.Fprintf(env.Stdout, "cleared %d intent corrections\n", n)
	return nil
}

// intentTrainCmd: hermes intent train [--with-corrections]
func intentTrainCmd(core coreIntent, g globals, args []string, env Env) error {
	fs := newFlags("intent train")
	with := fs.Bool("with-corrections", false, "add the corrections made on the intent chip to the shipped training data")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("intent train: takes no arguments (use --with-corrections)")
	}
	fmt.Fprintln(env.Stderr, "training the intent model on this computer...")
	r, err := core.TrainIntent(context.Background(), *with)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, r)
	}
	fmt.Fprintf(env.Stdout, "trained on %d examples (%d corrections) in %.1fs: held-out accuracy %.3f, macro-F1 %.3f\n",
		r.Examples, r.Corrections, r.Seconds, r.HeldOut, r.MacroF1)
	fmt.Fprintf(env.Stdout, "wrote %s; Hermes uses it from its next start (remove that folder to go back to the installed model)\n", r.Dir)
	return nil
}
