package llm

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest/realollama"
)

// Hermes's own client against the real Ollama (../shared/tools/ollama, else
// `ollama` on PATH), with the tiny model of realollama.WriteTinyModel: random
// weights, so the words are gibberish, but the wire, the model management and
// the streaming are Ollama's own. Each step needs the ones before it.
func TestRealOllama(t *testing.T) {
	srv := realollama.Start(t)
	upload := realClient(t, srv.URL, "")         // imports by uploading, as into any Ollama
	placed := realClient(t, srv.URL, srv.Models) // an Ollama Hermes started: imports by writing the blob
	file := tinyModelFile(t)
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"version", func(t *testing.T) { realVersion(t, upload) }},
		{"import by upload, without a Modelfile", func(t *testing.T) { realImport(t, upload, file, "tiny", "", "uploading") }},
		{"list, details and show", func(t *testing.T) { realDetails(t, upload) }},
		{"import into its models folder, with a Modelfile of two stops", func(t *testing.T) { realImportStops(t, placed, file) }},
		{"a streamed chat", func(t *testing.T) { realChat(t, upload) }},
		{"loaded after the chat", func(t *testing.T) { realLoaded(t, upload) }},
		{"structured output", func(t *testing.T) { realStructured(t, upload) }},
		{"embeddings", func(t *testing.T) { realEmbed(t, upload) }},
		{"a pull fails offline, nothing listed", func(t *testing.T) { realPullOffline(t, upload) }},
		{"delete", func(t *testing.T) { realDelete(t, upload) }},
		{"the server killed mid-stream", func(t *testing.T) { realKilled(t, upload, srv) }},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			t.Fatalf("stopped after %q; the server's log ends:\n%s", s.name, srv.LogTail(30))
		}
	}
}

func realVersion(t *testing.T, c *Client) {
	v, err := c.Version(testCtx(t))
	if err != nil || CompareVersions(v, MinImportVersion) < 0 {
		t.Fatalf("version %q, %v", v, err)
	}
	if h := c.Check(testCtx(t)); !h.Reachable || h.Version != v || h.Err != nil {
		t.Errorf("check = %+v", h)
	}
}

// realImport imports file as name and checks the progress went through the
// step way ("uploading" or "copying") and ended in success.
func realImport(t *testing.T, c *Client, file, name, modelfile, way string) {
	statuses := map[string]bool{}
	err := c.ImportGGUF(testCtx(t), file, name, modelfile, func(p Progress) error { statuses[p.Status] = true; return nil })
	other := map[string]string{"uploading": "copying", "copying": "uploading"}[way]
	if err != nil || !statuses[way] || statuses[other] || !statuses["success"] {
		t.Fatalf("import %s: %v; progress %v", name, err, statuses)
	}
}

func realDetails(t *testing.T, c *Client) {
	ctx := testCtx(t)
	models, err := c.Models(ctx)
	if err != nil || !slices.ContainsFunc(models, func(m Model) bool { return m.Name == "tiny:latest" && m.Size > 0 && !m.ModifiedAt.IsZero() }) {
		t.Fatalf("models = %+v, %v", models, err)
	}
	details, err := c.ModelDetails(ctx)
	i := slices.IndexFunc(details, func(d ModelDetail) bool { return d.Name == "tiny" })
	if err != nil || i < 0 {
		t.Fatalf("details = %+v, %v", details, err)
	}
	d := details[i]
	// The tiny model's own figures: a llama of 512 tokens' context that can chat.
	if d.Family != "llama" || d.ContextLength != 512 || !slices.Equal(d.Capabilities, []string{CapChat}) || d.Loaded ||
		d.ParameterSize == "" || d.Quantization == "" || !isDigest(d.Digest) || d.Size <= 0 {
		t.Errorf("tiny = %+v", d)
	}
	info, err := c.Show(ctx, "tiny")
	if err != nil || info.ContextLength != 512 || info.Family != "llama" || !info.Has("completion") || info.Has("tools") {
		t.Errorf("show = %+v, %v", info, err)
	}
	if n := c.ContextLength(ctx, "tiny"); n != 512 {
		t.Errorf("context length = %d", n)
	}
}

func realImportStops(t *testing.T, c *Client, file string) {
	mf := strings.Join([]string{
		"FROM ./tiny.gguf",
		`PARAMETER stop "<|end|>"`,
		"PARAMETER stop User:",
		"PARAMETER num_ctx 256",
		"PARAMETER temperature 0.3",
		`SYSTEM """You are terse."""`,
		"LICENSE MIT",
		"MESSAGE user Hello",
		"MESSAGE assistant Hi",
	}, "\n")
	realImport(t, c, file, "tiny-stops", mf, "copying")
	show, err := c.api.Show(testCtx(t), &api.ShowRequest{Model: "tiny-stops"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(show.Parameters, "\n")
	slices.Sort(got) // Ollama writes them in its map's order
	want := []string{
		"num_ctx                        256", // an int, as Ollama types it
		`stop                           "<|end|>"`,
		`stop                           "User:"`,
		"temperature                    0.3",
	}
	msgs := []api.Message{{Role: "user", Content: "Hello"}, {Role: "assistant", Content: "Hi"}}
	if !slices.Equal(got, want) || show.System != "You are terse." || show.License != "MIT" ||
		!slices.EqualFunc(show.Messages, msgs, func(a, b api.Message) bool { return a.Role == b.Role && a.Content == b.Content }) {
		t.Errorf("parameters %q, system %q, license %q, messages %+v", show.Parameters, show.System, show.License, show.Messages)
	}
}

func realChat(t *testing.T, c *Client) {
	var deltas []string
	reply, err := c.Chat(testCtx(t), ChatRequest{Models: []string{"tiny"}, Messages: userMsg("say hello"),
		Options: map[string]any{"num_predict": 6, "temperature": 0}}, func(d Delta) error { deltas = append(deltas, d.Content); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(deltas) < 2 || strings.Join(deltas, "") != reply.Content || reply.Model != "tiny" || reply.DoneReason != "length" ||
		reply.CompletionTokens != 6 || reply.PromptTokens <= 0 || reply.EvalDuration <= 0 || len(reply.Failures) != 0 {
		t.Errorf("reply %+v from deltas %q", reply, deltas)
	}
}

func realLoaded(t *testing.T, c *Client) {
	details, err := c.ModelDetails(testCtx(t))
	i := slices.IndexFunc(details, func(d ModelDetail) bool { return d.Name == "tiny" })
	if err != nil || i < 0 || !details[i].Loaded {
		t.Errorf("details = %+v, %v", details, err)
	}
}

// realStructured checks that Ollama holds even random weights to a JSON
// schema: the reply is a JSON value of the schema, and it ends there.
func realStructured(t *testing.T, c *Client) {
	schema := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
	reply, err := c.Chat(testCtx(t), ChatRequest{Models: []string{"tiny"}, Messages: userMsg("is it ok?"), Format: schema,
		Options: map[string]any{"num_predict": 200, "temperature": 0}}, func(Delta) error { return nil })
	var v struct {
		OK *bool `json:"ok"`
	}
	if err != nil || json.Unmarshal([]byte(reply.Content), &v) != nil || v.OK == nil || reply.DoneReason != "stop" {
		t.Errorf("reply %+v, %v", reply, err)
	}
}

func realEmbed(t *testing.T, c *Client) {
	vecs, err := c.Embed(testCtx(t), "tiny", []string{"hello world", "the sea"})
	if err != nil || len(vecs) != 2 || len(vecs[0]) != 32 || len(vecs[1]) != 32 { // the tiny model's embedding length
		t.Fatalf("embeddings %v, %v", vecs, err)
	}
	for i, v := range vecs {
		if n := norm(v); math.Abs(n-1) > 1e-3 {
			t.Errorf("embedding %d has norm %v", i, n)
		}
	}
	if slices.Equal(vecs[0], vecs[1]) {
		t.Error("two texts, one embedding")
	}
}

func realPullOffline(t *testing.T, c *Client) {
	var seen []string
	err := c.Pull(testCtx(t), "hermes-offline-check", func(p Progress) error { seen = append(seen, p.Status); return nil })
	if err == nil || !strings.Contains(err.Error(), "pull model hermes-offline-check: ") || !slices.Equal(seen, []string{"pulling manifest"}) {
		t.Fatalf("pull: %v (progress %q)", err, seen)
	}
	// Hermes says the library is out of reach, not Ollama's network error alone.
	if !errors.Is(err, ErrLibraryOffline) {
		t.Errorf("pull offline: %v, want ErrLibraryOffline", err)
	}
	models, err := c.Models(testCtx(t))
	if err != nil || slices.ContainsFunc(models, func(m Model) bool { return strings.HasPrefix(m.Name, "hermes-offline-check") }) {
		t.Errorf("after the pull: %+v, %v", models, err)
	}
}

func realDelete(t *testing.T, c *Client) {
	ctx := testCtx(t)
	if err := c.Delete(ctx, "tiny-stops"); err != nil {
		t.Fatal(err)
	}
	models, err := c.Models(ctx)
	if err != nil || len(models) != 1 || models[0].Name != "tiny:latest" {
		t.Errorf("after the delete: %+v, %v", models, err)
	}
	if err := c.Delete(ctx, "tiny-stops"); !errors.Is(err, ErrModelNotFound) {
		t.Errorf("delete again: %v", err)
	}
}

// realKilled kills the server (and its runner) at the first delta of a long
// reply: the chat ends as cut off, with the text that came kept.
func realKilled(t *testing.T, c *Client, srv *realollama.Server) {
	var once sync.Once
	reply, err := c.Chat(testCtx(t), ChatRequest{Models: []string{"tiny"}, Messages: userMsg("tell a long story"),
		Options: map[string]any{"num_predict": 400, "temperature": 0}}, func(Delta) error { once.Do(srv.Kill); return nil })
	if !errors.Is(err, ErrCutOff) || reply.Content == "" || reply.CompletionTokens != 0 {
		t.Errorf("chat cut off: %+v, %v", reply, err)
	}
	if _, err := c.Version(testCtx(t)); !errors.Is(err, ErrUnreachable) {
		t.Errorf("after the kill: %v", err)
	}
}
