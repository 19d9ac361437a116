package app

import (
	"time"

	"hermes/backend/agent"
	"hermes/backend/session"
)

// SessionInfo is a conversation in the sidebar.
type SessionInfo struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	MessageCount int    `json:"messageCount"`
}

// Message is one message as the UI shows it.
type Message struct {
	ID               string  `json:"id"`
	SessionID        string  `json:"sessionId"`
	Role             string  `json:"role"`
	Content          string  `json:"content"`
	Status           string  `json:"status"`
	Error            string  `json:"error,omitempty"`
	Model            string  `json:"model,omitempty"`
	Intent           string  `json:"intent,omitempty"`
	IntentConfidence float32 `json:"intentConfidence,omitempty"`
	CreatedAt        string  `json:"createdAt"`
}

// TurnResult is what SendMessage returns.
type TurnResult struct {
	Session   SessionInfo `json:"session"`
	User      Message     `json:"user"`
	Assistant Message     `json:"assistant"`
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
	Warnings       []string `json:"warnings"`
	Problem        string   `json:"problem"`
	Fix            string   `json:"fix"`
	DataDir        string   `json:"dataDir"`
}

// ModelInfo is an installed model for the picker.
type ModelInfo struct {
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	ModifiedAt string `json:"modifiedAt"`
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
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func toSessionInfo(s session.Session) SessionInfo {
	return SessionInfo{ID: s.ID, Title: s.Title, CreatedAt: stamp(s.CreatedAt), UpdatedAt: stamp(s.UpdatedAt), MessageCount: s.MessageCount}
}

func toMessage(m session.Message) Message {
	return Message{ID: m.ID, SessionID: m.SessionID, Role: m.Role, Content: m.Content, Status: m.Status, Error: m.Error,
		Model: m.Model, Intent: m.Intent, IntentConfidence: m.IntentConfidence, CreatedAt: stamp(m.CreatedAt)}
}

// ToTurnResult converts an agent result.
func ToTurnResult(r agent.Result) TurnResult {
	return TurnResult{Session: toSessionInfo(r.Session), User: toMessage(r.User), Assistant: toMessage(r.Assistant)}
}
