package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/agent"
	"hermes/backend/memory/memtool"
	"hermes/backend/subagent"
	"hermes/backend/tools"
)

// AgentInfo is a sub-agent as the UI and the CLI see it.
type AgentInfo struct {
	subagent.Definition
	Tool string `json:"tool"` // the main model delegates through this tool
}

// AgentEvent is a sub-agent's progress under the reply (chat:agent:<requestID>).
type AgentEvent struct {
	CallID string    `json:"callId"`
	Agent  string    `json:"agent"`
	Kind   string    `json:"kind"` // start, delta, tool, done, failed
	Task   string    `json:"task,omitempty"`
	Text   string    `json:"text,omitempty"`
	Error  string    `json:"error,omitempty"`
	Tool   *ToolCall `json:"tool,omitempty"`
}

// agents is agents.yaml, the runner and the agent__ tools kept in the registry.
type agents struct {
	catalog *subagent.Catalog
	runner  *subagent.Runner
	tools   generatedTools
	watch   *fileWatch
}

// agentToolTimeout bounds one delegation (its own rounds of model calls and tools).
const agentToolTimeout = 10 * time.Minute

// openAgents wires the sub-agents on the tools engine and the prompt builder,
// offers each enabled one to the model as agent__<name>, and watches agents.yaml.
func (c *Core) openAgents() {
	ag := &agents{catalog: subagent.NewCatalog(filepath.Join(c.dataDir, subagent.FileName))}
	ag.runner = &subagent.Runner{LLM: settingsLLM{c}, Sessions: c.sessions, Prompt: c.prompt, Tools: agentTools{c.tools},
		Memory: agentRecall{c}, Budget: c.budget, AfterRun: c.afterAgentRun}
	c.agents = ag
	c.syncAgentTools()
	ag.watch = startWatch(fileWatchEvery, func() {
		if ag.catalog.Refresh() {
			c.syncAgentTools()
			send(c.emitEvent, evAgentsChanged, nil)
		}
	})
}

func (c *Core) closeAgents() {
	if c.agents != nil {
		c.agents.watch.close()
	}
}

// syncAgentTools registers agent__<name> for each enabled sub-agent and removes
// the ones gone, switched off or changed.
func (c *Core) syncAgentTools() {
	want := map[string]generatedTool{}
	registered := c.tools.reg.List() // once: agents.yaml may declare thousands
	for _, d := range c.agents.catalog.Enabled() {
		t, opts := c.agentTool(d, registered)
		want[d.ToolName()] = generatedTool{def: encodeDef(d), tool: t, opts: opts}
	}
	c.agents.tools.sync(c.tools.reg, want)
	if c.workflows != nil { // a workflow step may name a sub-agent that came or went
		c.workflows.catalog.Reload()
		c.syncWorkflowTools()
	}
}

func encodeDef(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// agentTool is a sub-agent as a tool the main model may call. It is read-only
// (offered with the read-only tools) when every tool it may use (of registered)
// only reads; its own calls ask for approval where their tools do.
func (c *Core) agentTool(d *subagent.Definition, registered []tools.Info) (tools.Tool, []tools.Option) {
	readOnly := true
	var names []string
	for _, in := range registered {
		if d.MayUse(in.Name) {
			names = append(names, in.Name)
			readOnly = readOnly && in.Annotations.ReadOnly && !in.NeedsApproval
		}
	}
	desc := d.Description
	if len(names) > 0 {
		slices.Sort(names)
		desc += fmt.Sprintf(" (a specialist sub-agent; it may use: %s)", strings.Join(names, ", "))
	} else {
		desc += " (a specialist sub-agent without tools)"
	}
	name := d.Name
	t := &tools.Func{ToolName: d.ToolName(), ToolDescription: desc, Params: subagent.ToolParams, Annots: tools.Annotations{ReadOnly: readOnly},
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			return c.delegate(ctx, name, args)
		}}
	groups := []string{tools.GroupTask}
	if readOnly {
		groups = append(groups, tools.GroupReadOnly, tools.GroupMemory)
	}
	return t, []tools.Option{tools.WithGroups(groups...), tools.WithTimeout(agentToolTimeout), tools.WithOwnSchemas()} // subagent.ToolParams is Hermes' own
}

// delegate runs one call of agent__<name>: the sub-agent's own loop in its
// channel of the conversation; its answer is the tool's result.
func (c *Core) delegate(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Task    string `json:"task"`
		Context string `json:"context"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, fmt.Errorf("delegate to %s: %w", name, err)
	}
	d, ok := c.agents.catalog.Get(name)
	if !ok || d.Disabled {
		return nil, fmt.Errorf("delegate to %s: the sub-agent is no longer available", name)
	}
	c.bg.Add(1) // a cancelled turn returns at once; Close waits for the sub-agent to store where it stopped
	defer c.bg.Done()
	call, _ := tools.CallFrom(ctx)
	sc, _ := memtool.ScopeFrom(ctx)
	sid := call.SessionID
	if sid != "" {
		if _, err := c.sessions.Get(ctx, sid); err != nil {
			sid = "" // a run outside a stored conversation
		}
	}
	answer, err := c.agents.runner.Run(ctx, subagent.Task{Def: d, Task: in.Task, Context: in.Context, SessionID: sid,
		RequestID: call.RequestID, CallID: call.CallID, Incognito: sc.Incognito,
		Observe: func(e subagent.Event) { send(c.emitEvent, evAgent.of(call.RequestID), toAgentEvent(e)) }})
	if err != nil {
		if errors.Is(err, subagent.ErrStopped) {
			return nil, fmt.Errorf("%w. Answer the user without this specialist, or give it a narrower task", err)
		}
		return nil, err
	}
	return json.Marshal(struct {
		Agent  string `json:"agent"`
		Answer string `json:"answer"`
	}{name, answer})
}

func toAgentEvent(e subagent.Event) AgentEvent {
	out := AgentEvent{CallID: e.CallID, Agent: e.Agent, Kind: e.Kind, Task: e.Task, Text: e.Text, Error: e.Error}
	if e.Tool != nil {
		tc := toToolCall(*e.Tool)
		out.Tool = &tc
	}
	return out
}

// afterAgentRun refreshes a sub-agent channel's summary in the background.
func (c *Core) afterAgentRun(sessionID, channel string) {
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, _, _ = c.summary.RefreshChannel(ctx, sessionID, channel)
	}()
}

// agentTools is the tools engine as a sub-agent sees it.
type agentTools struct{ t *toolbox }

func (a agentTools) Schemas(allow func(string) bool) api.Tools {
	if a.t.prepare != nil {
		a.t.prepare(agent.ToolsTask) // the CLI starts MCP servers the first time tools are needed
	}
	return a.t.reg.Schemas(func(t tools.Tool) bool { return allow(t.Name()) })
}

func (a agentTools) NewTurn(requestID, sessionID string, allow func(string) bool, maxRounds int) subagent.ToolTurn {
	return a.t.exec.NewTurn(tools.TurnInfo{RequestID: requestID, SessionID: sessionID,
		Allow: func(t tools.Tool) bool { return allow(t.Name()) }, Guard: tools.GuardConfig{MaxIterations: maxRounds}})
}

// agentRecall is memory recall for a sub-agent's task.
type agentRecall struct{ c *Core }

func (r agentRecall) Recall(ctx context.Context, profile, text, sessionID, messageID string, k int) ([]string, error) {
	return agentMemory(r).Recall(ctx, agent.MemoryQuery{Profile: profile, Text: text, SessionID: sessionID, MessageID: messageID, K: k})
}
