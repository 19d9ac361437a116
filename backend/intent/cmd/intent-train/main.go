// Command intent-train trains the intent classifier from
// models/intent/train.jsonl, evaluates it on the held-out
// models/intent/test.jsonl and writes intent.onnx, labels.json,
// metrics.json and featurizer.json. Run by `go tool task model:intent`.
package main

import (
	"flag"
	"fmt"
	"os"

	"hermes/backend/intent/train"
)

func main() {
	data := flag.String("data", "models/intent", "directory with train.jsonl, test.jsonl and featurizer.json")
	out := flag.String("out", "models/intent", "directory to write the model into")
	cfg := train.DefaultConfig()
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "training seed")
	flag.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "training epochs")
	flag.Float64Var(&cfg.LearningRate, "lr", cfg.LearningRate, "learning rate")
	flag.Float64Var(&cfg.L2, "l2", cfg.L2, "L2 penalty")
	flag.IntVar(&cfg.BatchSize, "batch", cfg.BatchSize, "mini-batch size")
	flag.IntVar(&cfg.Average, "average", cfg.Average, "linear runs (consecutive seeds) whose weights are averaged")
	mlp := flag.Bool("mlp", false, "train the perceptron compared with the committed model (train.MLPConfig); other flags apply on top")
	flag.IntVar(&cfg.Hidden, "hidden", cfg.Hidden, "hidden ReLU units (0: the linear model)")
	flag.Float64Var(&cfg.InitScale, "init", cfg.InitScale, "hidden layer's initial weight bound")
	flag.BoolVar(&cfg.Uncalibrated, "uncalibrated", false, "skip temperature scaling (to measure its effect; never for the committed model)")
	misses := flag.Bool("misses", false, "print the held-out examples the model gets wrong")
	flag.Parse()
	if *mlp {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		lc := train.MLPConfig()
		if !set["seed"] {
			cfg.Seed = lc.Seed
		}
		if !set["epochs"] {
			cfg.Epochs = lc.Epochs
		}
		if !set["lr"] {
			cfg.LearningRate = lc.LearningRate
		}
		if !set["l2"] {
			cfg.L2 = lc.L2
		}
		if !set["batch"] {
			cfg.BatchSize = lc.BatchSize
		}
		if !set["hidden"] {
			cfg.Hidden = lc.Hidden
		}
		if !set["init"] {
			cfg.InitScale = lc.InitScale
		}
	}
	res, err := train.Run(*data, *out, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "intent-train:", err)
		os.Exit(1)
	}
	h := res.Report.HeldOut
	cal := res.Report.Calibration
	fmt.Fprintf(os.Stderr, "intent-train: temperature %.4f on %s: ECE %.4f -> %.4f (held-out ECE %.4f -> %.4f, confident errors %d)\n",
		float64(cal.Temperature), cal.Split, float64(cal.ECEBefore), float64(cal.ECEAfter), float64(cal.HeldOutECEBefore), float64(h.ECE), h.ConfidentErrors)
	fmt.Fprintf(os.Stderr, "intent-train: held-out %d examples: accuracy %.4f, macro-F1 %.4f (train accuracy %.4f)\n",
		h.Examples, float64(h.Accuracy), float64(h.MacroF1), float64(res.Report.Training.TrainAccuracy))
	d := res.Report.Dev
	fmt.Fprintf(os.Stderr, "intent-train: dev %d examples: accuracy %.4f, macro-F1 %.4f, ECE %.4f, confident errors %d\n",
		d.Examples, float64(d.Accuracy), float64(d.MacroF1), float64(d.ECE), d.ConfidentErrors)
	for _, l := range h.PerLang {
		fmt.Fprintf(os.Stderr, "intent-train:   %s: accuracy %.4f, macro-F1 %.4f\n", l.Lang, float64(l.Accuracy), float64(l.MacroF1))
	}
	if *misses {
		for _, m := range res.Misses {
			fmt.Fprintf(os.Stderr, "miss: %-12s -> %-12s %.2f  %s\n", m.Example.Label, m.Predicted, m.Confidence, m.Example.Text)
		}
	}
	for _, f := range res.Files {
		fmt.Fprintln(os.Stderr, "intent-train: wrote", f)
	}
}
