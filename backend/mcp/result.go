package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// resultText renders a tool result as the text the model reads: text blocks as
// they are, other blocks as a short note (the model cannot see images), the
// structured content as JSON when there is no text; invisible characters
// stripped and the whole capped at max bytes.
func resultText(r *mcp.CallToolResult, max int) string {
	var parts []string
	for _, c := range r.Content {
		if s := contentText(c); s != "" {
			parts = append(parts, s)
		}
	}
	hasText := false
	for _, c := range r.Content {
		switch c.(type) {
		case mcp.TextContent, *mcp.TextContent:
			hasText = true
		}
	}
	if !hasText {
		if raw := structuredJSON(r); raw != "" {
			parts = append(parts, raw)
		}
	}
	return cleanText(strings.Join(parts, "\n"), max)
}

func structuredJSON(r *mcp.CallToolResult) string {
	if len(r.RawStructuredContent) > 0 && string(r.RawStructuredContent) != "null" {
		return string(r.RawStructuredContent)
	}
	if r.StructuredContent != nil {
		b, err := json.Marshal(r.StructuredContent)
		if err == nil {
			return string(b)
		}
	}
	return ""
}

// contentText renders one content block.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case mcp.TextContent:
		return c.Text
	case *mcp.TextContent:
		return c.Text
	case mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %s, not shown to the model]", c.MIMEType, byteSize(decodedLen(c.Data)))
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %s, not shown to the model]", c.MIMEType, byteSize(decodedLen(c.Data)))
	case mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %s, not shown to the model]", c.MIMEType, byteSize(decodedLen(c.Data)))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %s, not shown to the model]", c.MIMEType, byteSize(decodedLen(c.Data)))
	case mcp.ResourceLink:
		return resourceLinkText(c)
	case *mcp.ResourceLink:
		return resourceLinkText(*c)
	case mcp.EmbeddedResource:
		return resourceContentsText(c.Resource)
	case *mcp.EmbeddedResource:
		return resourceContentsText(c.Resource)
	}
	return ""
}

func resourceLinkText(l mcp.ResourceLink) string {
	s := fmt.Sprintf("[resource link: %s (%s)", l.URI, l.Name)
	if l.Description != "" {
		s += ": " + l.Description
	}
	return s + "]"
}

// resourceContentsText renders a resource's contents: text as it is, a blob as
// a note.
func resourceContentsText(rc mcp.ResourceContents) string {
	switch rc := rc.(type) {
	case mcp.TextResourceContents:
		return rc.Text
	case *mcp.TextResourceContents:
		return rc.Text
	case mcp.BlobResourceContents:
		return fmt.Sprintf("[binary resource %s: %s, %s, not shown]", rc.URI, rc.MIMEType, byteSize(decodedLen(rc.Blob)))
	case *mcp.BlobResourceContents:
		return fmt.Sprintf("[binary resource %s: %s, %s, not shown]", rc.URI, rc.MIMEType, byteSize(decodedLen(rc.Blob)))
	}
	return ""
}

func decodedLen(b64 string) int64 {
	return int64(base64.StdEncoding.DecodedLen(len(b64)))
}
