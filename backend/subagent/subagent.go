// Package subagent runs specialists the main agent delegates to: each has its own
// system prompt, its own tools (a subset, never another agent), its own message
// window (a channel of the conversation) and returns one final answer. The
// definitions come from agents.yaml in the data dir plus the built-in ones.
package subagent

import (
	"encoding/json"
	"path"
	"strings"
)

// FileName is the agents file in the data dir.
const FileName = "agents.yaml"

// ToolPrefix names a sub-agent as a tool the main model may call: agent__<name>.
const ToolPrefix = "agent__"

// MainChannel is the conversation's own channel.
const MainChannel = "main"

// Memory access of a sub-agent. Sub-agents never write memory.
const (
	MemoryNone = "none" // no recall, no memory tools
	MemoryRead = "read" // its task recalls memories; memory_search if its tools allow it
)

// DefaultMaxRounds is a sub-agent's rounds of tool calls when its definition sets none.
const DefaultMaxRounds = 4

// MaxRoundsLimit is the most rounds a definition may ask for.
const MaxRoundsLimit = 20

// Definition is one sub-agent.
type Definition struct {
	Name        string   `json:"name" yaml:"name"`
	Description string   `json:"description" yaml:"description"`         // what it is for (the main model reads it)
	System      string   `json:"system" yaml:"system"`                   // its system prompt
	Model       string   `json:"model,omitempty" yaml:"model,omitempty"` // another installed model; "" uses the chat model
	Tools       []string `json:"tools" yaml:"tools,omitempty"`           // tool names or globs (path.Match) it may use
	Memory      string   `json:"memory" yaml:"memory,omitempty"`         // none | read
	MaxRounds   int      `json:"maxRounds" yaml:"max_rounds,omitempty"`  // 0: DefaultMaxRounds
	Disabled    bool     `json:"disabled" yaml:"disabled,omitempty"`
	// Builtin marks a specialist that ships with Hermes (agents.yaml may switch it
	// off or replace it by declaring the same name).
	Builtin bool `json:"builtin" yaml:"-"`
	// Line is where agents.yaml declares it (0 for a built-in one).
	Line int `json:"line" yaml:"-"`
}

// ToolName is the tool the main model calls to delegate to d.
func (d *Definition) ToolName() string { return ToolPrefix + d.Name }

// Rounds is how many rounds of tool calls d may use.
func (d *Definition) Rounds() int {
	if d.MaxRounds <= 0 {
		return DefaultMaxRounds
	}
	return d.MaxRounds
}

// MayUse reports whether d may call the tool: a name its tools list matches,
// never another sub-agent, and no memory tool unless its memory is read (and
// then only memory_search).
func (d *Definition) MayUse(tool string) bool {
	if strings.HasPrefix(tool, ToolPrefix) {
		return false
	}
	if strings.HasPrefix(tool, "memory_") && (d.Memory != MemoryRead || tool != "memory_search") {
		return false
	}
	for _, p := range d.Tools {
		if ok, _ := path.Match(p, tool); ok {
			return true
		}
	}
	return false
}

// Builtins are the specialists that ship with Hermes.
func Builtins() []*Definition {
	return []*Definition{
		{
			Name: "researcher",
			Description: "Looks through the user's past conversations and memories to answer a question about what was said or decided before. " +
				"Give it a precise task, e.g. \"find what we decided about the Lisbon trip\".",
			System: "You are Hermes' researcher. You search the user's past conversations (session_search) and memories (memory_search) " +
				"to answer the task you are given. Search with a few different keywords before you give up. " +
				"Answer with what you found, quoting dates and the conversation it came from; say plainly when you found nothing. " +
				"You only read: never claim to have changed anything.",
			Tools: []string{"session_search", "memory_search", "current_time"}, Memory: MemoryRead, MaxRounds: 4, Builtin: true,
		},
		{
			Name: "editor",
			Description: "Rewrites or proofreads a text the main agent passes in context: shorter, clearer, another tone or language. " +
				"Put the text in context and the instruction in task.",
			System: "You are Hermes' editor. Rewrite the text you are given as the task asks. " +
				"Keep its facts, names and numbers exactly; change nothing the task does not ask for. Output only the rewritten text.",
			Memory: MemoryNone, MaxRounds: 1, Builtin: true,
		},
	}
}

// ToolParams are the arguments of every agent__ tool: the task, and the text the
// specialist needs for it.
var ToolParams = json.RawMessage(`{"type":"object","properties":{` +
	`"task":{"type":"string","description":"What the specialist should do: a self-contained instruction."},` +
	`"context":{"type":"string","description":"Text the specialist needs to do it (optional)."}},` +
	`"required":["task"],"additionalProperties":false}`)
