package app

import (
	"context"
	"encoding/json"
	"time"

	"hermes/backend/llm"
	"hermes/backend/mcp"
	"hermes/backend/tools"
)

// MCP types as the command line and the window show them (plain data with JSON tags).
type (
	// MCPStatus is a configured server: its state, last-known state and tools.
	MCPStatus = mcp.Status
	// MCPProblem is a mistake in mcp.json, with its line and field.
	MCPProblem = mcp.Problem
	// MCPImportResult says what importing a Claude Desktop config did.
	MCPImportResult = mcp.ImportResult
)

// MCPStdio is the transport of a server Hermes launches (others are connected to).
const MCPStdio = mcp.TransportStdio

// MCPList lists the configured servers with their status, as known now (it
// starts nothing); nil when none are configured.
func (c *Core) MCPList() []MCPStatus { return c.mcp.List() }

// MCPServer returns one server's status.
func (c *Core) MCPServer(name string) (MCPStatus, error) { return c.mcp.Server(name) }

// MCPProblems lists the mistakes in mcp.json; err is set when it cannot be read.
func (c *Core) MCPProblems() ([]MCPProblem, error) { return c.mcp.Problems() }

// MCPConfigPath is the path of mcp.json.
func (c *Core) MCPConfigPath() string { return c.mcp.ConfigPath() }

// MCPReload reads mcp.json again.
func (c *Core) MCPReload(ctx context.Context) error { return c.mcp.Reload(ctx) }

// MCPImport merges the servers of a Claude Desktop config ("" for its usual place).
func (c *Core) MCPImport(ctx context.Context, from string) (MCPImportResult, error) {
	return c.mcp.Import(ctx, from)
}

// MCPApproveServer approves a server's command so that it may start.
func (c *Core) MCPApproveServer(ctx context.Context, name string) error {
	return c.mcp.Approve(ctx, name)
}

// MCPWaitReady waits until a server is ready (or failed) and returns its status.
func (c *Core) MCPWaitReady(ctx context.Context, name string) (MCPStatus, error) {
	return c.mcp.WaitReady(ctx, name)
}

// MCPWaitSettled gives the approved servers up to wait to become ready, then
// lists them all, so a listing shows their tools.
func (c *Core) MCPWaitSettled(ctx context.Context, wait time.Duration) []MCPStatus {
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for _, s := range c.mcp.List() {
		if s.Approved && !s.Disabled {
			_, _ = c.mcp.WaitReady(wctx, s.Name) // a server that fails shows its error in the list
		}
	}
	return c.mcp.List()
}

// MCPAcceptTools accepts the changed definitions of a server's tools (all of
// them without names) and switches them back on.
func (c *Core) MCPAcceptTools(server string, names ...string) error {
	return c.mcp.AcceptToolChanges(server, names...)
}

// MCPToolName is the registry name of a server's tool ("server__tool").
func (c *Core) MCPToolName(server, tool string) (string, error) { return c.mcp.ToolName(server, tool) }

// ToolOutcome is what one tool call did: status, content, error and timings.
type ToolOutcome = tools.Outcome

// CallTool runs one tool call the user asked for directly (`hermes mcp call`):
// the request is its own approval, and the call still goes through validation,
// the breaker, the timeout and the audit log.
func (c *Core) CallTool(ctx context.Context, name string, args json.RawMessage) ToolOutcome {
	return c.runTool(ctx, tools.TurnInfo{RequestID: "cli-" + time.Now().UTC().Format("20060102T150405.000"), Approver: tools.AllowAll{}}, "cli", name, args)
}

// runTool runs one tool call outside a chat turn (its own turn named requestID in
// the audit log), through the tools engine: validation, approval, breaker,
// timeout, audit.
func (c *Core) runTool(ctx context.Context, turn tools.TurnInfo, callID, name string, args json.RawMessage) ToolOutcome {
	o, _ := c.tools.exec.NewTurn(turn).Run(ctx, llm.ToolCall{ID: callID, Name: name, Arguments: args})
	return o
}
