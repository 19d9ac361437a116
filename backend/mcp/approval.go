package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"time"

	"hermes/backend/userfile"
)

// Approval is what the user approved of one server.
type Approval struct {
	// CommandHash is CommandHash of the entry approved; a changed command,
	// argument, env or cwd asks again.
	CommandHash string    `json:"command_hash"`
	Command     string    `json:"command"` // the command line as it was shown
	ApprovedAt  time.Time `json:"approved_at"`
	// Tools maps each of the server's tool names to the definition hash the user
	// accepted (the first one seen after approval, or one accepted later). A tool
	// whose definition differs is switched off until the user accepts it.
	Tools map[string]string `json:"tools,omitempty"`
	// DisabledTools are the server's tools the user switched off.
	DisabledTools []string `json:"disabled_tools,omitempty"`
}

func (a Approval) clone() Approval {
	a.Tools = maps.Clone(a.Tools)
	a.DisabledTools = slices.Clone(a.DisabledTools)
	return a
}

// ApprovalStore keeps approvals between runs. FileApprovals keeps them in a JSON
// file; the composition root may pass one backed by the database instead.
type ApprovalStore interface {
	LoadApprovals() (map[string]Approval, error)
	SaveApprovals(map[string]Approval) error
}

// FileApprovals keeps approvals in a JSON file (mcp-approved.json in the data
// directory), written atomically with mode 0600.
type FileApprovals struct {
	Path string
}

type approvalFile struct {
	Version int                 `json:"version"`
	Servers map[string]Approval `json:"servers"`
}

// LoadApprovals reads the file; a missing file holds no approvals.
func (f FileApprovals) LoadApprovals() (map[string]Approval, error) {
	data, err := userfile.Read(f.Path, 0)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Approval{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load MCP approvals: %w", err)
	}
	var af approvalFile
	if err := json.Unmarshal(data, &af); err != nil {
		return nil, fmt.Errorf("load MCP approvals from %s: %w (delete the file to approve the servers again)", f.Path, err)
	}
	if af.Servers == nil {
		af.Servers = map[string]Approval{}
	}
	return af.Servers, nil
}

// SaveApprovals replaces the file.
func (f FileApprovals) SaveApprovals(m map[string]Approval) error {
	data, err := json.MarshalIndent(approvalFile{Version: 1, Servers: m}, "", "  ")
	if err != nil {
		return fmt.Errorf("save MCP approvals: %w", err)
	}
	if err := writeFileAtomic(f.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save MCP approvals: %w", err)
	}
	return nil
}

// MemoryApprovals keeps approvals in memory (tests, or a run that must not write).
type MemoryApprovals struct {
	m map[string]Approval
}

// LoadApprovals returns a copy of what was saved.
func (a *MemoryApprovals) LoadApprovals() (map[string]Approval, error) {
	out := make(map[string]Approval, len(a.m))
	for k, v := range a.m {
		out[k] = v.clone()
	}
	return out, nil
}

// SaveApprovals keeps a copy of m.
func (a *MemoryApprovals) SaveApprovals(m map[string]Approval) error {
	a.m = make(map[string]Approval, len(m))
	for k, v := range m {
		a.m[k] = v.clone()
	}
	return nil
}
