package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LastKnown is how a server was when a Hermes process last saw it run, so a
// command that does not start servers (`hermes mcp list`) can still say how
// each one did.
type LastKnown struct {
	State State     `json:"state"`
	Tools int       `json:"tools"`
	Error string    `json:"error,omitempty"`
	At    time.Time `json:"at"`
}

// lastKnown keeps LastKnown per server in mcp-last.json beside mcp.json.
type lastKnown struct {
	path string
	mu   sync.Mutex
	byID map[string]LastKnown
}

func newLastKnown(configPath string) *lastKnown {
	l := &lastKnown{path: filepath.Join(filepath.Dir(configPath), "mcp-last.json"), byID: map[string]LastKnown{}}
	if b, err := os.ReadFile(l.path); err == nil {
		_ = json.Unmarshal(b, &l.byID) // a damaged file only loses the hints
	}
	return l
}

// observe records a state seen while the server ran; a change is written.
func (l *lastKnown) observe(st Status, now time.Time) {
	switch st.State {
	case StateReady, StateCrashed, StateBackingOff:
	default:
		return // not a state of a run
	}
	tools := 0
	for _, t := range st.Tools {
		if t.Enabled {
			tools++
		}
	}
	rec := LastKnown{State: st.State, Tools: tools, Error: st.Error, At: now.UTC()}
	l.mu.Lock()
	defer l.mu.Unlock()
	if old, ok := l.byID[st.Name]; ok && old.State == rec.State && old.Tools == rec.Tools && old.Error == rec.Error {
		return
	}
	l.byID[st.Name] = rec
	if b, err := json.MarshalIndent(l.byID, "", "  "); err == nil {
		_ = writeFileAtomic(l.path, append(b, '\n'), 0o600)
	}
}

func (l *lastKnown) get(name string) (LastKnown, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.byID[name]
	return r, ok
}
