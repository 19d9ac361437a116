package mcp

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// ResourceInfo is one resource a server lists, for the MCP panel's browser.
type ResourceInfo struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// ResourceContent is a resource read for the user: its text (binary parts are
// described, not shown), cleaned and capped like a tool result.
type ResourceContent struct {
	Server   string `json:"server"`
	URI      string `json:"uri"`
	MIMEType string `json:"mime_type,omitempty"`
	Text     string `json:"text"`
	// Binary is set when a part was binary and is only described in Text.
	Binary bool `json:"binary,omitempty"`
}

// Resources lists a ready server's resources, fresh from the server.
func (m *Manager) Resources(ctx context.Context, serverName string) ([]ResourceInfo, error) {
	s, err := m.server(serverName)
	if err != nil {
		return nil, fmt.Errorf("list resources: %w", err)
	}
	sess, err := s.current()
	if err != nil {
		return nil, fmt.Errorf("list resources: %w", err)
	}
	if sess.init.Capabilities.Resources == nil {
		return []ResourceInfo{}, nil
	}
	list, err := sess.listResources(ctx)
	if err != nil {
		return nil, fmt.Errorf("list resources of %s: %w", serverName, err)
	}
	out := make([]ResourceInfo, 0, len(list))
	for _, r := range list {
		out = append(out, ResourceInfo{
			Server: serverName, URI: cleanText(r.URI, 2048), Name: cleanText(r.Name, 256),
			Description: cleanText(r.Description, maxDescription), MIMEType: cleanText(r.MIMEType, 128),
		})
	}
	return out, nil
}

// ReadResource reads one resource of a ready server.
func (m *Manager) ReadResource(ctx context.Context, serverName, uri string) (ResourceContent, error) {
	s, err := m.server(serverName)
	if err != nil {
		return ResourceContent{}, fmt.Errorf("read resource: %w", err)
	}
	sess, err := s.current()
	if err != nil {
		return ResourceContent{}, fmt.Errorf("read resource: %w", err)
	}
	res, err := sess.readResource(ctx, s.requestTimeout(s.config()), uri)
	if err != nil {
		return ResourceContent{}, fmt.Errorf("read resource %s of %s: %w", uri, serverName, err)
	}
	out := ResourceContent{Server: serverName, URI: uri}
	text := ""
	for i, c := range res.Contents {
		if i > 0 {
			text += "\n"
		}
		text += resourceContentsText(c)
		switch c := c.(type) {
		case mcp.TextResourceContents:
			out.MIMEType = c.MIMEType
		case *mcp.TextResourceContents:
			out.MIMEType = c.MIMEType
		case mcp.BlobResourceContents, *mcp.BlobResourceContents:
			out.Binary = true
		}
	}
	out.Text = cleanText(text, m.opts.MaxResultBytes)
	return out, nil
}
