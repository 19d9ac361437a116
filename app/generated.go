package app

import (
	"sync"
	"time"

	"hermes/backend/tools"
)

// generatedTool is a tool made from a definition in a file of the data dir
// (workflow__<name> from workflows.yaml, agent__<name> from agents.yaml, the
// tools of tools.yaml).
type generatedTool struct {
	def  string // the definition it was made from; a change re-registers it
	tool tools.Tool
	opts []tools.Option
}

// generatedTools keeps one family of generated tools in the registry in step
// with their definitions.
type generatedTools struct {
	mu   sync.Mutex
	defs map[string]string // registered tool -> its definition
}

// sync unregisters the tools gone or changed and registers the new ones; it
// returns why each one it could not register was refused (a name taken).
func (g *generatedTools) sync(reg *tools.Registry, want map[string]generatedTool) map[string]error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.defs == nil {
		g.defs = map[string]string{}
	}
	for name, def := range g.defs {
		if w, ok := want[name]; !ok || w.def != def {
			reg.Unregister(name)
			delete(g.defs, name)
		}
	}
	failed := map[string]error{}
	for name, w := range want {
		if _, ok := g.defs[name]; ok {
			continue
		}
		if err := reg.Register(w.tool, w.opts...); err != nil {
			failed[name] = err
			continue
		}
		g.defs[name] = w.def
	}
	return failed
}

// fileWatchEvery is how often tools.yaml, workflows.yaml and agents.yaml are looked at for changes.
const fileWatchEvery = 2 * time.Second

// fileWatch runs a check every so often until closed (a file of the data dir
// looked at for changes).
type fileWatch struct {
	stop, done chan struct{}
	once       sync.Once
}

func startWatch(every time.Duration, check func()) *fileWatch {
	w := &fileWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				check()
			}
		}
	}()
	return w
}

// close stops the watch and waits for a check under way.
func (w *fileWatch) close() {
	w.once.Do(func() {
		close(w.stop)
		<-w.done
	})
}
