package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// List is the status of every configured server, in config order.
func (m *Manager) List() []Status {
	m.mu.Lock()
	servers := m.serverList()
	m.mu.Unlock()
	out := make([]Status, 0, len(servers))
	for _, s := range servers {
		st := s.status()
		if st.State == StateStopped || st.State == StateAwaitingApproval {
			if lk, ok := m.last.get(st.Name); ok {
				st.LastKnown = &lk
			}
		}
		out = append(out, st)
	}
	return out
}

// Server is the status of one server.
func (m *Manager) Server(name string) (Status, error) {
	s, err := m.server(name)
	if err != nil {
		return Status{}, fmt.Errorf("server status: %w", err)
	}
	return s.status(), nil
}

// Problems are the errors and warnings of mcp.json; the error is set when the
// whole file cannot be used (the servers then keep their last good config).
func (m *Manager) Problems() ([]Problem, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.problems), m.cfgErr
}

// Stderr is what the server wrote to stderr lately (the last 64 KiB), across
// restarts.
func (m *Manager) Stderr(name string) (string, error) {
	s, err := m.server(name)
	if err != nil {
		return "", fmt.Errorf("server stderr: %w", err)
	}
	return StripInvisible(string(s.stderr.Bytes())), nil
}

// Approve records that the user approved the server's command line (as
// Status.Command shows it) and starts the server. A changed command, argument,
// env or cwd needs a new approval.
func (m *Manager) Approve(ctx context.Context, name string) error {
	m.reloadMu.Lock()
	defer m.reloadMu.Unlock()
	s, err := m.server(name)
	if err != nil {
		return fmt.Errorf("approve server: %w", err)
	}
	s.mu.Lock()
	e := s.next
	s.mu.Unlock()
	if !e.valid {
		return fmt.Errorf("approve server %q: its entry in mcp.json has errors; fix them first: %s", name, e.err)
	}
	err = m.updateApproval(name, func(a *Approval, ok bool) (bool, error) {
		h := CommandHash(e.cfg)
		if !ok || a.CommandHash != h {
			a.Tools = nil // another program: its tools are seen afresh
		}
		a.CommandHash, a.Command, a.ApprovedAt = h, CommandLine(e.cfg), m.now().UTC()
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("approve server %q: %w", name, err)
	}
	m.apply(s)
	return nil
}

// Restart stops and starts a server, resetting its breaker (the user's "try
// again" for a crashed server).
// The server runs under the manager's context, not the caller's.
func (m *Manager) Restart(_ context.Context, name string) error {
	m.reloadMu.Lock()
	defer m.reloadMu.Unlock()
	s, err := m.server(name)
	if err != nil {
		return fmt.Errorf("restart server: %w", err)
	}
	st := s.status()
	switch st.State {
	case StateInvalid, StateDisabled, StateAwaitingApproval:
		return fmt.Errorf("restart server %q: it is %s", name, st.State)
	}
	if s.running() {
		s.stop(StateStopped, "")
	}
	m.mu.Lock()
	ctx, closed := m.ctx, m.closed
	m.mu.Unlock()
	if closed {
		return fmt.Errorf("restart server %q: the manager is closed", name)
	}
	s.start(ctx)
	return nil
}

// WaitReady waits until the server is ready and returns its status; it fails
// at once when the server cannot become ready without the user (awaiting
// approval, invalid, disabled, crashed) and when a start failed (backing off).
func (m *Manager) WaitReady(ctx context.Context, name string) (Status, error) {
	s, err := m.server(name)
	if err != nil {
		return Status{}, fmt.Errorf("wait for server: %w", err)
	}
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		st := s.status()
		switch st.State {
		case StateReady:
			return st, nil
		case StateAwaitingApproval, StateInvalid, StateDisabled, StateCrashed, StateBackingOff:
			msg := fmt.Sprintf("wait for server %q: it is %s", name, st.State)
			if st.Error != "" {
				msg += ": " + st.Error
			}
			return st, errors.New(msg)
		case StateStopped:
			if !s.running() {
				return st, fmt.Errorf("wait for server %q: it is stopped", name)
			}
		}
		select {
		case <-ctx.Done():
			return st, fmt.Errorf("wait for server %q: %w", name, ctx.Err())
		case <-t.C:
		}
	}
}

// ToolName is the registered name (for the tools engine and the model) of a
// server's tool, given by the server's name for it or the registered name.
func (m *Manager) ToolName(serverName, tool string) (string, error) {
	s, err := m.server(serverName)
	if err != nil {
		return "", fmt.Errorf("find tool: %w", err)
	}
	st := s.status()
	var names []string
	for _, t := range st.Tools {
		if (t.Remote == tool && !t.Builtin) || t.Name == tool || (t.Builtin && t.Remote == tool) {
			if t.Name == "" || !t.Enabled {
				reason := t.Skipped
				switch {
				case t.Changed:
					reason = "its definition changed since approval; accept the change first"
				case t.UserOff:
					reason = "it is switched off"
				case reason == "":
					reason = fmt.Sprintf("the server is %s", st.State)
				}
				return "", fmt.Errorf("find tool %s of %s: it is not offered: %s", tool, serverName, reason)
			}
			return t.Name, nil
		}
		names = append(names, t.Remote)
	}
	return "", fmt.Errorf("find tool %s of %s: %w (it has: %s)", tool, serverName, errNoRemote, strings.Join(names, ", "))
}

// SetToolEnabled switches one of a server's tools on or off for the model (by
// the server's name for it or the registered name); the choice is kept with
// the approval.
func (m *Manager) SetToolEnabled(serverName, tool string, on bool) error {
	s, err := m.server(serverName)
	if err != nil {
		return fmt.Errorf("switch tool: %w", err)
	}
	var key string
	changed := false
	for _, t := range s.status().Tools {
		if t.Name == tool || t.Remote == tool {
			key, changed = t.Remote, t.Changed
			if t.Builtin {
				key = builtinKey(t.Remote)
			}
			break
		}
	}
	if key == "" {
		return fmt.Errorf("switch tool %s of %s: %w", tool, serverName, errNoRemote)
	}
	if on && changed {
		return fmt.Errorf("switch tool %s of %s on: its definition changed since approval; review it and accept the change first", tool, serverName)
	}
	err = m.updateApproval(serverName, func(a *Approval, ok bool) (bool, error) {
		if !ok {
			return false, fmt.Errorf("the server is not approved")
		}
		a.DisabledTools = slices.DeleteFunc(a.DisabledTools, func(k string) bool { return k == key })
		if !on {
			a.DisabledTools = append(a.DisabledTools, key)
			slices.Sort(a.DisabledTools)
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("switch tool %s of %s: %w", tool, serverName, err)
	}
	s.reapply()
	return nil
}

// ErrNothingToAccept: the named tool has no change waiting for the user.
var ErrNothingToAccept = errors.New("nothing to accept")

// AcceptToolChanges accepts the current definitions of a server's changed tools
// (after the user reviewed them) and switches them back on; only, when given,
// limits it to those tools (the server's names).
func (m *Manager) AcceptToolChanges(serverName string, only ...string) error {
	s, err := m.server(serverName)
	if err != nil {
		return fmt.Errorf("accept tool changes: %w", err)
	}
	hashes := map[string]string{}
	for _, t := range s.status().Tools {
		if t.Changed && t.Hash != "" && (len(only) == 0 || slices.Contains(only, t.Remote)) {
			hashes[t.Remote] = t.Hash
		}
	}
	if len(only) > 0 && len(hashes) < len(only) {
		return fmt.Errorf("accept tool changes of %s: %w: %s has no changed tool named %s", serverName, ErrNothingToAccept, serverName, strings.Join(only, ", "))
	}
	err = m.updateApproval(serverName, func(a *Approval, ok bool) (bool, error) {
		if !ok {
			return false, fmt.Errorf("the server is not approved")
		}
		if a.Tools == nil {
			a.Tools = map[string]string{}
		}
		for k, v := range hashes {
			a.Tools[k] = v
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("accept tool changes of %s: %w", serverName, err)
	}
	s.reapply()
	return nil
}

// reapply offers the last tool list again (after a toggle or an acceptance).
func (s *server) reapply() {
	s.mu.Lock()
	list, ready := s.lastList, s.state == StateReady
	s.mu.Unlock()
	if ready {
		s.applyTools(list)
	}
}

// Prompts lists the prompts of every ready server, for the UI's templates.
func (m *Manager) Prompts() []PromptInfo {
	var out []PromptInfo
	for _, st := range m.List() {
		if st.State == StateReady {
			out = append(out, st.Prompts...)
		}
	}
	return out
}

// GetPrompt fetches a prompt of a server filled in with args.
func (m *Manager) GetPrompt(ctx context.Context, serverName, name string, args map[string]string) (PromptResult, error) {
	s, err := m.server(serverName)
	if err != nil {
		return PromptResult{}, fmt.Errorf("get prompt: %w", err)
	}
	return s.getPrompt(ctx, name, args)
}

// CallTool calls a server's tool directly, outside the tools engine (no
// validation, approval or audit): for diagnostics. The CLI's "mcp call" should
// run ToolName's tool through a tools.Executor turn instead.
func (m *Manager) CallTool(ctx context.Context, serverName, tool string, args json.RawMessage) (string, error) {
	s, err := m.server(serverName)
	if err != nil {
		return "", fmt.Errorf("call tool: %w", err)
	}
	return s.callTool(ctx, tool, args)
}

// Import merges the servers of a Claude Desktop config (path; "" for the
// default location) into mcp.json and reloads it. Imported servers wait for
// approval.
func (m *Manager) Import(ctx context.Context, path string) (ImportResult, error) {
	if path == "" {
		p, err := DefaultClaudeConfigPath()
		if err != nil {
			return ImportResult{}, err
		}
		path = p
	}
	m.editMu.Lock()
	res, err := ImportClaudeConfig(path, m.opts.ConfigPath)
	m.editMu.Unlock()
	if err != nil {
		return res, err
	}
	return res, m.Reload(ctx)
}
