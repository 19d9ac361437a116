package subagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/tools"
)

// LLM streams a chat reply.
type LLM interface {
	Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error)
}

// Sessions stores the sub-agent's channel of the conversation.
type Sessions interface {
	Get(ctx context.Context, id string) (session.Session, error)
	History(ctx context.Context, s session.Session) ([]session.Message, error)
	Append(ctx context.Context, m session.Message) (session.Message, error)
	// Prepare checks a message and gives it its id and time without storing it.
	Prepare(m session.Message) (session.Message, error)
	ChannelSummary(ctx context.Context, sessionID, channel string) (summary string, upto int, err error)
}

// PromptBuilder builds a channel's window (the main agent's builder).
type PromptBuilder interface {
	Build(ctx context.Context, in prompt.Input) prompt.Context
}

// Tools are the tools engine as a sub-agent sees it: only what its definition allows.
type Tools interface {
	Schemas(allow func(name string) bool) api.Tools
	NewTurn(requestID, sessionID string, allow func(name string) bool, maxRounds int) ToolTurn
}

// ToolTurn runs the calls of the sub-agent's loop under its own loop guard.
type ToolTurn interface {
	RunAll(ctx context.Context, calls []llm.ToolCall) ([]tools.Outcome, *tools.StopReason)
}

// Recaller finds memories for a task (read-only).
type Recaller interface {
	Recall(ctx context.Context, profile, text, sessionID, messageID string, k int) ([]string, error)
}

// Runner runs sub-agents. Memory and Budget may be nil.
type Runner struct {
	LLM      LLM
	Sessions Sessions
	Prompt   PromptBuilder
	Tools    Tools
	Memory   Recaller
	Budget   agent.Budget // nil: agent.DefaultBudget
	// AfterRun hears that a channel's window dropped messages (its summary needs a refresh).
	AfterRun func(sessionID, channel string)
}

// Task is one delegation.
type Task struct {
	Def       *Definition
	Task      string
	Context   string // what the main agent chose to pass along
	SessionID string // "" runs without storing anything (e.g. outside a conversation)
	RequestID string // the main turn's id (the audit log names the sub-agent's calls under it)
	CallID    string // the main model's call of agent__<name>
	Incognito bool   // no recall
	Observe   func(Event)
}

// Event is the sub-agent's progress, for the UI's thread under the reply.
type Event struct {
	CallID string         `json:"callId"`
	Agent  string         `json:"agent"`
	Kind   string         `json:"kind"` // start, delta, tool, done, failed
	Task   string         `json:"task,omitempty"`
	Text   string         `json:"text,omitempty"`
	Error  string         `json:"error,omitempty"`
	Tool   *tools.Outcome `json:"-"`
}

// ErrStopped is a sub-agent stopped by its loop guard.
var ErrStopped = errors.New("stopped by its loop guard")

// recallK is how many memories a sub-agent with memory read is offered.
const recallK = 5

// Run runs the sub-agent's own loop and returns its final answer. Its messages
// are stored in the conversation under its channel; the main channel keeps only
// the delegation (the caller's tool call) and this answer (its result).
func (r *Runner) Run(ctx context.Context, t Task) (string, error) {
	d := t.Def
	emit := func(e Event) {
		if t.Observe != nil {
			e.CallID, e.Agent = t.CallID, d.Name
			t.Observe(e)
		}
	}
	query := t.Task
	if strings.TrimSpace(t.Context) != "" {
		query += "\n\nContext:\n" + t.Context
	}
	emit(Event{Kind: "start", Task: t.Task})
	store := r.store(t)

	var sess session.Session
	var history []session.Message
	if t.SessionID != "" {
		var err error
		if sess, err = r.Sessions.Get(ctx, t.SessionID); err != nil {
			return "", r.fail(emit, fmt.Errorf("run agent %s: %w", d.Name, err))
		}
		if history, err = r.Sessions.History(ctx, sess); err != nil {
			return "", r.fail(emit, fmt.Errorf("run agent %s: %w", d.Name, err))
		}
	}
	// The task commits while the window is built and the model is asked; nothing
	// else of the run is stored (or recalled against it) before it has.
	taskMsg, taskStored, err := r.storeInBackground(t, session.Message{Role: "user", Content: query})
	if err != nil {
		return "", r.fail(emit, err)
	}
	store = afterTask(store, taskStored)

	req := llm.ChatRequest{}
	if d.Model != "" {
		req.Models = []string{d.Model}
	}
	pin := prompt.Input{System: d.System, Query: query, History: history, Channel: d.Name}
	var numCtx int
	pin.Budget, numCtx, _, pin.RecentTurns = r.Budget.Of(ctx, req.Models, 0)
	if numCtx > 0 {
		req.Options = map[string]any{"num_ctx": numCtx}
	}
	if t.SessionID != "" {
		pin.Summary, pin.SummaryUpto, _ = r.Sessions.ChannelSummary(ctx, t.SessionID, d.Name)
	}
	if r.Memory != nil && d.Memory == MemoryRead && !t.Incognito {
		if err := taskStored(); err != nil {
			return "", r.fail(emit, err)
		}
		if mems, err := r.Memory.Recall(ctx, sess.Profile, t.Task, t.SessionID, taskMsg.ID, recallK); err == nil {
			pin.Memories = mems
		}
	}
	allow := d.MayUse
	var offered api.Tools
	if len(d.Tools) > 0 && r.Tools != nil {
		offered = r.Tools.Schemas(allow)
	}
	pin.ToolSchemas = agent.SchemaTexts(offered) // counted in its window
	built := r.Prompt.Build(ctx, pin)
	req.Messages = agent.ChatMessages(built)
	var turn ToolTurn
	if len(offered) > 0 {
		req.Tools = agent.Fitted(offered, pin.ToolSchemas, built)
		turn = r.Tools.NewTurn(t.RequestID+"/"+d.Name, t.SessionID, allow, d.Rounds())
	}

	answer, runErr := r.loop(ctx, &req, turn, t.CallID, emit, store)
	out := session.Message{Role: "assistant", Content: answer, Model: firstModel(req.Models), Status: session.StatusOK}
	switch {
	case runErr != nil && ctx.Err() != nil:
		out.Status = session.StatusCancelled
	case runErr != nil:
		out.Status, out.Error = session.StatusFailed, runErr.Error()
	}
	if _, err := store(out); err != nil {
		return "", r.fail(emit, errors.Join(err, runErr))
	}
	if runErr != nil {
		return "", r.fail(emit, fmt.Errorf("agent %s: %w", d.Name, runErr))
	}
	if built.Dropped > 0 && r.AfterRun != nil && t.SessionID != "" {
		r.AfterRun(t.SessionID, d.Name)
	}
	emit(Event{Kind: "done", Text: answer})
	return answer, nil
}

// loop runs the agents' one loop (agent.Loop) with the sub-agent's stages:
// its answer is the last round's text, each piece and tool result goes to its
// thread, and a tool result is stored in its channel.
func (r *Runner) loop(ctx context.Context, req *llm.ChatRequest, turn ToolTurn, callID string, emit func(Event),
	store func(session.Message) (session.Message, error)) (string, error) {
	var text strings.Builder
	loop := agent.Loop{LLM: r.LLM,
		Ask: func(int) { text.Reset() },
		Delta: func(dl llm.Delta) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			text.WriteString(dl.Content)
			if dl.Content != "" {
				emit(Event{Kind: "delta", Text: dl.Content})
			}
			return nil
		},
		Result: func(o tools.Outcome) error {
			emit(Event{Kind: "tool", Tool: &o})
			_, err := store(agent.ToolMessage(o, callID))
			return err
		}}
	if turn != nil {
		loop.Tools = turn
	}
	end, err := loop.Run(ctx, req)
	switch {
	case err != nil:
		return text.String(), err
	case end.Stop != nil:
		return text.String(), fmt.Errorf("%w: %s", ErrStopped, end.Stop.Message)
	}
	return text.String(), end.ChatErr
}

// store returns how the run keeps a message of its channel (nothing outside a session).
func (r *Runner) store(t Task) func(session.Message) (session.Message, error) {
	details, _ := json.Marshal(session.Links{Delegation: t.CallID})
	return func(m session.Message) (session.Message, error) {
		if t.SessionID == "" {
			return m, nil
		}
		m.SessionID, m.Channel = t.SessionID, t.Def.Name
		if m.Role != "tool" { // a tool message keeps its call's details, the delegation among them
			m.Details = string(details)
		}
		stored, err := r.Sessions.Append(context.WithoutCancel(context.Background()), m)
		if err != nil {
			return m, fmt.Errorf("run agent %s: store message: %w", t.Def.Name, err)
		}
		return stored, nil
	}
}

// storeInBackground gives m its id now and stores it on another goroutine;
// stored waits for it (nothing is stored outside a session).
func (r *Runner) storeInBackground(t Task, m session.Message) (session.Message, func() error, error) {
	if t.SessionID == "" {
		return m, func() error { return nil }, nil
	}
	m.SessionID = t.SessionID
	m, err := r.Sessions.Prepare(m)
	if err != nil {
		return m, nil, fmt.Errorf("run agent %s: %w", t.Def.Name, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.store(t)(m)
		done <- err
	}()
	var once sync.Once
	var stored error
	return m, func() error {
		once.Do(func() { stored = <-done })
		return stored
	}, nil
}

// afterTask stores a message only once the task has been stored.
func afterTask(store func(session.Message) (session.Message, error), taskStored func() error) func(session.Message) (session.Message, error) {
	return func(m session.Message) (session.Message, error) {
		if err := taskStored(); err != nil {
			return m, err
		}
		return store(m)
	}
}

// fail reports err as the run's end.
func (r *Runner) fail(emit func(Event), err error) error {
	emit(Event{Kind: "failed", Error: err.Error()})
	return err
}

func firstModel(models []string) string {
	if len(models) > 0 {
		return models[0]
	}
	return ""
}
