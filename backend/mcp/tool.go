package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"hermes/backend/tools"
)

// serverTool is one of a server's tools as the tools engine sees it.
type serverTool struct {
	srv         *server
	name        string // namespaced, for the model
	remote      string // the server's name
	title       string
	description string
	params      json.RawMessage
	annots      tools.Annotations
	hints       Hints
}

var (
	_ tools.Tool          = (*serverTool)(nil)
	_ tools.HealthChecker = (*serverTool)(nil)
)

func (t *serverTool) Name() string                   { return t.name }
func (t *serverTool) Description() string            { return t.description }
func (t *serverTool) Parameters() json.RawMessage    { return t.params }
func (t *serverTool) Annotations() tools.Annotations { return t.annots }

// Execute calls the tool on the server. The result is the text the model reads;
// a result the server marks as an error is returned as an error.
func (t *serverTool) Execute(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	text, err := t.srv.callTool(ctx, t.remote, args)
	if err != nil {
		return nil, err
	}
	return tools.TextResult(text), nil
}

// HealthCheck pings the server.
func (t *serverTool) HealthCheck(ctx context.Context) error { return t.srv.ping(ctx) }

// ToolError is a result the server marked as an error (isError): the tool ran
// and failed.
type ToolError struct {
	Tool string
	Text string
}

func (e *ToolError) Error() string { return fmt.Sprintf("%s failed: %s", e.Tool, e.Text) }

// newServerTool adapts a listed tool; the error says why it cannot be offered.
func newServerTool(srv *server, name string, rt remoteTool) (*serverTool, error) {
	params, err := toolParameters(rt.InputSchema)
	if err != nil {
		return nil, err
	}
	desc := cleanText(rt.Description, maxDescription)
	if desc == "" {
		desc = cleanText(rt.Title, maxDescription)
	}
	if desc == "" {
		desc = fmt.Sprintf("The %s tool of the %s MCP server.", StripInvisible(rt.Name), srv.name)
	}
	return &serverTool{
		srv: srv, name: name, remote: rt.Name, title: cleanText(rt.Title, 200), description: desc, params: params,
		annots: hermesAnnotations(rt.Annotations), hints: hintsOf(rt.Annotations),
	}, nil
}

// definitionHash is the tools package's hash of the tool under its plain
// namespaced name, so that a name made unique by a hash suffix does not count as
// a changed definition.
func definitionHash(t *serverTool) string {
	c := *t
	c.name = ToolName(t.srv.name, t.remote)
	return tools.DefinitionHash(&c)
}

// errNoRemote is returned for a tool name the server does not list.
var errNoRemote = errors.New("the server does not offer this tool")
