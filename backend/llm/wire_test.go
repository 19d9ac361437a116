package llm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/llm/llmtest/realollama"
)

// One table of what Ollama's wire answers look like, run against the stand-in
// (package llmtest) and against the real Ollama: where they differ, the
// stand-in is wrong. Every target has a chat model named tiny installed that
// can neither call tools nor think.

// wireTarget is a server the expectations run against.
type wireTarget struct {
	url    string
	client *Client
	gguf   string // a GGUF file to import
}

// wireCheck is one expectation.
type wireCheck struct {
	name  string
	check func(t *testing.T, w wireTarget)
}

func TestWireExpectations(t *testing.T) {
	targets := []struct {
		name  string
		start func(t *testing.T) wireTarget
	}{
		{"stand-in", fakeTarget},
		{"real Ollama", realTarget},
	}
	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			w := target.start(t)
			for _, c := range wireExpectations() {
				t.Run(c.name, func(t *testing.T) { c.check(t, w) })
			}
		})
	}
}

// fakeTarget is the stand-in with tiny installed and loaded.
func fakeTarget(t *testing.T) wireTarget {
	fake := llmtest.New()
	fake.Models = append(fake.Models, llmtest.Model{Name: "tiny", ContextLength: 512, Capabilities: []string{"completion"}})
	fake.Loaded = []string{"tiny"}
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	return wireTarget{url: srv.URL, client: realClient(t, srv.URL, ""), gguf: tinyModelFile(t)}
}

// realTarget is a real Ollama with tiny imported through Hermes.
func realTarget(t *testing.T) wireTarget {
	srv := realollama.Start(t)
	w := wireTarget{url: srv.URL, client: realClient(t, srv.URL, ""), gguf: tinyModelFile(t)}
	if err := w.client.ImportGGUF(testCtx(t), w.gguf, "tiny", "", nil); err != nil {
		t.Fatalf("import tiny: %v\n%s", err, srv.LogTail(20))
	}
	return w
}

// realClient is a Hermes client for url; store is the models folder of an
// Ollama Hermes started itself ("" for any other).
func realClient(t *testing.T, url, store string) *Client {
	t.Helper()
	c, err := New(Config{Host: url, FirstTokenTimeout: 30 * time.Second, TokenGapTimeout: 30 * time.Second,
		Store: func() string { return store }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tinyModelFile writes the tiny GGUF model the real Ollama loads.
func tinyModelFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := realollama.WriteTinyModel(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// testCtx is a context that ends with the test, and after a minute at most.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// wireAnswer is one HTTP answer.
type wireAnswer struct {
	status int
	ctype  string
	body   []byte
}

// call sends body (as JSON; nil sends none) and reads the whole answer.
func (w wireTarget) call(t *testing.T, method, path string, body any) wireAnswer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(testCtx(t), method, w.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return wireAnswer{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: b}
}

// decode reads a JSON answer into v.
func (a wireAnswer) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("answer %d %q: %v", a.status, a.body, err)
	}
}

// lines are the NDJSON lines of a streamed answer.
func (a wireAnswer) lines() []json.RawMessage {
	var out []json.RawMessage
	for _, l := range bytes.Split(bytes.TrimSpace(a.body), []byte("\n")) {
		out = append(out, json.RawMessage(l))
	}
	return out
}

// wantError checks an {"error"} answer with status and message.
func (a wireAnswer) wantError(t *testing.T, status int, message string) {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(a.body, &e); err != nil || a.status != status || e.Error != message || !strings.HasPrefix(a.ctype, "application/json") {
		t.Errorf("got %d %s %q, want %d %q", a.status, a.ctype, a.body, status, message)
	}
}

// streamError is the {"error"} line that ends a streamed answer ("" if none).
func streamError(lines []json.RawMessage) string {
	var e struct {
		Error string `json:"error"`
	}
	if len(lines) == 0 || json.Unmarshal(lines[len(lines)-1], &e) != nil {
		return ""
	}
	return e.Error
}

// listed reports whether /api/tags lists name (with its tag).
func (w wireTarget) listed(t *testing.T, name string) bool {
	var list api.ListResponse
	w.call(t, http.MethodGet, "/api/tags", nil).decode(t, &list)
	return slices.ContainsFunc(list.Models, func(m api.ListModelResponse) bool { return m.Name == name })
}

func isDigest(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

// checkDetails checks details as Ollama gives them for a GGUF model.
func checkDetails(t *testing.T, d api.ModelDetails) {
	t.Helper()
	if d.Format != "gguf" || d.Family == "" || !slices.Contains(d.Families, d.Family) || d.ParameterSize == "" || d.QuantizationLevel == "" {
		t.Errorf("details = %+v", d)
	}
}

// chatBody is a chat request for tiny: num_predict tokens, greedy.
func chatBody(numPredict int, extra map[string]any) map[string]any {
	b := map[string]any{"model": "tiny", "messages": []map[string]string{{"role": "user", "content": "say hello"}},
		"options": map[string]any{"num_predict": numPredict, "temperature": 0}}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func wireExpectations() []wireCheck {
	return []wireCheck{
		{"version", checkVersion},
		{"tags: every model with its details", checkTags},
		{"show: the listed details, context length, capabilities, template", checkShow},
		{"a model that is not there: 404 and Ollama's words", checkMissingModel},
		{"no model named: 400", checkNoModel},
		{"a streamed chat: NDJSON, one done line with the figures", checkStreamedChat},
		{"a chat not streamed: one object", checkUnstreamedChat},
		{"tools for a model without them: 400, and Hermes answers without", checkNoTools},
		{"thinking for a model that cannot think: 400; think false is fine", checkNoThinking},
		{"embeddings: one unit vector per input", checkEmbed},
		{"ps: the loaded model with its details", checkPS},
		{"keep_alive and num_ctx: ps shows the expiry and context a chat asked for", checkKeepAlive},
		{"a prompt over num_ctx: cut to fit, counted as the whole context", checkFullContext},
		{"a pull that cannot be had: the error in the stream, nothing listed", checkFailedPull},
		{"create from a blob that is not there: the error in the stream", checkCreateNoBlob},
		{"blobs: unknown is 404, a wrong digest 400", checkBlobs},
		{"import with a Modelfile: show gives both stops and the typed parameters, tags its size", checkImportParameters},
		{"copy and delete", checkCopyDelete},
	}
}

func checkVersion(t *testing.T, w wireTarget) {
	a := w.call(t, http.MethodGet, "/api/version", nil)
	var v struct{ Version string }
	a.decode(t, &v)
	if a.status != http.StatusOK || CompareVersions(v.Version, MinImportVersion) < 0 {
		t.Errorf("version answer %d %q", a.status, a.body)
	}
	if got, err := w.client.Version(testCtx(t)); err != nil || got != v.Version {
		t.Errorf("Hermes: version %q, %v", got, err)
	}
}

func checkTags(t *testing.T, w wireTarget) {
	a := w.call(t, http.MethodGet, "/api/tags", nil)
	var list api.ListResponse
	a.decode(t, &list)
	if a.status != http.StatusOK || !w.listed(t, "tiny:latest") {
		t.Fatalf("tags %d %s", a.status, a.body)
	}
	for _, m := range list.Models {
		if m.Name != m.Model || !strings.HasSuffix(m.Name, ":latest") || m.Size <= 0 || !isDigest(m.Digest) || m.ModifiedAt.IsZero() {
			t.Errorf("listed %+v", m)
		}
		checkDetails(t, m.Details)
	}
}

func checkShow(t *testing.T, w wireTarget) {
	var list api.ListResponse
	w.call(t, http.MethodGet, "/api/tags", nil).decode(t, &list)
	i := slices.IndexFunc(list.Models, func(m api.ListModelResponse) bool { return m.Name == "tiny:latest" })
	if i < 0 {
		t.Fatal("tiny is not listed")
	}
	listed := list.Models[i].Details
	for _, name := range []string{"tiny", "tiny:latest"} {
		a := w.call(t, http.MethodPost, "/api/show", map[string]string{"model": name})
		var show api.ShowResponse
		a.decode(t, &show)
		d := show.Details
		checkDetails(t, d)
		// The parent model may differ (the real one names the file's blob here only).
		if a.status != http.StatusOK || d.Format != listed.Format || d.Family != listed.Family || !slices.Equal(d.Families, listed.Families) ||
			d.ParameterSize != listed.ParameterSize || d.QuantizationLevel != listed.QuantizationLevel {
			t.Errorf("show %s: %d, details %+v, listed %+v", name, a.status, d, listed)
		}
		ctxLen, _ := show.ModelInfo[d.Family+".context_length"].(float64)
		if show.ModelInfo["general.architecture"] != d.Family || ctxLen <= 0 || !slices.Contains(show.Capabilities, "completion") ||
			show.Template == "" || show.ModifiedAt.IsZero() {
			t.Errorf("show %s: model_info %v, capabilities %v, template %q, modified %v", name, show.ModelInfo, show.Capabilities, show.Template, show.ModifiedAt)
		}
		if info, err := w.client.Show(testCtx(t), name); err != nil || info.ContextLength != int(ctxLen) || info.Family != d.Family || !info.Has("completion") {
			t.Errorf("Hermes: show %s = %+v, %v", name, info, err)
		}
	}
}

func checkMissingModel(t *testing.T, w wireTarget) {
	const name = "hermes-missing"
	notFound := "model '" + name + "' not found"
	w.call(t, http.MethodPost, "/api/show", map[string]string{"model": name}).wantError(t, http.StatusNotFound, notFound)
	w.call(t, http.MethodPost, "/api/chat", map[string]any{"model": name, "messages": []map[string]string{{"role": "user", "content": "hi"}}}).
		wantError(t, http.StatusNotFound, notFound)
	w.call(t, http.MethodDelete, "/api/delete", map[string]string{"model": name}).wantError(t, http.StatusNotFound, notFound)
	w.call(t, http.MethodPost, "/api/embed", map[string]any{"model": name, "input": "hi"}).
		wantError(t, http.StatusNotFound, `model "`+name+`" not found, try pulling it first`)
	w.call(t, http.MethodPost, "/api/copy", map[string]string{"source": name, "destination": "x"}).
		wantError(t, http.StatusNotFound, `model "`+name+`" not found`)

	ctx := testCtx(t)
	_, showErr := w.client.Show(ctx, name)
	_, chatErr := w.client.Chat(ctx, ChatRequest{Models: []string{name}, Messages: userMsg("hi")}, func(Delta) error { return nil })
	_, embedErr := w.client.Embed(ctx, name, []string{"hi"})
	for what, err := range map[string]error{"show": showErr, "chat": chatErr, "embed": embedErr, "delete": w.client.Delete(ctx, name)} {
		if !errors.Is(err, ErrModelNotFound) {
			t.Errorf("Hermes: %s of a missing model: %v", what, err)
		}
	}
}

func checkNoModel(t *testing.T, w wireTarget) {
	w.call(t, http.MethodPost, "/api/chat", map[string]any{"messages": []map[string]string{{"role": "user", "content": "hi"}}}).
		wantError(t, http.StatusBadRequest, "model is required")
	w.call(t, http.MethodPost, "/api/show", map[string]string{}).wantError(t, http.StatusBadRequest, "model is required")
}

func checkStreamedChat(t *testing.T, w wireTarget) {
	// Two tokens: fewer than either server's reply (the stand-in echoes three
	// pieces), so both stop at num_predict.
	a := w.call(t, http.MethodPost, "/api/chat", chatBody(2, nil))
	if a.status != http.StatusOK || a.ctype != "application/x-ndjson" {
		t.Fatalf("chat answer %d %s %q", a.status, a.ctype, a.body)
	}
	lines := a.lines()
	var content int
	for i, l := range lines {
		var r api.ChatResponse
		if err := json.Unmarshal(l, &r); err != nil || r.Model != "tiny" || r.CreatedAt.IsZero() || r.Message.Role != "assistant" || r.Done != (i == len(lines)-1) {
			t.Errorf("line %d: %s (%v)", i, l, err)
		}
		if !r.Done && r.Message.Content != "" {
			content++
		}
	}
	var last api.ChatResponse
	_ = json.Unmarshal(lines[len(lines)-1], &last)
	if content == 0 || last.DoneReason != "length" || last.EvalCount != 2 || last.PromptEvalCount <= 0 || last.Message.Content != "" ||
		last.TotalDuration <= 0 || last.EvalDuration <= 0 || last.PromptEvalDuration <= 0 {
		t.Errorf("%d content lines; done line %s", content, lines[len(lines)-1])
	}

	var deltas []string
	reply, err := w.client.Chat(testCtx(t), ChatRequest{Models: []string{"tiny"}, Messages: userMsg("say hello"),
		Options: map[string]any{"num_predict": 2, "temperature": 0}}, func(d Delta) error { deltas = append(deltas, d.Content); return nil })
	if err != nil || len(deltas) == 0 || strings.Join(deltas, "") != reply.Content || reply.DoneReason != "length" ||
		reply.CompletionTokens != 2 || reply.PromptTokens <= 0 || reply.EvalDuration <= 0 {
		t.Errorf("Hermes: reply %+v, deltas %q, %v", reply, deltas, err)
	}
}

func checkUnstreamedChat(t *testing.T, w wireTarget) {
	a := w.call(t, http.MethodPost, "/api/chat", chatBody(2, map[string]any{"stream": false}))
	var r api.ChatResponse
	a.decode(t, &r)
	if a.status != http.StatusOK || !strings.HasPrefix(a.ctype, "application/json") || len(a.lines()) != 1 ||
		!r.Done || r.DoneReason != "length" || r.EvalCount != 2 || r.Message.Content == "" || r.Message.Role != "assistant" {
		t.Errorf("answer %d %s %q", a.status, a.ctype, a.body)
	}
}

func checkNoTools(t *testing.T, w wireTarget) {
	tools := []map[string]any{{"type": "function", "function": map[string]any{"name": "clock", "description": "the time",
		"parameters": map[string]any{"type": "object", "properties": map[string]any{}}}}}
	a := w.call(t, http.MethodPost, "/api/chat", chatBody(2, map[string]any{"tools": tools}))
	var e struct{ Error string }
	a.decode(t, &e)
	if a.status != http.StatusBadRequest || !strings.HasSuffix(e.Error, " does not support tools") {
		t.Errorf("answer %d %q", a.status, a.body)
	}
	reply, err := w.client.Chat(testCtx(t), ChatRequest{Models: []string{"tiny"}, Messages: userMsg("what time is it?"),
		Tools:   api.Tools{{Type: "function", Function: api.ToolFunction{Name: "clock", Description: "the time"}}},
		Options: map[string]any{"num_predict": 2}}, func(Delta) error { return nil })
	if err != nil || reply.CompletionTokens != 2 {
		t.Errorf("Hermes: chat offering tools to a model without them: %+v, %v", reply, err)
	}
}

func checkNoThinking(t *testing.T, w wireTarget) {
	w.call(t, http.MethodPost, "/api/chat", chatBody(2, map[string]any{"think": true})).
		wantError(t, http.StatusBadRequest, `"tiny" does not support thinking`)
	a := w.call(t, http.MethodPost, "/api/chat", chatBody(2, map[string]any{"think": false, "stream": false}))
	var r api.ChatResponse
	a.decode(t, &r)
	if a.status != http.StatusOK || !r.Done || r.Message.Thinking != "" {
		t.Errorf("think false: %d %q", a.status, a.body)
	}
}

func checkEmbed(t *testing.T, w wireTarget) {
	a := w.call(t, http.MethodPost, "/api/embed", map[string]any{"model": "tiny", "input": []string{"hello world", "the sea"}})
	var r api.EmbedResponse
	a.decode(t, &r)
	if a.status != http.StatusOK || r.Model != "tiny" || len(r.Embeddings) != 2 || len(r.Embeddings[0]) == 0 ||
		len(r.Embeddings[0]) != len(r.Embeddings[1]) || r.PromptEvalCount <= 0 {
		t.Fatalf("embed answer %d %.300s", a.status, a.body)
	}
	for i, v := range r.Embeddings {
		if n := norm(v); math.Abs(n-1) > 1e-3 {
			t.Errorf("embedding %d has norm %v", i, n)
		}
	}
	if slices.Equal(r.Embeddings[0], r.Embeddings[1]) {
		t.Error("two texts, one embedding")
	}
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func checkPS(t *testing.T, w wireTarget) {
	if a := w.call(t, http.MethodPost, "/api/chat", chatBody(1, map[string]any{"stream": false})); a.status != http.StatusOK {
		t.Fatalf("chat: %d %q", a.status, a.body)
	}
	var ps api.ProcessResponse
	w.call(t, http.MethodGet, "/api/ps", nil).decode(t, &ps)
	i := slices.IndexFunc(ps.Models, func(m api.ProcessModelResponse) bool { return m.Name == "tiny:latest" })
	if i < 0 {
		t.Fatalf("ps = %+v", ps)
	}
	m := ps.Models[i]
	if m.Model != m.Name || m.Size <= 0 || !isDigest(m.Digest) || !m.ExpiresAt.After(time.Now()) || m.ContextLength <= 0 {
		t.Errorf("ps lists %+v", m)
	}
	checkDetails(t, m.Details)
	list, err := w.client.ModelDetails(testCtx(t))
	if j := slices.IndexFunc(list, func(d ModelDetail) bool { return d.Name == "tiny" }); err != nil || j < 0 || !list[j].Loaded {
		t.Errorf("Hermes: details %+v, %v", list, err)
	}
}

func checkKeepAlive(t *testing.T, w wireTarget) {
	psOf := func() api.ProcessModelResponse {
		var ps api.ProcessResponse
		w.call(t, http.MethodGet, "/api/ps", nil).decode(t, &ps)
		i := slices.IndexFunc(ps.Models, func(m api.ProcessModelResponse) bool { return m.Name == "tiny:latest" })
		if i < 0 {
			t.Fatalf("ps = %+v", ps)
		}
		return ps.Models[i]
	}
	body := chatBody(1, map[string]any{"keep_alive": "2h", "stream": false})
	body["options"].(map[string]any)["num_ctx"] = 128
	if a := w.call(t, http.MethodPost, "/api/chat", body); a.status != http.StatusOK {
		t.Fatalf("chat with keep_alive 2h: %d %q", a.status, a.body)
	}
	m := psOf()
	if left := time.Until(m.ExpiresAt); left < 110*time.Minute || left > 2*time.Hour {
		t.Errorf("keep_alive 2h: the model expires in %s", left)
	}
	if m.ContextLength != 128 {
		t.Errorf("num_ctx 128: ps says the model runs with %d", m.ContextLength)
	}
	// -1 keeps it loaded for good (Ollama writes a date far ahead).
	if a := w.call(t, http.MethodPost, "/api/chat", chatBody(1, map[string]any{"keep_alive": -1, "stream": false, "options": map[string]any{"num_predict": 1, "num_ctx": 128}})); a.status != http.StatusOK {
		t.Fatalf("chat with keep_alive -1: %d %q", a.status, a.body)
	}
	if left := time.Until(psOf().ExpiresAt); left < 365*24*time.Hour {
		t.Errorf("keep_alive -1: the model expires in %s", left)
	}
}

// checkFullContext: a prompt longer than the context asked for is cut to fit,
// not refused, and its count is the whole context (agent.FullContext reads
// that as "the start was cut").
func checkFullContext(t *testing.T, w wireTarget) {
	long := strings.Repeat("hello world, say hello again. ", 200)
	body := map[string]any{"model": "tiny", "stream": false, "messages": []map[string]string{{"role": "user", "content": long}},
		"options": map[string]any{"num_predict": 1, "temperature": 0, "num_ctx": 128}}
	a := w.call(t, http.MethodPost, "/api/chat", body)
	var r api.ChatResponse
	a.decode(t, &r)
	t.Logf("prompt of %d characters, num_ctx 128: status %d, prompt_eval_count %d", len(long), a.status, r.PromptEvalCount)
	if a.status != http.StatusOK || r.PromptEvalCount != 128 {
		t.Errorf("a prompt over num_ctx: %d, counted %d %q", a.status, r.PromptEvalCount, a.body)
	}
}

func checkFailedPull(t *testing.T, w wireTarget) {
	const name = "hermes-missing"
	a := w.call(t, http.MethodPost, "/api/pull", map[string]string{"model": name})
	lines := a.lines()
	var first api.ProgressResponse
	_ = json.Unmarshal(lines[0], &first)
	if a.status != http.StatusOK || a.ctype != "application/x-ndjson" || first.Status != "pulling manifest" ||
		!strings.HasPrefix(streamError(lines), "pull model manifest: ") {
		t.Errorf("pull answer %d %s %q", a.status, a.ctype, a.body)
	}
	// Hermes words it: the stand-in's library has no such model; the real server's is out of
	// reach (the tests keep it offline).
	err := w.client.Pull(testCtx(t), name, nil)
	if err == nil || !strings.Contains(err.Error(), "pull model manifest: ") || w.listed(t, name+":latest") ||
		!errors.Is(err, ErrNotInLibrary) && !errors.Is(err, ErrLibraryOffline) {
		t.Errorf("Hermes: pull %v", err)
	}
}

func checkCreateNoBlob(t *testing.T, w wireTarget) {
	digest := "sha256:" + strings.Repeat("0", 64)
	a := w.call(t, http.MethodPost, "/api/create", map[string]any{"model": "hermes-noblob", "files": map[string]string{"x.gguf": digest}})
	lines := a.lines()
	var first api.ProgressResponse
	_ = json.Unmarshal(lines[0], &first)
	if a.status != http.StatusOK || first.Status != "parsing GGUF" || !strings.HasSuffix(streamError(lines), ": no such file or directory") ||
		w.listed(t, "hermes-noblob:latest") {
		t.Errorf("create answer %d %q", a.status, a.body)
	}
}

func checkBlobs(t *testing.T, w wireTarget) {
	path := "/api/blobs/sha256:" + strings.Repeat("0", 64)
	if a := w.call(t, http.MethodHead, path, nil); a.status != http.StatusNotFound {
		t.Errorf("HEAD of an unknown blob: %d", a.status)
	}
	a := w.call(t, http.MethodPost, path, json.RawMessage(`"not the digest's bytes"`))
	var e struct{ Error string }
	a.decode(t, &e)
	if a.status != http.StatusBadRequest || !strings.HasPrefix(e.Error, `digest mismatch, expected "sha256:000`) {
		t.Errorf("upload under the wrong digest: %d %q", a.status, a.body)
	}
}

func checkImportParameters(t *testing.T, w wireTarget) {
	mf := "FROM ./tiny.gguf\nPARAMETER stop \"<|end|>\"\nPARAMETER stop User:\nPARAMETER num_ctx 256\nSYSTEM Be terse.\n"
	ctx := testCtx(t)
	if err := w.client.ImportGGUF(ctx, w.gguf, "tiny-stops", mf, nil); err != nil {
		t.Fatal(err)
	}
	defer w.client.Delete(ctx, "tiny-stops")
	var show api.ShowResponse
	w.call(t, http.MethodPost, "/api/show", map[string]string{"model": "tiny-stops"}).decode(t, &show)
	got := strings.Split(show.Parameters, "\n")
	slices.Sort(got) // Ollama writes them in its map's order
	want := []string{
		"num_ctx                        256",
		`stop                           "<|end|>"`,
		`stop                           "User:"`,
	}
	if !slices.Equal(got, want) || show.System != "Be terse." {
		t.Errorf("parameters %q, system %q", show.Parameters, show.System)
	}
	// Listed with the size of what it was made from: the file, and the few bytes of its
	// parameters and system prompt (the model picker shows it: a tiny file is KB, not "0 MB").
	var tags api.ListResponse
	w.call(t, http.MethodGet, "/api/tags", nil).decode(t, &tags)
	file, err := os.Stat(w.gguf)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tags.Models, func(m api.ListModelResponse) bool { return m.Name == "tiny-stops:latest" })
	if i < 0 || tags.Models[i].Size < file.Size() || tags.Models[i].Size > file.Size()+4096 {
		t.Errorf("listed %+v; the file has %d bytes", tags.Models, file.Size())
	}
}

func checkCopyDelete(t *testing.T, w wireTarget) {
	if a := w.call(t, http.MethodPost, "/api/copy", map[string]string{"source": "tiny", "destination": "hermes-copy"}); a.status != http.StatusOK || len(a.body) != 0 {
		t.Fatalf("copy: %d %q", a.status, a.body)
	}
	if !w.listed(t, "hermes-copy:latest") {
		t.Fatal("the copy is not listed")
	}
	if a := w.call(t, http.MethodDelete, "/api/delete", map[string]string{"model": "hermes-copy"}); a.status != http.StatusOK || len(a.body) != 0 {
		t.Errorf("delete: %d %q", a.status, a.body)
	}
	w.call(t, http.MethodPost, "/api/show", map[string]string{"model": "hermes-copy"}).wantError(t, http.StatusNotFound, "model 'hermes-copy' not found")
}
