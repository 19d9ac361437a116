package llmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// PullScript is how /api/pull answers (the key "*" of Server.Pullable answers
// for any name) for one model, in Ollama's wire format:
// "pulling manifest", then Layers progress lines per layer of Size bytes each,
// "verifying sha256 digest", "writing manifest", "success".
type PullScript struct {
	Model  Model         // what is installed once the pull succeeds
	Size   int64         // bytes of the one layer
	Steps  int           // progress lines for the layer
	Delay  time.Duration // before each progress line
	FailAt int           // >0: after this many progress lines, an {"error"} line, and nothing is installed
}

func (s *Server) ps(w http.ResponseWriter) {
	var resp api.ProcessResponse
	for _, name := range s.loaded() {
		m, ok := s.model(name)
		if !ok {
			m = Model{Name: name, ContextLength: 4096}
		}
		// As Ollama lists a loaded model: its size in memory, its details, when it
		// unloads (keep_alive, 5 minutes by default) and the context it runs with.
		run := s.runningAs(m)
		resp.Models = append(resp.Models, api.ProcessModelResponse{Name: name + ":latest", Model: name + ":latest",
			Size: 1 << 20, Digest: fmt.Sprintf("%064x", len(name)), Details: details(m),
			ExpiresAt: run.expires.UTC(), ContextLength: run.ctx})
	}
	writeJSON(w, http.StatusOK, resp)
}

// runningAs is how a loaded model runs: as its last chat asked, else with
// Ollama's defaults (5 minutes, its own context length).
func (s *Server) runningAs(m Model) running {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.running[m.Name]; ok {
		return r
	}
	return running{expires: time.Now().Add(5 * time.Minute), ctx: m.ContextLength}
}

// loaded is a copy of Loaded.
func (s *Server) loaded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.Loaded...)
}

// ndjson starts a streamed NDJSON answer; send writes one line.
func ndjson(w http.ResponseWriter) func(v any) bool {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	return func(v any) bool {
		if err := enc.Encode(v); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
}

func (s *Server) pull(w http.ResponseWriter, r *http.Request) {
	var req api.PullRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	name := strings.TrimSuffix(req.Model, ":latest")
	s.mu.Lock()
	script, ok := s.Pullable[name]
	if !ok { // "*" pulls any name, as a chat model with tools
		if script, ok = s.Pullable["*"]; ok {
			script.Model = Model{Name: name, ContextLength: 8192, Capabilities: []string{"completion", "tools"}}
		}
	}
	s.mu.Unlock()
	send := ndjson(w)
	send(api.ProgressResponse{Status: "pulling manifest"})
	if !ok { // as Ollama says when the registry has no such model: in the stream, after a 200
		send(map[string]string{"error": "pull model manifest: file does not exist"})
		return
	}
	digest := fmt.Sprintf("sha256:%064x", len(name))
	steps := max(script.Steps, 1)
	for i := 1; i <= steps; i++ {
		select {
		case <-time.After(script.Delay):
		case <-r.Context().Done():
			return // cancelled: nothing installed
		}
		if s.DiskFull && i > steps/2 { // Ollama's words when its disk fills mid-pull
			send(map[string]string{"error": "write /root/.ollama/models/blobs/sha256-" + digest[7:] + "-partial: no space left on device"})
			return
		}
		if script.FailAt > 0 && i > script.FailAt {
			send(map[string]string{"error": "max retries exceeded: connection reset by peer"})
			return
		}
		send(api.ProgressResponse{Status: "pulling " + digest[7:19], Digest: digest, Total: script.Size, Completed: script.Size * int64(i) / int64(steps)})
	}
	send(api.ProgressResponse{Status: "verifying sha256 digest"})
	send(api.ProgressResponse{Status: "writing manifest"})
	s.install(script.Model)
	send(api.ProgressResponse{Status: "success"})
}

func (s *Server) install(m Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, have := range s.Models {
		if have.Name == m.Name {
			s.Models[i] = m
			return
		}
	}
	s.Models = append(s.Models, m)
}

// blob answers HEAD (is the blob there?) and POST (upload, checked against the
// digest in the path, as Ollama does).
func (s *Server) blob(w http.ResponseWriter, r *http.Request) {
	digest := strings.TrimPrefix(r.URL.Path, "/api/blobs/")
	switch r.Method {
	case http.MethodHead:
		if !s.hasBlob(digest) {
			w.WriteHeader(http.StatusNotFound)
		}
	case http.MethodPost:
		s.mu.Lock()
		s.uploads++
		s.mu.Unlock()
		var sink io.Writer = io.Discard
		h := sha256.New()
		if !s.Discard {
			sink = h
		}
		n, err := io.CopyBuffer(struct{ io.Writer }{sink}, r.Body, make([]byte, 1<<20)) // big reads, as a server writing a file makes
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		if s.DiskFull {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "write /root/.ollama/models/blobs/" + strings.ReplaceAll(digest, ":", "-") + "-partial: no space left on device"})
			return
		}
		if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != digest && !s.Discard {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("digest mismatch, expected %q, got %q", digest, got)})
			return
		}
		s.mu.Lock()
		if s.blobs == nil {
			s.blobs = map[string]int64{}
		}
		s.blobs[digest] = n
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// hasBlob reports whether a blob was uploaded or its file is in the Store's
// blobs folder.
func (s *Server) hasBlob(digest string) bool {
	s.mu.Lock()
	_, ok := s.blobs[digest]
	s.mu.Unlock()
	if ok || s.storedPath(digest) == "" {
		return ok
	}
	info, err := os.Stat(s.storedPath(digest))
	return err == nil && info.Mode().IsRegular()
}

// storedPath is where Ollama keeps a blob's file in the Store ("" without a
// Store, or for a digest that is not one).
func (s *Server) storedPath(digest string) string {
	hexPart, ok := strings.CutPrefix(digest, "sha256:")
	if s.Store == "" || !ok || strings.ContainsAny(hexPart, "/\\.") {
		return ""
	}
	return filepath.Join(s.Store, "blobs", "sha256-"+hexPart)
}

// checkStored hashes a blob's file in the Store (unless Discard), so that a
// test sees a blob whose bytes are not its digest's (Ollama itself trusts the
// name at create).
func (s *Server) checkStored(digest string) error {
	if s.Discard || s.storedPath(digest) == "" {
		return nil
	}
	f, err := os.Open(s.storedPath(digest))
	if err != nil {
		return nil // uploaded, checked then
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != digest {
		return fmt.Errorf("blob %s holds %s", digest, got)
	}
	return nil
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req api.CreateRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	if len(req.Files) == 0 && req.From == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "neither 'from' or 'files' was specified"})
		return
	}
	for _, d := range req.Files {
		if err := s.checkStored(d); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
	}
	send := ndjson(w)
	send(api.ProgressResponse{Status: "parsing GGUF"})
	for _, d := range req.Files {
		if !s.hasBlob(d) { // Ollama opens the blob's file: in the stream, after a 200
			send(map[string]string{"error": "open " + s.blobPath(d) + ": no such file or directory"})
			return
		}
	}
	for _, st := range []string{"using existing layer", "writing manifest", "success"} {
		send(api.ProgressResponse{Status: st})
	}
	m := created(req)
	for _, d := range req.Files {
		m.Size += s.blobSize(d)
	}
	s.install(m)
}

// blobSize is the bytes of a blob the fake holds (uploaded, or in the Store).
func (s *Server) blobSize(digest string) int64 {
	s.mu.Lock()
	n, ok := s.blobs[digest]
	s.mu.Unlock()
	if ok {
		return n
	}
	if info, err := os.Stat(s.storedPath(digest)); err == nil {
		return info.Size()
	}
	return 0
}

// created is the model a create request makes: a chat model with what the
// request set.
func created(req api.CreateRequest) Model {
	m := Model{Name: strings.TrimSuffix(req.Model, ":latest"), ContextLength: 4096, Capabilities: []string{"completion"},
		Parameters: req.Parameters, Template: req.Template, System: req.System}
	switch l := req.License.(type) {
	case string:
		m.License = []string{l}
	case []any:
		for _, x := range l {
			if str, ok := x.(string); ok {
				m.License = append(m.License, str)
			}
		}
	}
	return m
}

// blobPath is where Ollama would keep a blob's file: in the Store, else in a
// models folder of the fake's own.
func (s *Server) blobPath(digest string) string {
	if p := s.storedPath(digest); p != "" {
		return p
	}
	return "/models/blobs/" + strings.ReplaceAll(digest, ":", "-")
}

func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	var req api.DeleteRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	name := strings.TrimSuffix(req.Model, ":latest")
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.Models {
		if m.Name == name {
			s.Models = append(s.Models[:i], s.Models[i+1:]...)
			w.WriteHeader(http.StatusOK)
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
}

func (s *Server) copy(w http.ResponseWriter, r *http.Request) {
	var req api.CopyRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	src, ok := s.model(req.Source)
	if !ok { // Ollama's words for a copy of a model it does not have
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model %q not found", req.Source)})
		return
	}
	src.Name = strings.TrimSuffix(req.Destination, ":latest")
	s.install(src)
	w.WriteHeader(http.StatusOK)
}
