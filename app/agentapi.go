package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/subagent"
)

// AgentsService is the sub-agents as the window and web mode call them (the
// Agents panel, a chat's channels): one bound service of its own beside App.
//
//bindgen:bound
type AgentsService struct {
	core *Core
}

// toMessages are a conversation's messages as the chat shows them: the main
// channel, each delegation's sub-agent messages as the thread of its tool message.
func toMessages(all []session.Message) []Message {
	msgs := session.Visible(all)
	branches := session.NewBranches(all)
	out := make([]Message, 0, len(msgs))
	threads := map[string][]Message{} // delegation call id -> its sub-agent messages
	for _, m := range msgs {
		if session.InChannel(m, session.MainChannel) {
			dto := toMessage(m)
			if m.Role == "user" || m.Role == "assistant" {
				dto.Versions = versionsOf(branches, m.ID)
			}
			out = append(out, dto)
			continue
		}
		if id := session.DelegationOf(m); id != "" {
			threads[id] = append(threads[id], toMessage(m))
		}
	}
	for i := range out {
		if t := out[i].Tool; t != nil && t.CallID != "" && strings.HasPrefix(t.Tool, subagent.ToolPrefix) {
			out[i].Thread = threads[t.CallID]
		}
	}
	return out
}

func versionsOf(b session.Branches, id string) *Versions {
	ids, shown := b.Versions(id)
	if ids == nil {
		return nil
	}
	return &Versions{Index: shown, Count: len(ids), IDs: ids}
}

// Errors of the agent commands.
var (
	// ErrNoAgent: no sub-agent of that name.
	ErrNoAgent = subagent.ErrNotFound
)

// IsAgentBadInput reports whether err is the user's request being refused (an
// unknown agent, a definition that breaks a rule, deleting a built-in): exit 2.
func IsAgentBadInput(err error) bool {
	return errors.Is(err, subagent.ErrInvalid) || errors.Is(err, subagent.ErrNotFound) || errors.Is(err, subagent.ErrBuiltin)
}

// Agents lists the sub-agents (switched-off ones too) and the mistakes in agents.yaml.
func (c *Core) Agents() ([]AgentInfo, []error) {
	list, errs := c.agents.catalog.List()
	out := make([]AgentInfo, 0, len(list))
	for _, d := range list {
		info := AgentInfo{Definition: *d, Tool: d.ToolName()}
		if info.Tools == nil {
			info.Tools = []string{}
		}
		out = append(out, info)
	}
	return out, errs
}

// AgentFile is the path of agents.yaml.
func (c *Core) AgentFile() string { return c.agents.catalog.Path() }

// SaveAgent adds a sub-agent to agents.yaml, or replaces the one named original.
func (c *Core) SaveAgent(d subagent.Definition, original string) (AgentInfo, error) {
	if err := subagent.Save(c.AgentFile(), d, original); err != nil {
		return AgentInfo{}, err
	}
	c.reloadAgents()
	got, ok := c.agents.catalog.Get(d.Name)
	if !ok {
		return AgentInfo{}, fmt.Errorf("save agent %s: it did not load (see `hermes agent list`)", d.Name)
	}
	return AgentInfo{Definition: *got, Tool: got.ToolName()}, nil
}

// DeleteAgent removes a sub-agent from agents.yaml.
func (c *Core) DeleteAgent(name string) error {
	if err := subagent.Delete(c.AgentFile(), name); err != nil {
		return err
	}
	c.reloadAgents()
	return nil
}

// SetAgentEnabled switches a sub-agent on or off.
func (c *Core) SetAgentEnabled(name string, on bool) error {
	if _, ok := c.agents.catalog.Get(name); !ok {
		return fmt.Errorf("%w: %q; `hermes agent list` names them", subagent.ErrNotFound, name)
	}
	if err := subagent.SetEnabled(c.AgentFile(), name, on); err != nil {
		return err
	}
	c.reloadAgents()
	return nil
}

func (c *Core) reloadAgents() {
	c.agents.catalog.Refresh()
	c.syncAgentTools()
	send(c.emitEvent, evAgentsChanged, nil)
}

// ChannelContext builds the window a channel's next turn starts from, as its
// turns build it: the main channel with the chat's own system prompt and model,
// a sub-agent's from its channel only, with its definition's.
func (c *Core) ChannelContext(ctx context.Context, sessionID, channel string) (PromptContext, error) {
	var w chatWindowSettings
	if channel == "" || channel == session.MainChannel {
		channel = session.MainChannel
		w = c.chatWindow(ctx, sessionID)
	} else {
		d, ok := c.agents.catalog.Get(channel)
		if !ok {
			return prompt.Context{}, fmt.Errorf("%w: %q; `hermes agent list` names them", subagent.ErrNotFound, channel)
		}
		w = chatWindowSettings{system: d.System, models: modelsOf(d)}
	}
	budget, _, _, recent := c.budget(ctx, w.models, w.numCtx)
	return agent.NextWindow(ctx, c.sessions, c.prompt, agent.WindowSpec{SessionID: sessionID, Channel: channel,
		System: w.system, Budget: budget, RecentTurns: recent})
}

func modelsOf(d *subagent.Definition) []string {
	if d.Model == "" {
		return nil
	}
	return []string{d.Model}
}

// SessionChannels lists the channels of a conversation that have messages, main first.
func (c *Core) SessionChannels(ctx context.Context, sessionID string) ([]string, error) {
	msgs, err := c.sessions.Messages(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return session.Channels(msgs), nil
}

// Agent methods of the UI.

// ListAgents lists the sub-agents.
func (a *AgentsService) ListAgents() ([]AgentInfo, error) {
	list, _ := a.core.Agents()
	return list, nil
}

// AgentProblems lists the mistakes in agents.yaml, one line each.
func (a *AgentsService) AgentProblems() ([]string, error) {
	_, errs := a.core.Agents()
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out, nil
}

// AgentFile is the path of agents.yaml.
func (a *AgentsService) AgentFile() (string, error) { return a.core.AgentFile(), nil }

// SaveAgent adds (original "") or replaces a sub-agent from the form's JSON.
//
// The window's form does not edit the on/off switch (SetAgentEnabled does): an
// agent it edits keeps the switch as it was.
func (a *AgentsService) SaveAgent(original string, d subagent.Definition) (AgentInfo, error) {
	if cur, ok := a.core.agents.catalog.Get(original); ok && original != "" {
		d.Disabled = cur.Disabled
	}
	info, err := a.core.SaveAgent(d, original)
	return info, a.agentErr(err)
}

// DeleteAgent removes a sub-agent from agents.yaml.
func (a *AgentsService) DeleteAgent(name string) error { return a.agentErr(a.core.DeleteAgent(name)) }

// SetAgentEnabled switches a sub-agent on or off.
func (a *AgentsService) SetAgentEnabled(name string, on bool) error {
	return a.agentErr(a.core.SetAgentEnabled(name, on))
}

// SessionChannels lists a conversation's channels ("main" first).
func (a *AgentsService) SessionChannels(sessionID string) ([]string, error) {
	ctx := context.Background()
	ch, err := a.core.SessionChannels(ctx, sessionID)
	return ch, a.core.userErr(ctx, err)
}

// ChannelContext is the window a channel's next turn would be built from.
func (a *AgentsService) ChannelContext(sessionID, channel string) (ContextReport, error) {
	ctx := context.Background()
	pc, err := a.core.ChannelContext(ctx, sessionID, channel)
	if err != nil {
		return ContextReport{}, a.agentErr(err)
	}
	return toChannelReport(sessionID, pc), nil
}

// agentErr keeps the agents file's own messages (they name the line and field).
func (a *AgentsService) agentErr(err error) error {
	if err != nil && IsAgentBadInput(err) {
		return &UserError{Message: err.Error(), Err: err}
	}
	return a.core.userErr(context.Background(), err)
}
