package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// events streams every emitted event as server-sent events: data {"name","data"}.
func (w *Web) events(rw http.ResponseWriter, r *http.Request) {
	flusher, ok := rw.(http.Flusher)
	if !ok {
		http.Error(rw, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// Subscribe before the page hears "connected": no event falls in between.
	ch := w.hub.subscribe()
	defer w.hub.unsubscribe(ch)
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	fmt.Fprint(rw, ": connected\n\n")
	flusher.Flush()
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ping.C:
			fmt.Fprint(rw, ": ping\n\n")
		case msg, ok := <-ch:
			if !ok {
				return // too slow: the client reconnects
			}
			fmt.Fprintf(rw, "data: %s\n\n", msg)
		}
		flusher.Flush()
	}
}

// hub fans events out to the connected event streams.
type hub struct {
	mu   sync.Mutex
	subs map[chan []byte]bool
}

func newHub() *hub { return &hub{subs: map[chan []byte]bool{}} }

func (h *hub) subscribe() chan []byte {
	ch := make(chan []byte, 4096)
	h.mu.Lock()
	h.subs[ch] = true
	h.mu.Unlock()
	return ch
}

func (h *hub) unsubscribe(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[ch] {
		delete(h.subs, ch)
		close(ch)
	}
}

func (h *hub) broadcast(name string, data any) {
	msg, err := json.Marshal(map[string]any{"name": name, "data": data})
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- msg:
		default: // a stuck client is dropped rather than blocking the chat
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// The one-time approval codes of web mode.
const (
	codeTTL = 5 * time.Minute
	// codeTries is how many wrong tries one code takes before it is used up.
	codeTries = 3
	// codeLockAfter wrong codes in one run lock approvals from the browser until
	// `hermes serve` restarts: a script cannot guess its way through.
	codeLockAfter = 20
	// codeIssueLimit new codes per codeTTL keep a script from flooding the terminal.
	codeIssueLimit = 30
)

// mcpWrites are the calls that change or approve an MCP entry (see Web.mcpMu).
var mcpWrites = map[string]bool{"MCPAddServer": true, "MCPApprove": true, "MCPRemove": true, "MCPSetDisabled": true}
