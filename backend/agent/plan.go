package agent

import (
	"fmt"
	"hermes/backend/lazyre"
	"strings"
)

// ToolGroup names the set of tools a turn may see.
type ToolGroup string

// Tool groups, from least to most capable.
const (
	// ToolsNone exposes no tool.
	ToolsNone ToolGroup = "none"
	// ToolsReadOnly exposes tools that only read (clock, calculator, file
	// listing and reading, read-only MCP tools).
	ToolsReadOnly ToolGroup = "read-only"
	// ToolsTask exposes the task set: read-only tools plus tools that act
	// (write files, run commands, MCP tools with side effects), each still
	// subject to approval.
	ToolsTask ToolGroup = "task"
	// ToolsMemory exposes the memory tools. Tools that add or change a
	// memory run only when Plan.MayWriteMemory is true; erasing tools run
	// whenever the group is exposed.
	ToolsMemory ToolGroup = "memory"
	// ToolsMemoryKeep is the memory tools less those that erase: a memory
	// turn whose message does not ask to delete anything (see EraseAsked).
	ToolsMemoryKeep ToolGroup = "memory-keep"
)

// eraseWords are the words of an explicit request to delete, in English and
// Chinese; keepWords are the phrasings that contain one and ask the opposite.
var (
	eraseWords = lazyre.New(`(?i)\b(forget|forgets|delete|erase|remove|wipe|purge|unlearn|clear out|stop remembering)\b|忘记|忘掉|忘了吧|删除|删掉|删了|清除|清空|抹去|抹掉|移除|别再记|不要再记|别记|不要记`)
	keepWords  = lazyre.New(`(?i)\b(don't|do not|never|dont) forget\b|别忘|不要忘|千万别忘`)
)

// EraseAsked reports whether a message asks in so many words to delete
// something ("forget that I …", "删掉我的地址"), not just to be reminded
// ("don't forget …").
func EraseAsked(text string) bool {
	return eraseWords.MatchString(keepWords.ReplaceAllString(text, " "))
}

// guardErase keeps the erasing tools out of a turn that did not ask to delete:
// a misrouted message ("please research what I said about peanuts" labelled
// forget) must never widen what a turn may do.
func guardErase(p Plan, text string) Plan {
	if p.ToolGroup == ToolsMemory && !EraseAsked(text) {
		p.ToolGroup = ToolsMemoryKeep
	}
	return p
}

// UnknownIntent is the label of a message the classifier is not sure about
// (or could not classify); it gets the conservative plan.
const UnknownIntent = "unknown"

// Plan is what a turn may do, decided from its intent.
type Plan struct {
	Intent     string
	Confidence float32
	// Recall says whether memories are looked up for the prompt, and at
	// most how many (RecallK).
	Recall  bool
	RecallK int
	// MayWriteMemory says whether the turn may add or change memories
	// (explicitly or through the background extraction). Forgetting is an
	// erase, not a write: a forget turn has it false.
	MayWriteMemory bool
	ToolGroup      ToolGroup
	// NamedTool is set when the message names one of the user's tools, which
	// widened the tools offered to the task group whatever the intent.
	NamedTool bool `json:",omitempty"`
}

// ToolNamer is what Tools can also do: tell whether a text names one of its
// tools ("shout hello", "ping the NAS"). Such a message is offered the task
// tools whatever its intent, within the approval rules.
type ToolNamer interface {
	NamesTool(text string) bool
}

// widenForNamedTool offers the task tools to a turn whose message names a tool
// the plan would not offer (a memory turn keeps its own tools).
func widenForNamedTool(p Plan, tools Tools, text string) Plan {
	tn, ok := tools.(ToolNamer)
	if !ok || p.ToolGroup == ToolsTask || p.ToolGroup == ToolsMemory || p.ToolGroup == ToolsMemoryKeep || !tn.NamesTool(text) {
		return p
	}
	p.ToolGroup, p.NamedTool = ToolsTask, true
	return p
}

// policy is the routing table, the one place it is decided. planOrder is
// its row order for documentation.
var (
	policy = map[string]Plan{
		// Small talk needs neither memory nor tools.
		"chitchat": {Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsNone},
		// General knowledge or how-to: no personal memory; read-only tools
		// (a clock or calculator) cannot hurt.
		"question": {Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsReadOnly},
		// A request for an action: a few memories (preferences such as units
		// or the home city) and the task tools.
		"task": {Recall: true, RecallK: 3, MayWriteMemory: false, ToolGroup: ToolsTask},
		// A fact or preference about the user: recall to find duplicates and
		// conflicts, and the only intent that may write memory.
		"remember": {Recall: true, RecallK: 5, MayWriteMemory: true, ToolGroup: ToolsMemory},
		// A question about what the assistant knows: the widest recall,
		// nothing written.
		"recall": {Recall: true, RecallK: 10, MayWriteMemory: false, ToolGroup: ToolsReadOnly},
		// A request to erase: recall finds what to erase; memory tools erase.
		"forget": {Recall: true, RecallK: 10, MayWriteMemory: false, ToolGroup: ToolsMemory},
		// What-ifs, role-play, examples, tests, other people's facts: never
		// written, and the user's real memories are kept out of the game.
		"hypothetical": {Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsReadOnly},
		// Not sure: look things up, change nothing, read-only tools.
		UnknownIntent: {Recall: true, RecallK: 5, MayWriteMemory: false, ToolGroup: ToolsReadOnly},
	}
	planOrder = []string{"chitchat", "question", "task", "remember", "recall", "forget", "hypothetical", UnknownIntent}
)

// PlanFor returns the plan for an intent label. A label outside the table
// (including "" or a label a newer model might add) gets the plan of
// UnknownIntent, and the plan's Intent says "unknown".
func PlanFor(label string, confidence float32) Plan {
	p, ok := policy[label]
	if !ok {
		p, label = policy[UnknownIntent], UnknownIntent
	}
	p.Intent = label
	p.Confidence = confidence
	return p
}

// PlanTableMarkdown renders the routing table as a Markdown table (for the
// README and the settings page).
func PlanTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| intent | recall memories | at most | may write memory | tools |\n")
	b.WriteString("|---|---|---|---|---|\n")
	yesNo := map[bool]string{true: "yes", false: "no"}
	for _, label := range planOrder {
		p := policy[label]
		k := "-"
		if p.Recall {
			k = fmt.Sprint(p.RecallK)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", label, yesNo[p.Recall], k, yesNo[p.MayWriteMemory], p.ToolGroup)
	}
	return b.String()
}
