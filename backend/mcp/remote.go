package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// remoteTool is a tool as the server lists it, with its schemas kept exactly as
// sent (mcp-go's Tool type rebuilds the input schema and drops keywords such as
// $schema and definitions).
type remoteTool struct {
	Name         string             `json:"name"`
	Title        string             `json:"title,omitempty"`
	Description  string             `json:"description,omitempty"`
	InputSchema  json.RawMessage    `json:"inputSchema"`
	OutputSchema json.RawMessage    `json:"outputSchema,omitempty"`
	Annotations  mcp.ToolAnnotation `json:"annotations"`
	Execution    *struct {
		TaskSupport string `json:"taskSupport,omitempty"`
	} `json:"execution,omitempty"`
}

// List limits: a server cannot make Hermes page or hold without end.
const (
	maxPages     = 50
	maxListItems = 1000
)

// listTools fetches every page of tools/list.
func (s *session) listTools(ctx context.Context) ([]remoteTool, error) {
	var out []remoteTool
	err := s.paginate(ctx, "tools/list", func(raw json.RawMessage) (string, error) {
		var page struct {
			Tools      []remoteTool `json:"tools"`
			NextCursor string       `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", fmt.Errorf("tools/list: the answer is not a list of tools: %w", err)
		}
		out = append(out, page.Tools...)
		if len(out) > maxListItems {
			out = out[:maxListItems]
			return "", nil
		}
		return page.NextCursor, nil
	})
	return out, err
}

// paginate requests method page by page until there is no next cursor.
func (s *session) paginate(ctx context.Context, method string, page func(json.RawMessage) (string, error)) error {
	seen := map[string]bool{}
	cursor := ""
	for range maxPages {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		raw, err := s.request(ctx, 0, method, params)
		if err != nil {
			return err
		}
		next, err := page(raw)
		if err != nil {
			return err
		}
		if next == "" {
			return nil
		}
		if seen[next] {
			return fmt.Errorf("%s: the server repeated the cursor %q", method, capText(next, 64))
		}
		seen[next] = true
		cursor = next
	}
	return fmt.Errorf("%s: more than %d pages", method, maxPages)
}

// callTool runs tools/call; onProgress (optional) hears progress notices.
func (s *session) callTool(ctx context.Context, timeout time.Duration, name string, args json.RawMessage, onProgress func(Progress)) (*mcp.CallToolResult, error) {
	params := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Meta      map[string]any  `json:"_meta,omitempty"`
	}{Name: name, Arguments: args}
	if onProgress != nil {
		token := fmt.Sprintf("hermes-progress-%d", s.nextID.Add(1))
		params.Meta = map[string]any{"progressToken": token}
		s.progMu.Lock()
		s.progress[token] = onProgress
		s.progMu.Unlock()
		defer func() {
			s.progMu.Lock()
			delete(s.progress, token)
			s.progMu.Unlock()
		}()
	}
	raw, err := s.request(ctx, timeout, "tools/call", params)
	if err != nil {
		return nil, err
	}
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("tools/call: the answer is not a tool result: %w", err)
	}
	return res, nil
}

func (s *session) ping(ctx context.Context, timeout time.Duration) error {
	_, err := s.request(ctx, timeout, "ping", nil)
	return err
}

func (s *session) listResources(ctx context.Context) ([]mcp.Resource, error) {
	var out []mcp.Resource
	err := s.paginate(ctx, "resources/list", func(raw json.RawMessage) (string, error) {
		var page mcp.ListResourcesResult
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", fmt.Errorf("resources/list: the answer is not a list of resources: %w", err)
		}
		out = append(out, page.Resources...)
		if len(out) > maxListItems {
			out = out[:maxListItems]
			return "", nil
		}
		return string(page.NextCursor), nil
	})
	return out, err
}

// resourceTemplate is a template as listed (mcp-go's type parses the URI
// template and rejects ones it cannot parse; Hermes only shows it).
type resourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

func (s *session) listResourceTemplates(ctx context.Context) ([]resourceTemplate, error) {
	var out []resourceTemplate
	err := s.paginate(ctx, "resources/templates/list", func(raw json.RawMessage) (string, error) {
		var page struct {
			ResourceTemplates []resourceTemplate `json:"resourceTemplates"`
			NextCursor        string             `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", fmt.Errorf("resources/templates/list: the answer is not a list of templates: %w", err)
		}
		out = append(out, page.ResourceTemplates...)
		if len(out) > maxListItems {
			out = out[:maxListItems]
			return "", nil
		}
		return page.NextCursor, nil
	})
	return out, err
}

func (s *session) readResource(ctx context.Context, timeout time.Duration, uri string) (*mcp.ReadResourceResult, error) {
	raw, err := s.request(ctx, timeout, "resources/read", map[string]string{"uri": uri})
	if err != nil {
		return nil, err
	}
	res, err := mcp.ParseReadResourceResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("resources/read: the answer is not resource contents: %w", err)
	}
	return res, nil
}

func (s *session) listPrompts(ctx context.Context) ([]mcp.Prompt, error) {
	var out []mcp.Prompt
	err := s.paginate(ctx, "prompts/list", func(raw json.RawMessage) (string, error) {
		var page mcp.ListPromptsResult
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", fmt.Errorf("prompts/list: the answer is not a list of prompts: %w", err)
		}
		out = append(out, page.Prompts...)
		if len(out) > maxListItems {
			out = out[:maxListItems]
			return "", nil
		}
		return string(page.NextCursor), nil
	})
	return out, err
}

func (s *session) getPrompt(ctx context.Context, timeout time.Duration, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	params := map[string]any{"name": name}
	if len(args) > 0 {
		params["arguments"] = args
	}
	raw, err := s.request(ctx, timeout, "prompts/get", params)
	if err != nil {
		return nil, err
	}
	res, err := mcp.ParseGetPromptResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("prompts/get: the answer is not a prompt: %w", err)
	}
	return res, nil
}
