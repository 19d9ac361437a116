package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"hermes/backend/tools"
)

// builtinTools are the read-only tools Hermes adds for a server's resources and
// prompts, so the model can use them too.
func (s *server) builtinTools(alloc *nameAllocator, hasResources bool, prompts []mcp.Prompt) []*toolState {
	var out []*toolState
	add := func(remote string, f *tools.Func) {
		f.ToolName = alloc.name(remote)
		f.Annots = tools.Annotations{ReadOnly: true}
		f.Health = s.ping
		out = append(out, &toolState{tool: f, st: ToolStatus{Name: f.ToolName, Remote: remote, Description: f.ToolDescription,
			Annotations: f.Annots, Builtin: true, Hash: tools.DefinitionHash(f)}})
	}
	if hasResources {
		add("list_resources", &tools.Func{
			ToolDescription: fmt.Sprintf("List the resources (documents, files, data) the %s MCP server offers, with their URIs, and the URI templates it accepts. Read one with %s.", s.name, ToolName(s.name, "read_resource")),
			Params:          json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
			Fn:              s.listResourcesTool,
		})
		add("read_resource", &tools.Func{
			ToolDescription: fmt.Sprintf("Read one resource of the %s MCP server by its URI (from %s).", s.name, ToolName(s.name, "list_resources")),
			Params:          json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","minLength":1,"maxLength":2048,"description":"The resource's URI"}},"required":["uri"],"additionalProperties":false}`),
			Fn:              s.readResourceTool,
		})
	}
	if len(prompts) > 0 {
		var names []any
		var lines []string
		for _, p := range prompts {
			pi := promptInfo(s.name, p)
			names = append(names, pi.Name)
			line := pi.Name
			var args []string
			for _, a := range pi.Arguments {
				if a.Required {
					args = append(args, a.Name+" (required)")
				} else {
					args = append(args, a.Name)
				}
			}
			if len(args) > 0 {
				line += " [arguments: " + strings.Join(args, ", ") + "]"
			}
			if pi.Description != "" {
				line += ": " + capText(pi.Description, 200)
			}
			lines = append(lines, line)
		}
		schema, _ := json.Marshal(map[string]any{ // plain data
			"type": "object",
			"properties": map[string]any{
				"name":      map[string]any{"type": "string", "enum": names, "description": "The prompt's name"},
				"arguments": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "The prompt's arguments by name"},
			},
			"required":             []string{"name"},
			"additionalProperties": false,
		})
		add("get_prompt", &tools.Func{
			ToolDescription: capText(fmt.Sprintf("Fetch a prompt template of the %s MCP server, filled in with arguments. Prompts: %s.", s.name, strings.Join(lines, "; ")), maxDescription),
			Params:          schema,
			Fn:              s.getPromptTool,
		})
	}
	return out
}

func (s *server) listResourcesTool(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
	sess, err := s.current()
	if err != nil {
		return nil, fmt.Errorf("list resources: %w", err)
	}
	res, err := sess.listResources(ctx)
	if err != nil {
		return nil, fmt.Errorf("list resources of %s: %w", s.name, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Resources of %s (%d):\n", s.name, len(res))
	for _, r := range res {
		fmt.Fprintf(&b, "- %s — %s", r.URI, r.Name)
		if r.MIMEType != "" {
			fmt.Fprintf(&b, " (%s)", r.MIMEType)
		}
		if r.Description != "" {
			fmt.Fprintf(&b, ": %s", capText(r.Description, 300))
		}
		b.WriteByte('\n')
	}
	if tmpl, err := sess.listResourceTemplates(ctx); err == nil && len(tmpl) > 0 {
		fmt.Fprintf(&b, "Resource templates (fill in the {placeholders} to make a URI):\n")
		for _, t := range tmpl {
			fmt.Fprintf(&b, "- %s — %s", t.URITemplate, t.Name)
			if t.Description != "" {
				fmt.Fprintf(&b, ": %s", capText(t.Description, 300))
			}
			b.WriteByte('\n')
		}
	}
	return tools.TextResult(cleanText(b.String(), s.m.opts.MaxResultBytes)), nil
}

func (s *server) readResourceTool(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, fmt.Errorf("read resource: %w", err)
	}
	sess, err := s.current()
	if err != nil {
		return nil, fmt.Errorf("read resource: %w", err)
	}
	res, err := sess.readResource(ctx, s.requestTimeout(s.config()), in.URI)
	if err != nil {
		return nil, fmt.Errorf("read resource %s of %s: %w", in.URI, s.name, err)
	}
	var parts []string
	for _, c := range res.Contents {
		parts = append(parts, resourceContentsText(c))
	}
	return tools.TextResult(cleanText(strings.Join(parts, "\n"), s.m.opts.MaxResultBytes)), nil
}

func (s *server) getPromptTool(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, fmt.Errorf("get prompt: %w", err)
	}
	pr, err := s.getPrompt(ctx, in.Name, in.Arguments)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if pr.Description != "" {
		b.WriteString(pr.Description + "\n")
	}
	for _, m := range pr.Messages {
		fmt.Fprintf(&b, "[%s]\n%s\n", m.Role, m.Text)
	}
	return tools.TextResult(capText(b.String(), s.m.opts.MaxResultBytes)), nil
}

// getPrompt fetches a prompt, cleaned for the model and the UI.
func (s *server) getPrompt(ctx context.Context, name string, args map[string]string) (PromptResult, error) {
	sess, err := s.current()
	if err != nil {
		return PromptResult{}, fmt.Errorf("get prompt %s: %w", name, err)
	}
	res, err := sess.getPrompt(ctx, s.requestTimeout(s.config()), name, args)
	if err != nil {
		return PromptResult{}, fmt.Errorf("get prompt %s of %s: %w", name, s.name, err)
	}
	max := s.m.opts.MaxResultBytes
	out := PromptResult{Description: cleanText(res.Description, maxDescription), Messages: []PromptMessage{}}
	for _, m := range res.Messages {
		out.Messages = append(out.Messages, PromptMessage{Role: string(m.Role), Text: cleanText(contentText(m.Content), max)})
	}
	return out, nil
}
