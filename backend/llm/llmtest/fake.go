// Package llmtest is a fake Ollama server for tests. It speaks Ollama's real wire
// format (NDJSON chat streams with a final message carrying counts, tool_calls,
// {"error": ...} bodies with real status codes, /api/tags, /api/show, /api/embed,
// /api/version), so the same client code works against a real Ollama.
package llmtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
)

// Model is an installed fake model.
type Model struct {
	Name          string
	ContextLength int
	Capabilities  []string // e.g. "completion", "tools", "embedding"
	// What /api/create set, shown back by /api/show as Ollama shows it:
	// Parameters as decoded from the request (a list stays a list), Template
	// ("" is Ollama's default, {{ .Prompt }}), System and License.
	Parameters map[string]any
	Template   string
	System     string
	License    []string
	// Size is the bytes of the files it was created from, as the real server
	// lists a model it imported; 0: the fake's usual 2 GB steps.
	Size int64
}

// Reply scripts one answer to /api/chat.
type Reply struct {
	Status int      // non-zero: answer with this HTTP status and Error
	Error  string   // error body text
	Chunks []string // content pieces, streamed in order
	// Thinking pieces are streamed as message.thinking before the content, as a
	// thinking model does: only for a model with the "thinking" capability and a
	// request that does not say think false (Ollama's default is to think).
	Thinking     []string
	ToolCalls    []api.ToolCall // sent in one chunk before done
	Delay        time.Duration  // before each chunk
	FirstDelay   time.Duration  // before the first chunk only (a model evaluating its prompt)
	StallAfter   int            // >0: stop sending (but keep the connection) after this many chunks
	MidError     string         // sent as an {"error"} line after the chunks
	CutOff       bool           // end the stream after the chunks with no done line (a server that died)
	PromptTokens int

	length bool // cut at num_predict: done_reason "length"
}

// Server is a scripted fake Ollama.
type Server struct {
	Version string
	Models  []Model
	// Chat decides the reply to each chat request; nil echoes the last user message.
	Chat func(req api.ChatRequest) Reply
	// Forgetful stops the fake from keeping the requests it gets (ChatRequests is then
	// empty): for benchmarks, where that bookkeeping, in the measured process, would
	// be the largest thing on its heap — a real Ollama keeps nothing in Hermes.
	Forgetful bool
	// Pulls scripts /api/pull per model name (Pullable lists what can be
	// pulled); Loaded lists what /api/ps reports; DiskFull makes blob uploads
	// fail as a full disk does, and pulls halfway through (an {"error"} line).
	Pullable map[string]PullScript
	Loaded   []string
	// LoadDelay, when set, is how long a chat with a model that is not in
	// Loaded waits before its first chunk; the model is then loaded (listed in
	// Loaded), as Ollama loads a model for its first request.
	LoadDelay time.Duration
	DiskFull  bool
	// Discard takes blob uploads without hashing them (benchmarks that time
	// the client's side only).
	Discard bool
	// Store is the models folder, as OLLAMA_MODELS is Ollama's: a blob whose
	// file is in its blobs folder (sha256-HEX) is there as an uploaded one is.
	Store string

	mu       sync.Mutex
	blobs    map[string]int64 // digest -> size
	uploads  int
	requests []api.ChatRequest
	running  map[string]running // what the last chat of a model asked for (ps shows it)
	stop     chan struct{}
	stopOnce sync.Once
}

// New returns a fake with one tools-capable model "llama3.2" and an embedder.
func New() *Server {
	return &Server{
		Version: "0.17.4",
		Models: []Model{
			{Name: "llama3.2", ContextLength: 8192, Capabilities: []string{"completion", "tools"}},
			{Name: "nomic-embed-text", ContextLength: 2048, Capabilities: []string{"embedding"}},
		},
		stop: make(chan struct{}),
	}
}

// Start serves the fake on a loopback httptest server; the test closes it.
func (s *Server) Start() *httptest.Server {
	return httptest.NewServer(s)
}

// Uploads is how many blob uploads (POST /api/blobs) the fake has taken.
func (s *Server) Uploads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uploads
}

// Close releases stalled streams.
func (s *Server) Close() { s.stopOnce.Do(func() { close(s.stop) }) }

// ChatRequests returns the chat requests received so far.
func (s *Server) ChatRequests() []api.ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]api.ChatRequest(nil), s.requests...)
}

// Echo is the default reply: "Echo: <last user message>" followed by extra words.
func Echo(extraWords int, delay time.Duration) func(api.ChatRequest) Reply {
	return func(req api.ChatRequest) Reply {
		last := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = m.Content
			}
		}
		chunks := []string{"Echo: "}
		for i, w := range strings.Fields(last) {
			if i > 0 {
				w = " " + w
			}
			chunks = append(chunks, w)
		}
		words := strings.Fields(filler)
		for i := 0; i < extraWords; i++ {
			chunks = append(chunks, " "+words[i%len(words)])
		}
		return Reply{Chunks: chunks, Delay: delay}
	}
}

const filler = "Hermes keeps everything on this computer and answers from a local model while the conversation is stored in one SQLite file that survives restarts."

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		fmt.Fprint(w, "Ollama is running")
	case r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, map[string]string{"version": s.Version})
	case r.URL.Path == "/api/tags":
		s.tags(w)
	case r.URL.Path == "/api/show" && r.Method == http.MethodPost:
		s.show(w, r)
	case r.URL.Path == "/api/embed" && r.Method == http.MethodPost:
		s.embed(w, r)
	case r.URL.Path == "/api/chat" && r.Method == http.MethodPost:
		s.chat(w, r)
	case r.URL.Path == "/api/ps":
		s.ps(w)
	case r.URL.Path == "/api/pull" && r.Method == http.MethodPost:
		s.pull(w, r)
	case strings.HasPrefix(r.URL.Path, "/api/blobs/"):
		s.blob(w, r)
	case r.URL.Path == "/api/create" && r.Method == http.MethodPost:
		s.create(w, r)
	case r.URL.Path == "/api/delete" && r.Method == http.MethodDelete:
		s.delete(w, r)
	case r.URL.Path == "/api/copy" && r.Method == http.MethodPost:
		s.copy(w, r)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "404 page not found"})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) model(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.Models {
		if m.Name == name || m.Name == strings.TrimSuffix(name, ":latest") {
			return m, true
		}
	}
	return Model{}, false
}

func notFound(w http.ResponseWriter, name string) {
	writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
}

// modelRequired is Ollama's answer to a chat or show that names no model.
func modelRequired(w http.ResponseWriter) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": "model is required"})
}

func (s *Server) tags(w http.ResponseWriter) {
	var resp api.ListResponse
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.Models {
		resp.Models = append(resp.Models, api.ListModelResponse{
			Name: m.Name + ":latest", Model: m.Name + ":latest", Size: cmp.Or(m.Size, int64(1+i)*2_000_000_000),
			Digest:     fmt.Sprintf("%064x", i+1),
			ModifiedAt: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
			Details:    details(m),
		})
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	name := req.Model
	if name == "" {
		name = req.Name //lint:ignore SA1019 older clients still send "name", as a real server accepts
	}
	if name == "" {
		modelRequired(w)
		return
	}
	m, ok := s.model(name)
	if !ok {
		notFound(w, name)
		return
	}
	writeJSON(w, http.StatusOK, showResponse(m))
}

// showResponse is /api/show's answer for m, as Ollama gives it: the details
// /api/tags lists, the architecture's context length, the template (Ollama's
// default when the model has none) and what a create set.
func showResponse(m Model) map[string]any {
	d := details(m)
	template := m.Template
	if template == "" {
		template = "{{ .Prompt }}"
	}
	resp := map[string]any{
		"details":      d,
		"model_info":   map[string]any{"general.architecture": d.Family, d.Family + ".context_length": m.ContextLength},
		"capabilities": append([]string{}, m.Capabilities...),
		"template":     template,
		"modified_at":  time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
	}
	if p := showParameters(m.Parameters); p != "" {
		resp["parameters"] = p
	}
	if m.System != "" {
		resp["system"] = m.System
	}
	if len(m.License) > 0 {
		resp["license"] = strings.Join(m.License, "\n")
	}
	return resp
}

// showParameters writes parameters as Ollama's show does: one line a value,
// the name padded to 30 columns, the value as Go prints it (%#v: a string
// quoted), a list one line per item; sorted by name (Ollama's order is its
// map's).
func showParameters(params map[string]any) string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		vals, ok := params[k].([]any)
		if !ok {
			vals = []any{params[k]}
		}
		for _, v := range vals {
			lines = append(lines, fmt.Sprintf("%-*s %#v", 30, k, v))
		}
	}
	return strings.Join(lines, "\n")
}

// embed returns deterministic unit vectors derived from the input's words.
func (s *Server) embed(w http.ResponseWriter, r *http.Request) {
	var req api.EmbedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	if _, ok := s.model(req.Model); !ok {
		// Ollama's words for an embedding model it does not have.
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
		return
	}
	var inputs []string
	switch in := req.Input.(type) {
	case string:
		inputs = []string{in}
	case []any:
		for _, x := range in {
			str, _ := x.(string)
			inputs = append(inputs, str)
		}
	}
	resp := api.EmbedResponse{Model: req.Model}
	for _, in := range inputs {
		resp.Embeddings = append(resp.Embeddings, HashEmbedding(in, 64))
		resp.PromptEvalCount += len(in)/4 + 1
	}
	writeJSON(w, http.StatusOK, resp)
}

// HashEmbedding is a bag-of-words vector: texts sharing words are similar.
func HashEmbedding(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, word := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(word))
		v[h.Sum32()%uint32(dim)]++
	}
	var norm float64
	for _, x := range v {
		norm += float64(x * x)
	}
	if norm > 0 {
		n := float32(math.Sqrt(norm))
		for i := range v {
			v[i] /= n
		}
	}
	return v
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req api.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	s.mu.Lock()
	if !s.Forgetful {
		s.requests = append(s.requests, req)
	}
	s.mu.Unlock()

	started := time.Now()
	script := s.Chat
	if script == nil {
		script = Echo(0, 0)
	}
	reply := script(req)
	if reply.Status != 0 {
		writeJSON(w, reply.Status, map[string]string{"error": reply.Error})
		return
	}
	if req.Model == "" {
		modelRequired(w)
		return
	}
	m, ok := s.model(req.Model)
	if !ok {
		notFound(w, req.Model)
		return
	}
	if refusal := refuseChat(req, m); refusal != "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": refusal})
		return
	}
	reply = limit(reply, req.Options)
	reply.Thinking = thinks(req, m, reply)
	if !s.load(r, m.Name) {
		return
	}
	s.ran(m, req)

	stream := req.Stream == nil || *req.Stream
	if !stream {
		resp := final(req, reply, started)
		resp.Message = api.Message{Role: "assistant", Content: strings.Join(reply.Chunks, ""), Thinking: strings.Join(reply.Thinking, ""), ToolCalls: reply.ToolCalls}
		writeJSON(w, http.StatusOK, resp)
		return
	}

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	send := func(v any) bool {
		if err := enc.Encode(v); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if !s.wait(r, reply.FirstDelay) {
		return
	}
	for _, c := range reply.Thinking {
		if !s.wait(r, reply.Delay) || !send(api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Message: api.Message{Role: "assistant", Thinking: c}}) {
			return
		}
	}
	for i, c := range reply.Chunks {
		if reply.StallAfter > 0 && i == reply.StallAfter {
			select { // hold the connection open without sending anything
			case <-r.Context().Done():
			case <-s.stop:
			}
			return
		}
		if !s.wait(r, reply.Delay) {
			return
		}
		if !send(api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Message: api.Message{Role: "assistant", Content: c}}) {
			return
		}
	}
	if len(reply.ToolCalls) > 0 {
		send(api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Message: api.Message{Role: "assistant", ToolCalls: reply.ToolCalls}})
	}
	if reply.MidError != "" {
		send(map[string]string{"error": reply.MidError})
		return
	}
	if reply.CutOff {
		return
	}
	send(final(req, reply, started))
}

// running is a loaded model as its last chat left it: when it unloads
// (keep_alive from then) and the context it runs with (num_ctx).
type running struct {
	expires time.Time
	ctx     int
}

// ran notes a chat's keep_alive (Ollama's 5 minutes when not sent; negative:
// for good, a date far ahead) and num_ctx (the model's own when not sent).
func (s *Server) ran(m Model, req api.ChatRequest) {
	keep := 5 * time.Minute
	if req.KeepAlive != nil {
		keep = req.KeepAlive.Duration
	}
	expires := time.Now().Add(keep)
	if keep < 0 {
		expires = time.Now().AddDate(290, 0, 0)
	}
	ctx := m.ContextLength
	if n, ok := req.Options["num_ctx"].(float64); ok && n > 0 {
		ctx = int(n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		s.running = map[string]running{}
	}
	s.running[m.Name] = running{expires: expires, ctx: ctx}
}

// load waits LoadDelay for a model that is not loaded, then lists it in
// Loaded; false when the client went away meanwhile.
func (s *Server) load(r *http.Request, name string) bool {
	if s.LoadDelay <= 0 || slices.ContainsFunc(s.loaded(), func(n string) bool { return strings.TrimSuffix(n, ":latest") == name }) {
		return true
	}
	if !s.wait(r, s.LoadDelay) {
		return false
	}
	s.mu.Lock()
	s.Loaded = append(s.Loaded, name)
	s.mu.Unlock()
	return true
}

// wait sleeps d before a chunk; false when the client went away.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

// thinks are the thinking pieces a reply streams: a model that can think
// thinks unless the request says think false (Ollama's default is on).
func thinks(req api.ChatRequest, m Model, reply Reply) []string {
	if !slices.Contains(m.Capabilities, "thinking") || (req.Think != nil && req.Think.IsBool() && !req.Think.Bool()) {
		return nil
	}
	return reply.Thinking
}

// refuseChat is Ollama's refusal of a chat the model cannot do: tools for a
// model whose template has none, thinking for a model that cannot think; ""
// when it can.
func refuseChat(req api.ChatRequest, m Model) string {
	if len(req.Tools) > 0 && len(m.Capabilities) > 0 && !slices.Contains(m.Capabilities, "tools") {
		// Its message names the model with its registry path.
		return "library/" + req.Model + " does not support tools"
	}
	if req.Think != nil && req.Think.Bool() && !slices.Contains(m.Capabilities, "thinking") {
		return fmt.Sprintf("%q does not support thinking", req.Model)
	}
	return ""
}

// limit holds a reply to the request's num_predict, as Ollama stops a reply
// at that many tokens (a chunk is a token here) with done_reason "length".
func limit(reply Reply, options map[string]any) Reply {
	n, ok := options["num_predict"].(float64)
	if !ok || n < 0 || int(n) >= len(reply.Chunks) {
		return reply
	}
	reply.Chunks, reply.ToolCalls, reply.length = reply.Chunks[:int(n)], nil, true
	return reply
}

// final is the done line of a chat: why it ended and Ollama's figures, the
// durations measured from started (the request's arrival).
func final(req api.ChatRequest, reply Reply, started time.Time) api.ChatResponse {
	resp := api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Done: true, DoneReason: "stop",
		Message: api.Message{Role: "assistant"}}
	if reply.length {
		resp.DoneReason = "length"
	}
	resp.PromptEvalCount, resp.EvalCount = promptTokens(req, reply), len(reply.Thinking)+len(reply.Chunks) // reasoning is generated too
	took := max(time.Since(started), time.Microsecond)
	resp.TotalDuration, resp.EvalDuration, resp.PromptEvalDuration = took, took, time.Microsecond
	return resp
}

// promptTokens approximates a tokenizer: about four characters a token.
// promptTokens is what the fake counts of a prompt; like Ollama, it keeps at
// most the context the request asked for (num_ctx), cutting the rest.
func promptTokens(req api.ChatRequest, reply Reply) int {
	n := reply.PromptTokens
	if n <= 0 {
		for _, m := range req.Messages {
			n += len(m.Content)/4 + 4
		}
	}
	if size, ok := req.Options["num_ctx"].(float64); ok && size > 0 && n > int(size) {
		n = int(size)
	}
	return n
}

// Words splits a text into streaming chunks of one word each.
func Words(text string) []string {
	var out []string
	for i, w := range strings.Fields(text) {
		if i > 0 {
			w = " " + w
		}
		out = append(out, w)
	}
	return out
}

// details are what Ollama lists for a model: an embedder looks like one.
func details(m Model) api.ModelDetails {
	for _, c := range m.Capabilities {
		if c == "embedding" {
			return api.ModelDetails{Format: "gguf", Family: "nomic-bert", Families: []string{"nomic-bert"}, ParameterSize: "137M", QuantizationLevel: "F16"}
		}
	}
	return api.ModelDetails{Format: "gguf", Family: "llama", Families: []string{"llama"}, ParameterSize: "3.2B", QuantizationLevel: "Q4_K_M"}
}
