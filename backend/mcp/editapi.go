package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrExists: a server of that name is already configured.
var ErrExists = errors.New("an MCP server with this name already exists")

// checkEntry validates an entry the way loading mcp.json would.
func checkEntry(name string, cfg ServerConfig) (json.RawMessage, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("a server needs a name")
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	parsed, err := ParseConfig("entry", wrapEntry(name, raw))
	if err != nil {
		return nil, err
	}
	if err := parsed.EntryError(name); err != nil {
		return nil, err
	}
	return raw, nil
}

// AddServer adds an entry to mcp.json and returns its status: it waits for the
// user's approval of Status.Command (Approve) before it starts.
func (m *Manager) AddServer(ctx context.Context, name string, cfg ServerConfig) (Status, error) {
	raw, err := checkEntry(name, cfg)
	if err != nil {
		return Status{}, fmt.Errorf("add server %q: %w", name, err)
	}
	err = m.edit(func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		if _, ok := entries[name]; ok {
			return nil, ErrExists
		}
		entries[name] = raw
		return append(names, name), nil
	})
	if err != nil {
		return Status{}, fmt.Errorf("add server %q: %w", name, err)
	}
	if err := m.Reload(ctx); err != nil {
		return Status{}, fmt.Errorf("add server %q: %w", name, err)
	}
	return m.Server(name)
}

// UpdateServer replaces a server's entry; a changed command line needs a new
// approval, any other change restarts it.
//
// A header value given as [REDACTED] (as Status shows it) keeps the value the
// entry has, so an edit form never needs to see the secret.
func (m *Manager) UpdateServer(ctx context.Context, name string, cfg ServerConfig) (Status, error) {
	err := m.edit(func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		old, ok := entries[name]
		if !ok {
			return nil, ErrUnknownServer
		}
		cfg = keepRedacted(cfg, old)
		raw, err := checkEntry(name, cfg)
		if err != nil {
			return nil, err
		}
		entries[name] = raw
		return names, nil
	})
	if err != nil {
		return Status{}, fmt.Errorf("update server %q: %w", name, err)
	}
	if err := m.Reload(ctx); err != nil {
		return Status{}, fmt.Errorf("update server %q: %w", name, err)
	}
	return m.Server(name)
}

// keepRedacted puts back the header values an edit left as [REDACTED], from
// the entry as written (old).
func keepRedacted(cfg ServerConfig, old json.RawMessage) ServerConfig {
	var prev struct {
		Headers map[string]string `json:"headers"`
	}
	_ = json.Unmarshal(old, &prev) // an unreadable old entry keeps nothing
	cfg = cfg.clone()
	for k, v := range cfg.Headers {
		if v != Redacted {
			continue
		}
		if pv, ok := prev.Headers[k]; ok {
			cfg.Headers[k] = pv
		} else {
			delete(cfg.Headers, k) // nothing to keep: a new header needs a value
		}
	}
	return cfg
}

// RemoveServer deletes a server's entry and its approval, and stops it.
func (m *Manager) RemoveServer(ctx context.Context, name string) error {
	err := m.edit(func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		if _, ok := entries[name]; !ok {
			return nil, ErrUnknownServer
		}
		delete(entries, name)
		return slices.DeleteFunc(names, func(n string) bool { return n == name }), nil
	})
	if err != nil {
		return fmt.Errorf("remove server %q: %w", name, err)
	}
	if err := m.updateApproval(name, func(*Approval, bool) (bool, error) { return false, nil }); err != nil {
		return fmt.Errorf("remove server %q: %w", name, err)
	}
	if err := m.Reload(ctx); err != nil {
		return fmt.Errorf("remove server %q: %w", name, err)
	}
	return nil
}

// SetServerDisabled sets "disabled" in a server's entry (keeping the rest of
// the entry as written) and applies it.
func (m *Manager) SetServerDisabled(ctx context.Context, name string, disabled bool) error {
	err := m.edit(func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		raw, ok := entries[name]
		if !ok {
			return nil, ErrUnknownServer
		}
		var v any
		if disabled {
			v = true
		}
		next, err := setEntryField(raw, "disabled", v)
		if err != nil {
			return nil, err
		}
		entries[name] = next
		return names, nil
	})
	if err != nil {
		return fmt.Errorf("disable server %q: %w", name, err)
	}
	if err := m.Reload(ctx); err != nil {
		return fmt.Errorf("disable server %q: %w", name, err)
	}
	return nil
}

func (m *Manager) edit(fn func(names []string, entries map[string]json.RawMessage) ([]string, error)) error {
	m.editMu.Lock()
	defer m.editMu.Unlock()
	return editConfig(m.opts.ConfigPath, fn)
}
