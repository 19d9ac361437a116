// Command intent-data regenerates models/intent/train.jsonl, dev.jsonl and test.jsonl
// from the templates in backend/intent/datagen.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"hermes/backend/intent/datagen"
	"hermes/backend/intent/dataset"
)

func main() {
	out := flag.String("out", "models/intent", "directory to write train.jsonl, dev.jsonl and test.jsonl into")
	seed := flag.Uint64("seed", datagen.DefaultSeed, "generator seed")
	flag.Parse()
	if err := run(*out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "intent-data:", err)
		os.Exit(1)
	}
}

func run(out string, seed uint64) error {
	opt := datagen.DefaultOptions()
	opt.Seed = seed
	sp, err := datagen.Generate(opt)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("write examples: %w", err)
	}
	for name, exs := range map[string][]dataset.Example{"train.jsonl": sp.Train, "dev.jsonl": sp.Dev, "test.jsonl": sp.Test} {
		if err := os.WriteFile(filepath.Join(out, name), dataset.Marshal(exs), 0o644); err != nil {
			return fmt.Errorf("write examples: %w", err)
		}
	}
	fmt.Fprintf(os.Stderr, "intent-data: %d train, %d dev, %d test examples in %s\n", len(sp.Train), len(sp.Dev), len(sp.Test), out)
	return nil
}
