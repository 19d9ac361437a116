package mcp

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"hermes/backend/tools"
)

// hermesAnnotations turns a server's annotations, which are untrusted hints,
// into Hermes's. A tool only reads when the server says readOnlyHint true and
// does not say destructiveHint true; anything else is treated as acting on the
// open world and asks before it runs (unless the user listed it in autoApprove).
// A hint can therefore make a tool ask, never make it skip asking.
func hermesAnnotations(h mcp.ToolAnnotation) tools.Annotations {
	readOnly := isTrue(h.ReadOnlyHint) && !isTrue(h.DestructiveHint)
	if readOnly {
		return tools.Annotations{ReadOnly: true, OpenWorld: isTrue(h.OpenWorldHint)}
	}
	return tools.Annotations{OpenWorld: true, Destructive: h.DestructiveHint == nil || *h.DestructiveHint}
}

func isTrue(b *bool) bool { return b != nil && *b }

// Hints are the annotations as the server sent them, for the UI.
type Hints struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    *bool  `json:"read_only_hint,omitempty"`
	Destructive *bool  `json:"destructive_hint,omitempty"`
	Idempotent  *bool  `json:"idempotent_hint,omitempty"`
	OpenWorld   *bool  `json:"open_world_hint,omitempty"`
}

func hintsOf(h mcp.ToolAnnotation) Hints {
	return Hints{Title: StripInvisible(h.Title), ReadOnly: h.ReadOnlyHint, Destructive: h.DestructiveHint, Idempotent: h.IdempotentHint, OpenWorld: h.OpenWorldHint}
}

// maxDescription caps a description the model reads.
const maxDescription = 2 << 10

// emptyParams is the schema of a tool that takes no arguments.
var emptyParams = json.RawMessage(`{"type":"object","properties":{}}`)

// toolParameters prepares a server's input schema for the registry: invisible
// characters stripped from every string, and "type": "object" added when the
// server left it out (MCP requires it).
func toolParameters(raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptyParams, nil
	}
	var m map[string]any
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, errors.New("its input schema is not a JSON object")
	}
	m = sanitizeValue(m).(map[string]any)
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	return json.Marshal(m)
}
