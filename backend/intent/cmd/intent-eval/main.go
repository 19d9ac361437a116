// Command intent-eval classifies labelled JSONL examples with a model
// directory through ONNX Runtime (the path the app uses) and prints
// accuracy, macro-F1, per-label F1, per-language accuracy, expected
// calibration error and the errors made with confidence >= 0.9.
//
//	go run ./backend/intent/cmd/intent-eval [-model models/intent] [-misses] FILE...
//
// It only reports; nothing is fitted or chosen from what it reads.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"hermes/backend/intent"
	"hermes/backend/intent/dataset"
	"hermes/backend/intent/train"
)

func main() {
	model := flag.String("model", "models/intent", "model directory")
	misses := flag.Bool("misses", false, "print the misclassified examples")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "intent-eval: give one or more JSONL files of {text,label,lang}")
		os.Exit(2)
	}
	if err := run(*model, *misses, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "intent-eval:", err)
		os.Exit(1)
	}
}

func run(model string, misses bool, files []string) error {
	lib, err := intent.LocateLibrary()
	if err != nil {
		return err
	}
	c, err := intent.Open(intent.Config{LibPath: lib, ModelDir: model, Threshold: 0.01})
	if err != nil {
		return err
	}
	defer c.Close()
	for _, f := range files {
		exs, err := dataset.ReadFile(f)
		if err != nil {
			return err
		}
		preds, err := intent.Predictions(context.Background(), c, exs)
		if err != nil {
			return err
		}
		h := train.Evaluate(f, exs, preds)
		fmt.Printf("%s: %d examples, accuracy %.4f, macro-F1 %.4f, ECE %.4f, errors with confidence >= 0.9: %d (%.2f%%)\n",
			f, h.Examples, float64(h.Accuracy), float64(h.MacroF1), float64(h.ECE), h.ConfidentErrors, 100*float64(h.ConfidentErrorRate))
		for _, l := range h.PerLang {
			fmt.Printf("  %s: %d examples, accuracy %.4f, macro-F1 %.4f\n", l.Lang, l.Examples, float64(l.Accuracy), float64(l.MacroF1))
		}
		for _, l := range h.PerLabel {
			fmt.Printf("  %-12s F1 %.4f (precision %.4f, recall %.4f, %d examples)\n", l.Label, float64(l.F1), float64(l.Precision), float64(l.Recall), l.Support)
		}
		if misses {
			for i, p := range preds {
				if got := dataset.Labels[p.Label]; got != exs[i].Label {
					fmt.Printf("  miss: %-12s -> %-12s %.2f  %s\n", exs[i].Label, got, p.Confidence, exs[i].Text)
				}
			}
		}
	}
	return nil
}
