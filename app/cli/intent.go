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
}

// intentCmd: hermes intent classify TEXT | --batch FILE
func intentCmd(core coreIntent, g globals, args []string, env Env) error {
	if len(args) == 0 || args[0] != "classify" {
		return usagef("intent: use `intent classify TEXT` or `intent classify --batch FILE`")
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
