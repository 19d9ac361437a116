package app

import (
	"time"

	"hermes/backend/agent"
	"hermes/backend/prompt"
	"hermes/backend/session"
)

// SessionInfo is a conversation in the sidebar.
type SessionInfo struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	// MessageCount is what a person sees: their messages and the replies on the
	// shown path (not tool records, sub-agents' messages or other versions).
	MessageCount int    `json:"messageCount"`
	State        string `json:"state"`
	Pinned       bool   `json:"pinned"`
	// Incognito: kept only while this Hermes runs (erased when it closes).
	Incognito bool `json:"incognito,omitempty"`
	// ProjectID is the project the chat is in (absent: none).
	ProjectID string `json:"projectId,omitempty"`
}

// Message is one message as the UI shows it.
type Message struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionId"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	// Thinking is a reply's reasoning (a thinking model's), shown folded above it.
	Thinking string `json:"thinking,omitempty"`
	Status   string `json:"status"`
	Error    string `json:"error,omitempty"`
	// ErrorCode and ErrorParams word a failed reply's Error in the user's language.
	ErrorCode        string            `json:"errorCode,omitempty"`
	ErrorParams      map[string]string `json:"errorParams,omitempty"`
	Model            string            `json:"model,omitempty"`
	Intent           string            `json:"intent,omitempty"`
	IntentConfidence float32           `json:"intentConfidence"`
	Pinned           bool              `json:"pinned,omitempty"`
	ToolName         string            `json:"toolName,omitempty"`
	CreatedAt        string            `json:"createdAt"`
	// Tool is a tool message's call as its card shows it (absent for older messages).
	Tool *ToolCall `json:"tool,omitempty"`
	// Stop and Unverified are a reply's loop-guard stop and unverified-claim flag.
	Stop       *GuardStop `json:"stop,omitempty"`
	Unverified bool       `json:"unverified,omitempty"`
	// Sources are the passages of the user's documents a reply was offered,
	// numbered as it cites them; BadCitations the numbers it cites that none has.
	Sources      []agent.Source `json:"sources,omitempty"`
	BadCitations []int          `json:"badCitations,omitempty"`
	// Channel is a sub-agent's channel ("" for the conversation's own).
	Channel string `json:"channel,omitempty"`
	// Thread is a delegation's sub-agent messages (on an agent__ tool message).
	Thread []Message `json:"thread,omitempty"`
	// Versions are an edited message's or a regenerated reply's versions.
	Versions *Versions `json:"versions,omitempty"`
	// Figures are a reply's model, tokens, speed and times.
	Figures *agent.Figures `json:"figures,omitempty"`
}

// Versions are the versions of a message: the ids to select each by (oldest
// first) and which one is shown.
type Versions struct {
	Index int      `json:"index"`
	Count int      `json:"count"`
	IDs   []string `json:"ids"`
}

// TurnResult is what SendMessage returns.
type TurnResult struct {
	Session   SessionInfo `json:"session"`
	User      Message     `json:"user"`
	Assistant Message     `json:"assistant"`
	// Tools are the turn's tool calls, in order.
	Tools []ToolCall `json:"tools"`
	// Stop is set when the loop guard stopped the turn ("continue once" resumes it).
	Stop *GuardStop `json:"stop,omitempty"`
	// Unverified flags a reply that claims an action no tool call performed.
	Unverified bool `json:"unverified,omitempty"`
}

// SessionDetail is a conversation with its messages.
type SessionDetail struct {
	Session  SessionInfo `json:"session"`
	Messages []Message   `json:"messages"`
}

// Status is what the status bar shows.
type Status struct {
	Host           string   `json:"host"`
	Reachable      bool     `json:"reachable"`
	Version        string   `json:"version"`
	Model          string   `json:"model"`
	ModelAvailable bool     `json:"modelAvailable"`
	Models         []string `json:"models"`
	Warnings       []Notice `json:"warnings"`
	// Problem and Fix say in English what keeps the chat from working and what to do; Code
	// and Params say the same for the UI to word (app/notice.go).
	Problem string            `json:"problem"`
	Fix     string            `json:"fix"`
	Code    string            `json:"code"`
	Params  map[string]string `json:"params"`
	DataDir string            `json:"dataDir"`
	// OllamaManaged: Hermes started this Ollama and stops it when it exits.
	OllamaManaged bool `json:"ollamaManaged"`
	// Connection is the connection's one state (Conn*, app/connection.go).
	Connection string `json:"connection"`
	// IntentProblem is set when messages cannot be classified (chat still works).
	IntentProblem string            `json:"intentProblem"`
	IntentFix     string            `json:"intentFix"`
	IntentCode    string            `json:"intentCode"`
	IntentParams  map[string]string `json:"intentParams"`
}

// ModelInfo is an installed model for the picker.
type ModelInfo struct {
	Name          string `json:"name"`
	Size          int64  `json:"size"`
	ModifiedAt    string `json:"modifiedAt"`
	ParameterSize string `json:"parameter_size"`
}

// Setting is one editable setting.
type Setting struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

// Delta is the payload of chat:delta:<requestID>.
type Delta struct {
	Text string `json:"text"`
	// Thinking is reasoning streamed meanwhile (a thinking model's), shown apart.
	Thinking string `json:"thinking,omitempty"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func toSessionInfo(s session.Entry) SessionInfo {
	return SessionInfo{ID: s.ID, Title: s.Title, CreatedAt: stamp(s.CreatedAt), UpdatedAt: stamp(s.UpdatedAt), MessageCount: s.Shown,
		State: s.State, Pinned: s.Pinned, Incognito: s.Incognito, ProjectID: s.ProjectID}
}

func toMessage(m session.Message) Message {
	out := Message{ID: m.ID, SessionID: m.SessionID, Role: m.Role, Content: m.Content, Thinking: m.Thinking, Status: m.Status,
		Error: m.Error, Model: m.Model, Intent: m.Intent, IntentConfidence: m.IntentConfidence, Pinned: m.Pinned, ToolName: m.ToolName, CreatedAt: stamp(m.CreatedAt)}
	out.Channel = session.MainChannel
	if m.Channel != "" {
		out.Channel = m.Channel
	}
	switch m.Role {
	case "tool":
		out.Tool = storedToolCall(m)
	case "assistant":
		d := agent.ParseReplyDetails(m.Details)
		out.Stop = guardStop(d.Stop)
		out.Unverified = d.Unverified
		out.Figures = d.Figures
		out.Sources, out.BadCitations = d.Sources, d.BadCitations
		if d.Failure != nil {
			out.ErrorCode, out.ErrorParams = d.Failure.Code, d.Failure.Params
		}
	}
	return out
}

// ToTurnResult converts an agent result.
func ToTurnResult(r agent.Result) TurnResult {
	tr := TurnResult{Session: toSessionInfo(r.Session.Entry()), User: toMessage(r.User), Assistant: toMessage(r.Assistant)}
	addToolInfo(&tr, r)
	return tr
}

// SearchHit is one search result for the sidebar.
type SearchHit struct {
	SessionID    string             `json:"sessionId"`
	SessionTitle string             `json:"sessionTitle"`
	MessageID    string             `json:"messageId"`
	Role         string             `json:"role"`
	Snippet      []session.Fragment `json:"snippet"`
	Score        float64            `json:"score"`
	CreatedAt    string             `json:"createdAt"`
	State        string             `json:"state"`
}

// ToSearchHits converts search results.
func ToSearchHits(hits []session.Hit) []SearchHit {
	out := make([]SearchHit, 0, len(hits))
	for _, h := range hits {
		out = append(out, SearchHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID, Role: h.Role,
			Snippet: h.Snippet, Score: h.Score, CreatedAt: h.CreatedAt, State: h.State})
	}
	return out
}

// ContextItem is one thing the model saw, for the context inspector.
type ContextItem struct {
	Reason    prompt.Reason `json:"reason"`
	Role      string        `json:"role"`
	Preview   string        `json:"preview"`
	Tokens    int           `json:"tokens"`
	MessageID string        `json:"messageId,omitempty"`
	Shortened bool          `json:"shortened,omitempty"`
	// ImageID is the image an item carries (DocumentImage shows it); "" for text.
	ImageID string `json:"imageId,omitempty"`
}

// ContextReport is what the model saw on a turn (by default the session's last).
type ContextReport struct {
	SessionID string `json:"sessionId"`
	// MessageID is the reply the report is for ("" for a live report).
	MessageID string `json:"messageId,omitempty"`
	// QueryID is the user message the turn answered: its recall log (memories
	// kept and dropped) is kept under it.
	QueryID string        `json:"queryId,omitempty"`
	Items   []ContextItem `json:"items"`
	Tokens  int           `json:"tokens"`
	Budget  int           `json:"budget"`
	Dropped int           `json:"dropped"`
	Intent  string        `json:"intent"`
	Plan    PlanInfo      `json:"plan"`
	// Settings are the chat settings the turn ran with (nil: not recorded).
	Settings *TurnSettings `json:"settings,omitempty"`
	// Estimated is the raw estimate Tokens was calibrated from (live reports).
	Estimated int `json:"estimated,omitempty"`
	// Counted is Ollama's count of the prompt (0: not known), Full that it
	// filled the context asked for, so Ollama cut its start.
	Counted int  `json:"counted,omitempty"`
	Full    bool `json:"full,omitempty"`
}

// countedBy sets what Ollama counted of the prompt, from a reply's figures.
func (r *ContextReport) countedBy(f *agent.Figures) {
	if f != nil {
		r.Counted, r.Full = f.PromptTokens, f.ContextFull
	}
}

// TurnSettings are the chat settings in force on a turn: the system prompt
// (Custom when the chat's own), the model, temperature (nil: the model's
// default) and context size asked for.
type TurnSettings struct {
	System      string   `json:"system"`
	Custom      bool     `json:"custom"`
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature"`
	NumCtx      int      `json:"numCtx"`
}

func toTurnSettings(s *agent.TurnSettings, defaultSystem string) *TurnSettings {
	if s == nil {
		return nil
	}
	t := &TurnSettings{System: s.System, Custom: s.System != "", Model: s.Model, Temperature: s.Temperature, NumCtx: s.NumCtx}
	if t.System == "" {
		t.System = defaultSystem
	}
	return t
}

// PlanInfo is the routing decision of a turn.
type PlanInfo struct {
	Intent         string  `json:"intent"`
	Confidence     float32 `json:"confidence"`
	Recall         bool    `json:"recall"`
	RecallK        int     `json:"recallK"`
	MayWriteMemory bool    `json:"mayWriteMemory"`
	ToolGroup      string  `json:"toolGroup"`
}

func toContextReport(sessionID string, r agent.Result) ContextReport {
	c := r.Context
	rep := ContextReport{SessionID: sessionID, MessageID: r.Assistant.ID, QueryID: r.User.ID, Tokens: c.Tokens, Budget: c.Budget, Dropped: c.Dropped, Items: []ContextItem{},
		Intent: r.Plan.Intent, Plan: PlanInfo{Intent: r.Plan.Intent, Confidence: r.Plan.Confidence, Recall: r.Plan.Recall,
			RecallK: r.Plan.RecallK, MayWriteMemory: r.Plan.MayWriteMemory, ToolGroup: string(r.Plan.ToolGroup)}}
	rep.Items = contextItems(c)
	rep.Settings = toTurnSettings(&r.Settings, systemText(c))
	rep.Estimated = c.Estimated
	rep.countedBy(agent.ParseReplyDetails(r.Assistant.Details).Figures)
	return rep
}

// toChannelReport is a channel's window built now (no reply, no routing decision).
func toChannelReport(sessionID string, c prompt.Context) ContextReport {
	return ContextReport{SessionID: sessionID, Tokens: c.Tokens, Budget: c.Budget, Dropped: c.Dropped, Items: contextItems(c)}
}

// systemText is the system prompt a built context holds.
func systemText(c prompt.Context) string {
	for _, it := range c.Items {
		if it.Reason == prompt.ReasonSystem {
			return it.Content
		}
	}
	return ""
}

func contextItems(c prompt.Context) []ContextItem {
	items := []ContextItem{}
	for _, it := range c.Items {
		ci := ContextItem{Reason: it.Reason, Role: it.Role, Preview: preview(it.Content), Tokens: it.Tokens,
			MessageID: it.MessageID, Shortened: it.Shortened}
		if len(it.Images) > 0 {
			ci.ImageID = it.Ref
		}
		items = append(items, ci)
	}
	return items
}
