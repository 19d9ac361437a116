package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"hermes/backend/proc"
	"hermes/backend/tools"
)

// ErrUnknownServer: no server of that name is configured.
var ErrUnknownServer = errors.New("no such MCP server")

// Manager runs the servers configured in mcp.json and keeps their tools in a
// tools.Registry. Create it with New, call Start once and Close at the end.
type Manager struct {
	opts Options
	reg  *tools.Registry
	now  func() time.Time
	last *lastKnown
	// records keeps the running servers in the data dir's mcp-pids, so the
	// next Hermes stops what a killed one left (orphan_linux.go).
	records *proc.Recorder

	reloadMu sync.Mutex // one Reload (or approval change) at a time
	editMu   sync.Mutex // one config file edit at a time

	mu        sync.Mutex
	servers   map[string]*server
	names     []string // config order
	approvals map[string]Approval
	cfgErr    error // the file cannot be used; servers keep their last config
	problems  []Problem
	stamp     stamp
	ctx       context.Context // parent of the supervisors; nil before Start
	cancel    context.CancelFunc
	watchDone chan struct{}
	closed    bool
}

// New returns a manager that registers tools in reg. Options.DataDir (or
// ConfigPath) is required.
func New(reg *tools.Registry, opts Options) (*Manager, error) {
	if reg == nil {
		return nil, errors.New("new MCP manager: no tools registry")
	}
	opts = opts.withDefaults()
	if opts.ConfigPath == "" {
		return nil, errors.New("new MCP manager: no data directory or config path")
	}
	if opts.Approvals == nil {
		opts.Approvals = FileApprovals{Path: filepath.Join(filepath.Dir(opts.ConfigPath), "mcp-approved.json")}
	}
	return &Manager{opts: opts, reg: reg, now: time.Now, last: newLastKnown(opts.ConfigPath), servers: map[string]*server{}, approvals: map[string]Approval{},
		records: newRecords(filepath.Dir(opts.ConfigPath), opts.Logger)}, nil
}

// ConfigPath is the mcp.json the manager reads.
func (m *Manager) ConfigPath() string { return m.opts.ConfigPath }

// Start stops the servers a Hermes that died left running (see
// orphan_linux.go), loads the approvals and the config, starts every approved,
// enabled server and watches the config file. A config with errors is not an
// error of Start: the broken entries (or the whole file) show in List and
// Problems, and a fixed file is picked up by the watcher.
func (m *Manager) Start(ctx context.Context) error {
	approvals, err := m.opts.Approvals.LoadApprovals()
	if err != nil {
		return fmt.Errorf("start MCP servers: %w", err)
	}
	m.mu.Lock()
	if m.ctx != nil || m.closed {
		m.mu.Unlock()
		return errors.New("start MCP servers: already started")
	}
	m.approvals = approvals
	m.ctx, m.cancel = context.WithCancel(ctx)
	m.mu.Unlock()
	m.records.Sweep() // stops what a Hermes that died left running
	if err := m.Reload(ctx); err != nil {
		m.opts.Logger.Warn("mcp: config not loaded", "file", m.opts.ConfigPath, "err", err)
	}
	if m.opts.PollInterval > 0 {
		m.mu.Lock()
		m.watchDone = make(chan struct{})
		go m.watch(m.ctx, m.watchDone)
		m.mu.Unlock()
	}
	return nil
}

// Close stops every server (in parallel, each within Options.StopTimeout) and
// the watcher, and kills what the servers left (double-forked descendants).
func (m *Manager) Close() error {
	m.reloadMu.Lock() // let a reload or approval in progress finish: nothing starts after this
	m.mu.Lock()
	if m.closed || m.ctx == nil {
		m.closed = true
		m.mu.Unlock()
		m.reloadMu.Unlock()
		return nil
	}
	m.closed = true
	m.cancel()
	servers := m.serverList()
	done := m.watchDone
	m.mu.Unlock()
	m.reloadMu.Unlock()
	parallel(servers, func(s *server) { s.stop(StateStopped, "") })
	if done != nil {
		<-done
	}
	killEndedRuns() // kills what the stopped servers left
	return nil
}

func (m *Manager) serverList() []*server {
	out := make([]*server, 0, len(m.servers))
	for _, n := range m.names {
		if s := m.servers[n]; s != nil {
			out = append(out, s)
		}
	}
	return out
}

func parallel(servers []*server, fn func(*server)) {
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(s)
		}()
	}
	wg.Wait()
}

// Reload reads mcp.json again and applies it: new servers start (once
// approved), removed ones stop, changed ones restart. A file that cannot be
// parsed changes nothing and is reported.
func (m *Manager) Reload(ctx context.Context) error {
	m.reloadMu.Lock()
	defer m.reloadMu.Unlock()
	st := stampOf(m.opts.ConfigPath)
	cfg, err := LoadConfig(m.opts.ConfigPath)
	m.mu.Lock()
	if m.ctx == nil || m.closed {
		m.mu.Unlock()
		return errors.New("reload MCP config: the manager is not running")
	}
	m.stamp = st
	if err != nil {
		m.cfgErr = err
		m.mu.Unlock()
		return fmt.Errorf("reload MCP config: %w", err)
	}
	m.cfgErr, m.problems, m.names = nil, cfg.Problems, slices.Clone(cfg.Names)
	var removed, present []*server
	for name, s := range m.servers {
		if _, ok := cfg.raw[name]; !ok {
			removed = append(removed, s)
			delete(m.servers, name)
		}
	}
	for _, name := range cfg.Names {
		s := m.servers[name]
		if s == nil {
			s = newServer(name, m)
			m.servers[name] = s
		}
		sc, valid := cfg.Servers[name]
		var warns []string
		for _, p := range cfg.Warnings(name) {
			warns = append(warns, p.Error())
		}
		entryErr := ""
		if e := cfg.EntryError(name); e != nil {
			entryErr = e.Error()
		}
		s.setEntry(sc, valid, entryErr, warns)
		present = append(present, s)
	}
	m.mu.Unlock()
	parallel(removed, func(s *server) { s.stop(StateStopped, "") })
	parallel(present, m.apply)
	return nil
}

// setEntry records the server's config entry as last read.
func (s *server) setEntry(sc ServerConfig, valid bool, entryErr string, warns []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next = entry{cfg: sc, valid: valid, err: entryErr, warnings: warns}
}

// entry is a server's config entry as last read.
type entry struct {
	cfg      ServerConfig
	valid    bool
	err      string
	warnings []string
}

// apply brings a server in line with its entry and approval.
func (m *Manager) apply(s *server) {
	s.mu.Lock()
	e, prev, prevErr, state := s.next, s.cfg, s.cfgErr, s.state
	s.mu.Unlock()
	approval, approved := m.approvalOf(s.name)
	setCfg := func(err string) {
		s.mu.Lock()
		s.cfg, s.cfgErr, s.cfgWarnings = e.cfg.clone(), err, e.warnings
		s.mu.Unlock()
	}
	switch {
	case !e.valid:
		s.stop(StateInvalid, "")
		setCfg(e.err)
	case e.cfg.Disabled:
		setCfg("")
		s.stop(StateDisabled, "")
	case !approved || approval.CommandHash != CommandHash(e.cfg):
		setCfg("")
		s.stop(StateAwaitingApproval, "")
	case (m.opts.NoAutoStart || len(m.opts.Only) > 0 && !slices.Contains(m.opts.Only, s.name)) && !s.running():
		setCfg("")
		s.stop(StateStopped, "")
	default:
		unchanged := prev.equal(e.cfg) && prevErr == ""
		if unchanged && (s.running() || state == StateCrashed) {
			setCfg("") // warnings may have changed
			break
		}
		if s.running() {
			s.stop(StateStopped, "")
		}
		setCfg("")
		m.mu.Lock()
		ctx, closed := m.ctx, m.closed
		m.mu.Unlock()
		if !closed && ctx != nil {
			s.start(ctx)
		}
	}
	m.notify(s)
}

// notify tells the UI about a server's status.
func (m *Manager) notify(s *server) {
	st := s.status()
	m.last.observe(st, m.now())
	if m.opts.OnStatus != nil {
		m.opts.OnStatus(st)
	}
}

func (m *Manager) approvalOf(name string) (Approval, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.approvals[name]
	return a.clone(), ok
}

// updateApproval changes a server's approval and saves all approvals.
func (m *Manager) updateApproval(name string, fn func(a *Approval, ok bool) (keep bool, err error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.approvals[name]
	a = a.clone()
	keep, err := fn(&a, ok)
	if err != nil {
		return err
	}
	next := make(map[string]Approval, len(m.approvals)+1)
	for k, v := range m.approvals {
		next[k] = v
	}
	if keep {
		next[name] = a
	} else {
		delete(next, name)
	}
	if err := m.opts.Approvals.SaveApprovals(next); err != nil {
		return err
	}
	m.approvals = next
	return nil
}

// recordToolHashes adds definitions seen for the first time to the approval.
func (m *Manager) recordToolHashes(name string, hashes map[string]string) {
	err := m.updateApproval(name, func(a *Approval, ok bool) (bool, error) {
		if !ok {
			return false, nil
		}
		if a.Tools == nil {
			a.Tools = map[string]string{}
		}
		for k, v := range hashes {
			if _, known := a.Tools[k]; !known {
				a.Tools[k] = v
			}
		}
		return true, nil
	})
	if err != nil {
		m.opts.Logger.Warn("mcp: record tool definitions", "server", name, "err", err)
	}
}

func (m *Manager) server(name string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ctx == nil {
		return nil, errors.New("the MCP manager is not started")
	}
	s := m.servers[name]
	if s == nil {
		return nil, fmt.Errorf("%w: %q (configured: %v)", ErrUnknownServer, name, m.names)
	}
	return s, nil
}
