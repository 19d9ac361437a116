package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"hermes/backend/lazyre"
	"strconv"
)

// maxToolName is the longest tool name a model accepts (tools.ValidName).
const maxToolName = 64

var invalidNameRun = lazyre.New(`[^a-zA-Z0-9_-]+`)

// sanitizeName makes s usable in a tool name: every run of other characters
// becomes one '_'.
func sanitizeName(s string) string {
	s = invalidNameRun.ReplaceAllString(s, "_")
	if s == "" {
		return "_"
	}
	return s
}

// ToolName is the name a server's tool is offered to the model under:
// "<server>__<tool>", sanitized. A name over 64 characters, or one another tool
// already holds (salt > 0), is cut and ends in a short hash of server and tool,
// so it stays unique and the same across restarts.
func ToolName(server, tool string) string { return toolName(server, tool, 0) }

func toolName(server, tool string, salt int) string {
	base := sanitizeName(server) + "__" + sanitizeName(tool)
	if salt == 0 && len(base) <= maxToolName {
		return base
	}
	key := server + "\x00" + tool
	if salt > 1 {
		key += "\x00" + strconv.Itoa(salt)
	}
	sum := sha256.Sum256([]byte(key))
	suffix := "_" + hex.EncodeToString(sum[:4])
	if len(base) > maxToolName-len(suffix) {
		base = base[:maxToolName-len(suffix)]
	}
	return base + suffix
}

// nameAllocator hands out unique tool names for one server's tools.
type nameAllocator struct {
	server string
	taken  func(name string) bool // held by a tool of another server
	used   map[string]bool        // given out in this round
}

func newNameAllocator(server string, taken func(string) bool) *nameAllocator {
	return &nameAllocator{server: server, taken: taken, used: map[string]bool{}}
}

// name returns the first free name for tool: the plain one, then hashed ones.
func (a *nameAllocator) name(tool string) string {
	for salt := 0; ; salt++ {
		n := toolName(a.server, tool, salt)
		if !a.used[n] && (a.taken == nil || !a.taken(n)) {
			a.used[n] = true
			return n
		}
	}
}
