package app

import "sync"

// liveContexts are the reports of what the model saw on each chat's last turn
// in this run of the app (the context inspector), by session id. A report
// quotes memories and the chat's settings, so it is dropped when either
// changes, and rebuilt from the recipe stored with the reply when asked.
type liveContexts struct {
	mu sync.Mutex
	m  map[string]ContextReport
	// gen counts memory changes that may remove text a report quotes; a turn
	// keeps its report only if none happened while it ran.
	gen uint64
}

func (l *liveContexts) get(sessionID string) (ContextReport, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.m[sessionID]
	return r, ok
}

// generation is the count of memory changes so far (see keep).
func (l *liveContexts) generation() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// keep holds a turn's report, unless a memory it may quote changed since the
// turn began (gen, from generation): then it is rebuilt when asked.
func (l *liveContexts) keep(sessionID string, r ContextReport, gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gen != gen {
		delete(l.m, sessionID)
		return
	}
	if l.m == nil {
		l.m = map[string]ContextReport{}
	}
	l.m[sessionID] = r
}

// forget drops the sessions' reports (deleted, settings changed, another branch shown).
func (l *liveContexts) forget(sessionIDs ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range sessionIDs {
		delete(l.m, id)
	}
}

// stale drops every report after a memory change that may remove text they quote.
func (l *liveContexts) stale() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.m)
	l.gen++
}
