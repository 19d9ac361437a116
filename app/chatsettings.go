package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/session"
)

// ChatSettings are one conversation's own settings; an empty field (null
// temperature, 0 context) means the global setting. Defaults says what those are.
type ChatSettings struct {
	SessionID   string        `json:"sessionId"`
	System      string        `json:"system"`
	Model       string        `json:"model"`
	Temperature *float64      `json:"temperature"`
	NumCtx      int           `json:"numCtx"`
	Think       session.Think `json:"think"`
	// Knowledge are the collections the chat may cite: null every one, [] none.
	Knowledge []string     `json:"knowledge"`
	Defaults  ChatDefaults `json:"defaults"`
}

// ChatDefaults are the global settings a chat uses where it has none of its own.
type ChatDefaults struct {
	System string `json:"system"`
	Model  string `json:"model"`
	NumCtx int    `json:"numCtx"`
}

// ChatSettingsInput is a change to a chat's settings (SetSessionSettings' JSON).
// Preset, when set, fills System from that saved system prompt.
type ChatSettingsInput struct {
	System      string        `json:"system"`
	Preset      string        `json:"preset,omitempty"`
	Model       string        `json:"model"`
	Temperature *float64      `json:"temperature"`
	NumCtx      int           `json:"numCtx"`
	Think       session.Think `json:"think"`
	// Knowledge names the collections the chat may cite: absent or null every
	// one, [] none.
	Knowledge []string `json:"knowledge"`
}

// Think is a chat's choice of thinking (session.Think): the command line
// names it through app.
type Think = session.Think

// SystemPreset is a saved system prompt.
type SystemPreset struct {
	Name    string `json:"name"`
	Text    string `json:"text"`
	Builtin bool   `json:"builtin"`
}

// ChatSettings returns a conversation's own settings (by id or ref).
func (c *Core) ChatSettings(ctx context.Context, sessionID string) (ChatSettings, error) {
	s, err := c.sessions.Get(ctx, sessionID)
	if err != nil {
		return ChatSettings{}, err
	}
	cs, err := c.sessions.ChatSettings(ctx, s.ID)
	if err != nil {
		return ChatSettings{}, err
	}
	return c.chatSettingsDTO(ctx, s.ID, cs), nil
}

// chatSettingsDTO is a chat's own settings with the defaults it falls back on:
// its project's where the project sets them, else the global ones.
func (c *Core) chatSettingsDTO(ctx context.Context, id string, cs session.ChatSettings) ChatSettings {
	st, _ := c.settings.Load(ctx)
	d := ChatDefaults{System: c.agent.SystemPrompt(), Model: st.ChatModel, NumCtx: st.ContextWindow}
	if eff, err := c.sessions.EffectiveChatSettings(ctx, id); err == nil {
		if cs.System == "" && eff.System != "" {
			d.System = eff.System
		}
		if cs.Model == "" && eff.Model != "" {
			d.Model = eff.Model
		}
	}
	return ChatSettings{SessionID: id, System: cs.System, Model: cs.Model, Temperature: cs.Temperature, NumCtx: cs.NumCtx,
		Think: cs.Think, Knowledge: c.kb.names(ctx, cs.Knowledge), Defaults: d}
}

// SetChatSettings replaces a conversation's own settings. A model must be an
// installed chat model when Ollama can say which are installed; the temperature
// is 0..2 and the context size within context_window's bounds.
func (c *Core) SetChatSettings(ctx context.Context, sessionID string, in ChatSettingsInput) (ChatSettings, error) {
	s, err := c.sessions.Get(ctx, sessionID)
	if err != nil {
		return ChatSettings{}, err
	}
	cs, err := c.chatSettings(ctx, in)
	if err != nil {
		return ChatSettings{}, err
	}
	if err := c.sessions.SetChatSettings(ctx, s.ID, cs); err != nil {
		return ChatSettings{}, err
	}
	return c.chatSettingsDTO(ctx, s.ID, cs), nil
}

// CheckChatSettings says whether SetChatSettings would take in, without
// storing anything (the command line checks before it starts a conversation).
func (c *Core) CheckChatSettings(ctx context.Context, in ChatSettingsInput) error {
	_, err := c.chatSettings(ctx, in)
	return err
}

// chatSettings are in as stored: the preset's text for System, checked.
func (c *Core) chatSettings(ctx context.Context, in ChatSettingsInput) (session.ChatSettings, error) {
	cs := session.ChatSettings{System: strings.TrimSpace(in.System), Model: strings.TrimSpace(in.Model), Temperature: in.Temperature, NumCtx: in.NumCtx,
		Think: in.Think}
	var err error
	if cs.Knowledge, err = c.kb.ids(ctx, in.Knowledge); err != nil {
		return cs, err
	}
	if in.Preset != "" {
		p, err := c.sessions.Preset(ctx, in.Preset)
		if err != nil {
			return cs, err
		}
		cs.System = p.Text
	}
	if err := cs.Validate(); err != nil {
		return cs, err
	}
	if cs.Model != "" {
		var err error
		if cs.Model, err = c.checkChatModel(ctx, cs.Model); err != nil {
			return cs, err
		}
	}
	return cs, nil
}

// checkChatModel refuses a model that is not an installed chat model, as `model
// use` does; when Ollama cannot list its models now, the name is kept as given.
func (c *Core) checkChatModel(ctx context.Context, name string) (string, error) {
	client, _, err := c.llmClient(ctx)
	if err != nil {
		return name, nil
	}
	models, err := client.ModelDetails(ctx)
	if err != nil {
		return name, nil
	}
	return fitModel(models, name, false, "model") // this chat's own model, not the chat_model setting
}

// SystemPresets lists the saved system prompts.
func (c *Core) SystemPresets(ctx context.Context) ([]SystemPreset, error) {
	ps, err := c.sessions.Presets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SystemPreset, 0, len(ps))
	for _, p := range ps {
		out = append(out, SystemPreset{Name: p.Name, Text: p.Text, Builtin: p.Builtin})
	}
	return out, nil
}

// SaveSystemPreset stores a system prompt under a name (replacing one of that name).
func (c *Core) SaveSystemPreset(ctx context.Context, name, text string) error {
	_, err := c.sessions.SavePreset(ctx, name, text)
	return err
}

// DeleteSystemPreset removes a saved system prompt.
func (c *Core) DeleteSystemPreset(ctx context.Context, name string) error {
	return c.sessions.DeletePreset(ctx, name)
}

// withChatSettings applies the conversation's own settings to a turn: its system
// prompt, model (before the fallbacks), temperature and context size. A model
// given for the turn itself (in.Models) wins over the chat's.
func (c *Core) withChatSettings(ctx context.Context, in agent.Input) (agent.Input, error) {
	if in.SessionID == "" {
		return in, nil
	}
	s, err := c.sessions.Get(ctx, in.SessionID)
	if err != nil {
		return in, nil // the turn reports it
	}
	cs, err := c.sessions.EffectiveChatSettings(ctx, s.ID) // the chat's own, else its project's
	if err != nil {
		return in, err
	}
	if in.System == "" {
		in.System = cs.System
	}
	if in.Temperature == nil {
		in.Temperature = cs.Temperature
	}
	if in.NumCtx == 0 {
		in.NumCtx = cs.NumCtx // the model's own limit applies when smaller (Core.budget)
	}
	if in.Think == "" {
		in.Think = string(cs.Think)
	}
	if len(in.Models) == 0 && cs.Model != "" {
		st, err := c.settings.Load(ctx)
		if err != nil {
			return in, err
		}
		st.ChatModel = cs.Model
		in.Models = st.Models()
	}
	return in, nil
}

// SessionSettings returns a conversation's own settings (system prompt, model,
// temperature, context size) and the global defaults they override.
func (a *ChatService) SessionSettings(sessionID string) (ChatSettings, error) {
	ctx := context.Background()
	cs, err := a.core.ChatSettings(ctx, sessionID)
	return cs, a.core.userErr(ctx, err)
}

// SetSessionSettings replaces a conversation's own settings from a JSON object
// {"system","preset"?,"model","temperature","numCtx"}; empty fields use the globals.
//
//bindgen:json settingsJSON ChatSettingsInput
func (a *ChatService) SetSessionSettings(sessionID, settingsJSON string) (ChatSettings, error) {
	ctx := context.Background()
	var in ChatSettingsInput
	dec := json.NewDecoder(strings.NewReader(settingsJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return ChatSettings{}, a.core.userErr(ctx, fmt.Errorf("%w: the settings are not a JSON object of system, model, temperature and numCtx: %v", session.ErrInvalid, err))
	}
	cs, err := a.core.SetChatSettings(ctx, sessionID, in)
	if err != nil {
		return ChatSettings{}, a.core.userErr(ctx, err)
	}
	a.contexts.forget(cs.SessionID) // the inspector shows the settings in force
	return cs, nil
}

// SystemPresets lists the saved system prompts (built-in ones first).
func (a *ChatService) SystemPresets() ([]SystemPreset, error) {
	ctx := context.Background()
	ps, err := a.core.SystemPresets(ctx)
	return ps, a.core.userErr(ctx, err)
}

// SaveSystemPreset saves a system prompt under a name and returns the presets.
func (a *ChatService) SaveSystemPreset(name, text string) ([]SystemPreset, error) {
	ctx := context.Background()
	if err := a.core.SaveSystemPreset(ctx, name, text); err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	return a.SystemPresets()
}

// DeleteSystemPreset removes a saved system prompt and returns the presets left.
func (a *ChatService) DeleteSystemPreset(name string) ([]SystemPreset, error) {
	ctx := context.Background()
	if err := a.core.DeleteSystemPreset(ctx, name); err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	return a.SystemPresets()
}
