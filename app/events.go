package app

import (
	"hermes/backend/kb"
	"hermes/backend/mcp"
	"hermes/backend/memory"
	"hermes/backend/workflow"
)

// event names an event the page follows; T is its payload. A name that ends in
// ":" is a prefix, followed by the id of the request the event is about (of).
// bindgen lists every one for the UI, with its payload's type
// (docs/architecture.md, "The boundary").
type event[T any] string

// The events Hermes sends the page.
const (
	// evDelta is a piece of a reply as it streams.
	evDelta event[Delta] = "chat:delta:"
	// evTool is a tool call of a turn, when it ends.
	evTool event[ToolCall] = "chat:tool:"
	// evAgent is what a sub-agent a turn delegated to does.
	evAgent event[AgentEvent] = "chat:agent:"
	// evLoading says the model of a turn is being loaded.
	evLoading event[Loading] = "chat:status:"
	// evChatImport is the progress of an import of chats.
	evChatImport event[ChatImportProgress] = "session:import:"
	// evModelProgress is the progress of a model's pull or import.
	evModelProgress event[Progress] = "model:progress:"
	// evApprovalNeeded asks the user to allow or deny a tool call.
	evApprovalNeeded event[ApprovalPrompt] = "approval:needed"
	// evApprovalDone says an approval was answered or timed out.
	evApprovalDone event[ApprovalDone] = "approval:done"
	// evBreaker is a tool's circuit breaker changing state.
	evBreaker event[BreakerChange] = "tool:breaker"
	// evToolsChanged: the tools (tools.yaml, MCP) changed.
	evToolsChanged event[any] = "tools:changed"
	// evAgentsChanged: the sub-agents (agents.yaml) changed.
	evAgentsChanged event[any] = "agents:changed"
	// evWorkflowProgress is a step or a run of a workflow changing state.
	evWorkflowProgress event[workflow.Event] = "workflow:progress"
	// evWorkflowChanged: workflows.yaml changed.
	evWorkflowChanged event[any] = "workflow:changed"
	// evMemoryChanged: memories were written, changed or erased.
	evMemoryChanged event[memory.Change] = "memory:changed"
	// evMemoryProgress is the progress of memory's background work.
	evMemoryProgress event[memory.Progress] = "memory:progress"
	// evScrubDone: the ids whose text a late scrub of the search index erased.
	evScrubDone event[[]string] = "scrub:done"
	// evKBProgress is the progress of reading a collection's files.
	evKBProgress event[kb.Progress] = "kb:progress"
	// evKBChanged names a collection whose files or state changed.
	evKBChanged event[string] = "kb:changed"
	// evMCPStatus is an MCP server's new status.
	evMCPStatus event[mcp.Status] = "mcp:status"
	// evDBWaiting: the database is held by another process (true) or free again.
	evDBWaiting event[bool] = "db:waiting"
	// evSetupChanged is what the first run still needs, after a change.
	evSetupChanged event[SetupState] = "setup:changed"
)

// of is a per-request event's name for one request.
func (e event[T]) of(requestID string) event[T] { return e + event[T](requestID) }

// send emits e with its payload through emit.
func send[T any](emit func(string, any), e event[T], data T) { emit(string(e), data) }

// BreakerChange is a tool's circuit breaker going from one state to another.
type BreakerChange struct {
	Tool string `json:"tool"`
	From string `json:"from"`
	To   string `json:"to"`
}

// ApprovalDone names the approval that was answered or timed out.
type ApprovalDone struct {
	ID string `json:"id"`
}
