package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/app"
)

// correctOne sends text in a chat and corrects its intent to label, as the chip does.
func correctOne(t *testing.T, env map[string]string, text, label string) {
	t.Helper()
	core, err := app.Open(context.Background(), app.Options{DataDir: env["HERMES_DATA_DIR"],
		Getenv: func(k string) string { return env[k] }, IntentModel: os.DirFS("../../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := app.NewApp(core, nil)
	res, err := a.Chat.SendMessage("r", "", text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.CorrectIntent(res.User.ID, label); err != nil {
		t.Fatal(err)
	}
}

func TestIntentCorrectionsAndTrain(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OLLAMA_HOST": fakeOllama(t), "HERMES_DATA_DIR": dir}
	const text = "我是一名小学老师" // the committed model: hypothetical
	correctOne(t, env, text, "remember")

	r := runCLI(t, env, "", "intent", "corrections", "list")
	if r.code != 0 || r.stdout != "remember\t"+text+"\n" {
		t.Fatalf("corrections list: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "intent", "corrections", "list")
	var list []app.IntentCorrection
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 1 || list[0] != (app.IntentCorrection{Text: text, Label: "remember"}) {
		t.Fatalf("corrections list --json: %+v", r)
	}

	r = runCLI(t, env, "", "--json", "intent", "train", "--with-corrections")
	var tr app.IntentTraining
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &tr) != nil || tr.Corrections != 1 || tr.Examples == 0 {
		t.Fatalf("intent train: %+v", r)
	}
	userModel := filepath.Join(dir, "models", "intent", "user", "intent.onnx")
	first, err := os.ReadFile(userModel)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Dir != filepath.Dir(userModel) {
		t.Errorf("trained into %s; want %s", tr.Dir, filepath.Dir(userModel))
	}
	// The built-in model is read inside the binary: no copy of it is written
	// beside the user's.
	if _, err := os.Stat(filepath.Join(dir, "models", "intent", "intent.onnx")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the built-in model was copied into the data dir (%v)", err)
	}

	// Without the corrections the user's model still knows the text: it is the one loaded.
	if r = runCLI(t, env, "", "intent", "corrections", "clear"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("clear without --yes in a script: %+v", r)
	}
	if r = runCLI(t, env, "", "--yes", "intent", "corrections", "clear"); r.code != 0 || !strings.Contains(r.stdout, "cleared 1") {
		t.Fatalf("clear: %+v", r)
	}
	if r = runCLI(t, env, "", "intent", "corrections", "list"); r.code != 0 || r.stdout != "" {
		t.Fatalf("list after clear: %+v", r)
	}
	if r = runCLI(t, env, "", "intent", "classify", text); r.code != 0 || !strings.HasPrefix(r.stdout, "remember\t") {
		t.Fatalf("classify with the user's model: %+v", r)
	}

	// Deterministic: the same data makes the same model.
	correctOne(t, env, text, "remember")
	if r = runCLI(t, env, "", "intent", "train", "--with-corrections"); r.code != 0 || !strings.Contains(r.stdout, "1 corrections") {
		t.Fatalf("train again: %+v", r)
	}
	if again, err := os.ReadFile(userModel); err != nil || !bytes.Equal(first, again) {
		t.Fatal("training twice on the same data made different models")
	}

	// A broken user model falls back to the installed one.
	if err := os.WriteFile(userModel, []byte("not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	runCLI(t, env, "", "--yes", "intent", "corrections", "clear")
	if r = runCLI(t, env, "", "intent", "classify", "what time is it"); r.code != 0 || !strings.HasPrefix(r.stdout, "task\t") {
		t.Fatalf("classify with a broken user model: %+v", r)
	}

	if r = runCLI(t, env, "", "intent", "corrections", "bogus"); r.code != 2 {
		t.Fatalf("corrections bogus: %+v", r)
	}
	if r = runCLI(t, env, "", "intent", "train", "--bogus"); r.code != 2 {
		t.Fatalf("train --bogus: %+v", r)
	}
}
