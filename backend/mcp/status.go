package mcp

import (
	"time"

	"hermes/backend/tools"
)

// State is where a server is in its life.
type State string

// States. The UI shows starting, ready, crashed, backing off and disabled; a
// server can also wait for the user's approval, have a broken config entry, or
// be stopped because Hermes is closing.
const (
	StateAwaitingApproval State = "awaiting approval" // added or changed, not approved: never started
	StateInvalid          State = "invalid"           // its entry in mcp.json has errors (see Error)
	StateDisabled         State = "disabled"          // "disabled": true in mcp.json
	StateStarting         State = "starting"
	StateReady            State = "ready"
	StateBackingOff       State = "backing off" // failed; restarts at RetryAt
	StateCrashed          State = "crashed"     // failed too often in a row; waits for Restart
	StateStopped          State = "stopped"
)

// Status is a server as the UI and the CLI show it.
type Status struct {
	Name  string `json:"name"`
	State State  `json:"state"`
	// Error is the last error (a crash, a failed start, a config problem).
	Error string `json:"error,omitempty"`
	// Warnings are problems that did not stop the server (unknown config fields,
	// unset ${VAR}s, tools that could not be registered, dropped messages).
	Warnings []string `json:"warnings,omitempty"`
	// Config is the server's entry in mcp.json as last read (for the edit form).
	Config ServerConfig `json:"config"`
	// Command is the exact command line, shell-quoted, as the user approves it.
	Command string `json:"command"`
	// Transport is "stdio", "http" (Streamable HTTP) or "sse" (legacy HTTP+SSE).
	Transport Transport `json:"transport"`
	// URL is a remote server's address (without any user:password part).
	URL string `json:"url,omitempty"`
	// HeaderNames are the names (never the values) of a remote entry's headers.
	HeaderNames []string `json:"header_names,omitempty"`
	// Internet is set for a remote server outside loopback and the private LAN
	// (its entry sets allow_internet); the approval dialog says so.
	Internet bool `json:"internet,omitempty"`
	Approved bool `json:"approved"`
	Disabled bool `json:"disabled"`
	// ToolsChanged is set when a tool's definition differs from the one the user
	// approved (a "rug pull"); those tools are off until AcceptToolChanges.
	ToolsChanged bool         `json:"tools_changed"`
	PID          int          `json:"pid,omitempty"`
	StartedAt    time.Time    `json:"started_at,omitzero"`
	Restarts     int          `json:"restarts"`
	RetryAt      time.Time    `json:"retry_at,omitzero"`
	ServerName   string       `json:"server_name,omitempty"` // as the server calls itself
	Version      string       `json:"version,omitempty"`
	Protocol     string       `json:"protocol,omitempty"` // the MCP version agreed at initialize
	Instructions string       `json:"instructions,omitempty"`
	Tools        []ToolStatus `json:"tools"`
	Prompts      []PromptInfo `json:"prompts,omitempty"`
	HasResources bool         `json:"has_resources"`
	Resources    int          `json:"resources"` // how many it listed at start (or at its last list_changed)
	// StderrTail is the end of the server's stderr (the full 64 KiB: Manager.Stderr).
	StderrTail string `json:"stderr_tail,omitempty"`
	// LastKnown is how the server did when a Hermes process last ran it, for a
	// server this process has not started.
	LastKnown *LastKnown `json:"last_known,omitempty"`
}

// ToolStatus is one of a server's tools.
type ToolStatus struct {
	Name        string            `json:"name"`   // as the model sees it; "" when not registered
	Remote      string            `json:"remote"` // as the server calls it
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description"`
	Annotations tools.Annotations `json:"annotations"` // Hermes's (what decides approval)
	Hints       Hints             `json:"hints"`       // the server's, untrusted
	Enabled     bool              `json:"enabled"`     // offered to the model
	UserOff     bool              `json:"user_off"`    // switched off by the user
	AutoApprove bool              `json:"auto_approve"`
	Changed     bool              `json:"changed"`           // definition differs from the approved one
	New         bool              `json:"new"`               // appeared after the server was approved
	Skipped     string            `json:"skipped,omitempty"` // why it is not offered at all
	Hash        string            `json:"hash,omitempty"`
	// Builtin marks the tools Hermes adds for a server's resources and prompts.
	Builtin bool `json:"builtin,omitempty"`
}

// PromptInfo is a prompt a server offers, for the UI's message templates.
type PromptInfo struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt template.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// PromptMessage is one message of a fetched prompt.
type PromptMessage struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// PromptResult is a fetched prompt, ready to put in the message box.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}
