// Package agent runs one turn: persist the user's message, classify it, stream the
// model's reply through a callback, and persist the reply. It depends only on the
// small interfaces declared here; the composition root wires the real parts.
package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/tools"
)

// LLM streams a chat reply; an error from fn stops the stream.
type LLM interface {
	Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error)
}

// Sessions stores conversations.
type Sessions interface {
	Create(ctx context.Context, title string) (session.Session, error)
	Get(ctx context.Context, id string) (session.Session, error)
	Messages(ctx context.Context, sessionID string) ([]session.Message, error)
	// History is Messages for a session just read with Get (it may come from memory).
	History(ctx context.Context, s session.Session) ([]session.Message, error)
	Append(ctx context.Context, m session.Message) (session.Message, error)
	// Prepare checks a message and gives it its id and time without storing it.
	Prepare(m session.Message) (session.Message, error)
}

// Classifier labels a message with its intent. A nil Classifier means "unknown".
type Classifier interface {
	Classify(ctx context.Context, text string) (label string, confidence float32, err error)
}

// PromptBuilder decides what the model sees.
type PromptBuilder interface {
	Build(ctx context.Context, in prompt.Input) prompt.Context
}

// Calibration corrects token estimates with what the server reports.
type Calibration interface {
	Ratio(ctx context.Context, model string) float64
	// Observe learns from a count; full says the count filled the context.
	Observe(ctx context.Context, model string, estimated, reported int, full bool) error
}

// Budget says how many prompt tokens the turn may use and the context size to ask
// for; asked > 0 is a context size the chat asks for instead of the setting's
// (the model's own limit still applies).
type Budget func(ctx context.Context, models []string, asked int) (budget, numCtx int, model string, recentTurns int)

// Tools runs the tools the model calls.
type Tools interface {
	// Schemas are the tools a turn of this group is offered.
	Schemas(group ToolGroup) api.Tools
	// NewTurn starts the tool calls of one turn; maxRounds 0 keeps the default.
	NewTurn(requestID, sessionID string, group ToolGroup, maxRounds int) ToolTurn
}

// ToolTurn runs the calls of one turn under its loop guard.
type ToolTurn interface {
	RunAll(ctx context.Context, calls []llm.ToolCall) ([]tools.Outcome, *tools.StopReason)
	Succeeded() []string
}

// Memory is what a turn needs of long-term memory.
type Memory interface {
	// Recall returns what to offer the model about the user, formatted with sources.
	Recall(ctx context.Context, q MemoryQuery) ([]string, error)
	// Observe hands the finished turn to memory (the write path decides what to keep).
	Observe(ctx context.Context, t MemoryTurn) error
	// Scope attaches the turn to ctx for the memory tools.
	Scope(ctx context.Context, t MemoryTurn) context.Context
}

// MemoryQuery asks memory about one message.
type MemoryQuery struct {
	Profile, Text, SessionID, MessageID string
	K                                   int
}

// MemoryTurn is a turn as memory sees it.
type MemoryTurn struct {
	Profile, SessionID, UserMessageID, AssistantMessageID string
	UserText, AssistantText                               string
	Plan                                                  Plan
	Incognito                                             bool
}

// Agent runs turns.
type Agent struct {
	// Memory recalls and observes; nil means no long-term memory.
	Memory Memory
	// Tools runs tool calls; nil offers no tools.
	Tools      Tools
	LLM        LLM
	Sessions   Sessions
	Classifier Classifier
	// Prompt builds the context the model sees (required).
	Prompt      PromptBuilder
	Budget      Budget
	Calibration Calibration
	// AfterTurn runs when a turn has been stored (e.g. to refresh the summary).
	AfterTurn func(sessionID string)
	// ExplainError words a failed reply's error for the user (message, stable
	// code, parameters); nil stores the error's own text.
	ExplainError func(ctx context.Context, err error) (message, code string, params map[string]string)
	// Documents holds the files attached to messages; nil leaves them out of the prompt.
	Documents Documents
	// Knowledge is the user's documents to cite; nil: none.
	Knowledge Knowledge
	// System is the system prompt; empty uses DefaultSystemPrompt.
	System string
}

// DefaultSystemPrompt is what the model is told about itself.
const DefaultSystemPrompt = "You are Hermes, a private assistant running entirely on the user's computer. " +
	"Answer clearly and concisely. Use Markdown for code."

// ErrEmptyMessage is returned for a message with no text.
var ErrEmptyMessage = errors.New("the message is empty")

// Input is what the user sent.
type Input struct {
	RequestID string // names the turn in the audit log
	SessionID string // empty starts a new session
	Text      string
	Models    []string // optional override of the configured models
	// Continue resumes a turn the loop guard stopped: no new user message, one more
	// round of tool calls.
	Continue bool
	// Regenerate, with Continue, answers the last shown user message again as a
	// whole new turn (its reply a new version of the one before).
	Regenerate bool
	// OnTool hears every tool call's outcome as it happens (for the UI).
	OnTool func(tools.Outcome)
	// Incognito neither reads nor writes memory.
	Incognito bool
	// System is this turn's system prompt (a chat's own); "" uses the agent's.
	System string
	// Temperature, when set, is sent to the model (a chat's own; nil: the model's default).
	Temperature *float64
	// NumCtx, when > 0, is the context size asked for instead of the Budget's
	// (the budget shrinks or grows with it, keeping the same reply reserve).
	NumCtx int
	// Think is the chat's Think setting (see session.ChatSettings; "": the model decides), read by llm.ParseThink.
	Think string
	// NoImages leaves the images of earlier messages out of the request (the
	// model cannot see them).
	NoImages bool
}

// Result is a finished turn.
type Result struct {
	Session   session.Session
	User      session.Message
	Assistant session.Message
	Plan      Plan
	// Context is what the model saw.
	Context prompt.Context
	// Tools are the outcomes of the turn's tool calls, in order.
	Tools []tools.Outcome
	// Stop is set when the loop guard stopped the turn (the UI offers "continue once").
	Stop *tools.StopReason
	// Unverified is set when the reply claims an action no tool call performed.
	Unverified bool
	// Sources are the passages of the user's documents offered (numbered as
	// cited); BadCitations the numbers the reply cites that none of them has.
	Sources      []Source
	BadCitations []int
	// Recalled are the memories offered to the model.
	Recalled []string
	// Settings are the chat settings the turn ran with.
	Settings TurnSettings
}

// TurnSettings are a turn's chat settings in force.
type TurnSettings struct {
	// System is the chat's own system prompt ("" when the default was used).
	System      string   `json:"system,omitempty"`
	Model       string   `json:"model,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	NumCtx      int      `json:"numCtx,omitempty"`
	Think       string   `json:"think,omitempty"`
}

// Turn runs one turn. The user's message is committed before any of the reply is
// shown or stored, so nothing typed is lost (its commit overlaps the request to the
// model; if it fails, the request is cancelled and the turn fails with nothing
// shown). The reply is stored whatever happens — complete, or partial and marked
// cancelled or failed. On failure both the Result (with what was stored) and the
// error are returned; a cancellation returns the Result and a nil error.
func (a *Agent) Turn(ctx context.Context, in Input, onDelta func(llm.Delta) error) (Result, error) {
	if err := a.check(in); err != nil {
		return Result{}, err
	}
	t := &turn{a: a, in: in, onDelta: onDelta, userStored: func() error { return nil }}
	stop, err := t.open(ctx)
	defer stop()
	if err != nil {
		return t.res, err
	}
	if err := t.buildPrompt(); err != nil {
		return t.res, err
	}
	if err := t.stream(); err != nil {
		return t.res, err
	}
	return t.persist()
}

// UnsavedReplyError is a reply that streamed but could not be stored (the disk
// filled, the data dir went read-only): Reply is the message as it would have
// been stored, for the caller to keep and store again later.
type UnsavedReplyError struct {
	Reply session.Message
	Err   error
}

func (e *UnsavedReplyError) Error() string { return e.Err.Error() }

func (e *UnsavedReplyError) Unwrap() error { return e.Err }

// storedContent is a tool result as the conversation keeps it (tools.StoredResulter).
func storedContent(o tools.Outcome) string {
	if o.StoredContent != "" {
		return o.StoredContent
	}
	return o.Content
}

// toolStatus is how a tool message is marked in the conversation.
func toolStatus(o tools.Outcome) string {
	switch {
	case o.OK():
		return session.StatusOK
	case o.Status == tools.StatusCancelled:
		return session.StatusCancelled
	}
	return session.StatusFailed
}

// lastUser is the session's newest user message (what a continued turn answers).
func (a *Agent) lastUser(ctx context.Context, sessionID string) (session.Message, error) {
	all, err := a.Sessions.Messages(ctx, sessionID)
	if err != nil {
		return session.Message{}, fmt.Errorf("turn: %w", err)
	}
	msgs := session.ChannelOnly(session.Visible(all), session.MainChannel)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i], nil
		}
	}
	return session.Message{}, fmt.Errorf("turn: %w: nothing to continue", session.ErrInvalid)
}

func (a *Agent) session(ctx context.Context, id string) (session.Session, error) {
	if id == "" {
		s, err := a.Sessions.Create(ctx, "")
		if err != nil {
			return s, fmt.Errorf("turn: %w", err)
		}
		return s, nil
	}
	s, err := a.Sessions.Get(ctx, id)
	if err != nil {
		return s, fmt.Errorf("turn: %w", err)
	}
	return s, nil
}

func (a *Agent) classify(ctx context.Context, text string) (string, float32) {
	if a.Classifier == nil {
		return UnknownIntent, 0
	}
	label, conf, err := a.Classifier.Classify(ctx, text)
	if err != nil {
		return UnknownIntent, 0
	}
	return label, conf
}

// SystemPrompt is what the model is told about itself.
func (a *Agent) SystemPrompt() string { return a.systemPrompt() }

func (a *Agent) systemPrompt() string {
	if a.System != "" {
		return a.System
	}
	return DefaultSystemPrompt
}
