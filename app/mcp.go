package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/mcp"
)

// MCPService is the MCP servers as the window and web mode call them (the MCP
// panel): one bound service of its own beside App.
//
//bindgen:bound
type MCPService struct {
	core *Core
}

// openMCP prepares the MCP supervisor; servers start with StartMCP (the window and
// web mode start all of them, the CLI only the one it needs).
func (c *Core) openMCP(environ func() []string, only []string, noStart bool) error {
	_ = mcp.BecomeSubreaper() // Linux: orphans of MCP servers come back to Hermes, which stops and reaps them
	m, err := mcp.New(c.tools.reg, mcp.Options{
		DataDir: c.dataDir, Environ: environ, Only: only, NoAutoStart: noStart,
		OnStatus: func(s mcp.Status) { send(c.emitEvent, evMCPStatus, s) },
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Net:      c.outbound,
	})
	if err != nil {
		return fmt.Errorf("open mcp: %w", err)
	}
	c.mcp = m
	if !noStart {
		c.StartMCPWhenOffered(firstTurnMCPWait) // every door's first turn with tools has the servers' tools
	}
	return nil
}

// firstTurnMCPWait bounds how long the first turn that offers tools waits for
// the approved MCP servers that are still starting (one that fails is left out
// at once).
const firstTurnMCPWait = 20 * time.Second

// mcpManager is the supervisor of the MCP servers.
func (c *Core) mcpManager() *mcp.Manager { return c.mcp }

// StartMCP loads mcp.json and starts the approved servers (in the background).
func (c *Core) StartMCP(ctx context.Context) error { return c.mcp.Start(ctx) }

// StartMCPWhenOffered starts the approved MCP servers the first time a turn
// would be offered their tools (a turn that offers none never starts them), and
// waits up to wait for them to be ready; Close stops them. Open installs it for
// every door (the window and web mode also start the servers at launch), so no
// door's first turn misses the tools of a server still starting.
func (c *Core) StartMCPWhenOffered(wait time.Duration) {
	var once sync.Once
	c.tools.prepare = func(group agent.ToolGroup) {
		if group != agent.ToolsReadOnly && group != agent.ToolsTask {
			return
		}
		once.Do(func() {
			if err := c.mcp.Start(context.Background()); err != nil {
				return // problems show in `hermes mcp list`
			}
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			for _, st := range c.mcp.List() {
				if st.Approved && !st.Disabled {
					_, _ = c.mcp.WaitReady(ctx, st.Name) // a server that fails is left out of this turn
				}
			}
		})
	}
}

// emitEvent sends an event to the attached UI, if any.
func (c *Core) emitEvent(name string, data any) {
	c.mu.Lock()
	emit := c.emit
	c.mu.Unlock()
	if emit != nil {
		emit(name, data)
	}
}

// MCPServers lists the configured servers with their status and tools.
func (a *MCPService) MCPServers() ([]mcp.Status, error) {
	list := a.core.MCPList()
	if list == nil {
		list = []mcp.Status{}
	}
	return list, nil
}

// MCPProblems lists mistakes in mcp.json, each with its line and field.
func (a *MCPService) MCPProblems() ([]mcp.Problem, error) {
	p, err := a.core.MCPProblems()
	if err != nil {
		return nil, &UserError{Message: err.Error(), Err: err}
	}
	if p == nil {
		p = []mcp.Problem{}
	}
	return p, nil
}

// MCPCommandLine shows the exact command a server entry would run, for approval.
func (a *MCPService) MCPCommandLine(cfg mcp.ServerConfig) (string, error) {
	return mcp.CommandLine(cfg), nil
}

// MCPAddServer adds (or replaces) a server entry in mcp.json. It does not start until
// approved with MCPApprove, after the user saw the exact command.
func (a *MCPService) MCPAddServer(name string, cfg mcp.ServerConfig) (mcp.Status, error) {
	ctx := context.Background()
	var (
		st  mcp.Status
		err error
	)
	if _, exists := a.core.mcp.Server(name); exists == nil {
		st, err = a.core.mcp.UpdateServer(ctx, name, cfg)
	} else {
		st, err = a.core.mcp.AddServer(ctx, name, cfg)
	}
	if err != nil {
		return mcp.Status{}, &UserError{Message: err.Error(), Err: err}
	}
	return st, nil
}

// gateMCPApprove: approving an MCP server from the web needs a one-time code
// typed from the terminal; its fingerprint is the entry, so a code printed
// before the entry changed is void.
func gateMCPApprove(w *Web, args []string) (guarded, bool) {
	if len(args) != 1 {
		return guarded{}, false // dispatch refuses it
	}
	name := args[0]
	g := guarded{key: "MCPApprove\x00" + name, what: fmt.Sprintf("start the MCP server %q", name)}
	if m := w.app.core.mcpManager(); m != nil {
		if st, err := m.Server(name); err == nil {
			b, _ := json.Marshal(st.Config)
			sum := sha256.Sum256(b)
			g.fingerprint = hex.EncodeToString(sum[:])
			if st.Config.Remote() {
				g.what = fmt.Sprintf("connect to the MCP server %q: %s", name, mcp.CommandLine(st.Config))
			} else {
				g.what = fmt.Sprintf("start the MCP server %q: %s", name, mcp.CommandLine(st.Config))
			}
		}
	}
	return g, true
}

// MCPApprove approves a server's command and starts it.
func (a *MCPService) MCPApprove(name string) (mcp.Status, error) {
	return a.mcpDo(name, func(ctx context.Context) error { return a.core.MCPApproveServer(ctx, name) })
}

// MCPRestart restarts a server (and resets its breaker).
func (a *MCPService) MCPRestart(name string) (mcp.Status, error) {
	return a.mcpDo(name, func(ctx context.Context) error { return a.core.mcp.Restart(ctx, name) })
}

// MCPSetDisabled disables or enables a server.
func (a *MCPService) MCPSetDisabled(name string, disabled bool) (mcp.Status, error) {
	return a.mcpDo(name, func(ctx context.Context) error { return a.core.mcp.SetServerDisabled(ctx, name, disabled) })
}

// MCPRemove removes a server from mcp.json and stops it.
func (a *MCPService) MCPRemove(name string) error {
	if err := a.core.mcp.RemoveServer(context.Background(), name); err != nil {
		return &UserError{Message: err.Error(), Err: err}
	}
	return nil
}

// MCPSetToolEnabled turns one of a server's tools on or off for the model.
func (a *MCPService) MCPSetToolEnabled(server, tool string, on bool) (mcp.Status, error) {
	return a.mcpDo(server, func(context.Context) error { return a.core.mcp.SetToolEnabled(server, tool, on) })
}

// MCPAcceptToolChanges accepts changed tool definitions of a server (after a rug-pull warning).
func (a *MCPService) MCPAcceptToolChanges(server string) (mcp.Status, error) {
	return a.mcpDo(server, func(context.Context) error { return a.core.MCPAcceptTools(server) })
}

// MCPStderr is the end of a server's stderr.
func (a *MCPService) MCPStderr(name string) (string, error) {
	s, err := a.core.mcp.Stderr(name)
	if err != nil {
		return "", &UserError{Message: err.Error(), Err: err}
	}
	return s, nil
}

// MCPPrompts lists the prompt templates servers offer.
func (a *MCPService) MCPPrompts() ([]mcp.PromptInfo, error) {
	p := a.core.mcp.Prompts()
	if p == nil {
		p = []mcp.PromptInfo{}
	}
	return p, nil
}

// MCPGetPrompt fetches a prompt template with its arguments (a JSON object of strings).
func (a *MCPService) MCPGetPrompt(server, name string, args map[string]string) (mcp.PromptResult, error) {
	if args == nil {
		args = map[string]string{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := a.core.mcp.GetPrompt(ctx, server, name, args)
	if err != nil {
		return mcp.PromptResult{}, &UserError{Message: err.Error(), Err: err}
	}
	return r, nil
}

// MCPResources lists the resources a ready server offers, fresh from the server.
func (a *MCPService) MCPResources(server string) ([]mcp.ResourceInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := a.core.mcp.Resources(ctx, server)
	if err != nil {
		return nil, &UserError{Message: err.Error(), Err: err}
	}
	if list == nil {
		list = []mcp.ResourceInfo{}
	}
	return list, nil
}

// MCPReadResource reads one resource of a ready server (binary parts are described, not shown).
func (a *MCPService) MCPReadResource(server, uri string) (mcp.ResourceContent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := a.core.mcp.ReadResource(ctx, server, uri)
	if err != nil {
		return mcp.ResourceContent{}, &UserError{Message: err.Error(), Err: err}
	}
	return r, nil
}

func (a *MCPService) mcpDo(name string, fn func(context.Context) error) (mcp.Status, error) {
	ctx := context.Background()
	if err := fn(ctx); err != nil {
		return mcp.Status{}, &UserError{Message: err.Error(), Err: err}
	}
	st, err := a.core.mcp.Server(name)
	if err != nil {
		return mcp.Status{}, &UserError{Message: err.Error(), Err: err}
	}
	return st, nil
}
