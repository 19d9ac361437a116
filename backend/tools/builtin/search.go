package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hermes/backend/tools"
)

// SearchHit is one message found in past sessions.
type SearchHit struct {
	SessionID string    `json:"session_id"`
	MessageID string    `json:"message_id"`
	Role      string    `json:"role"`
	Snippet   string    `json:"snippet"`
	Score     float64   `json:"score"`
	CreatedAt time.Time `json:"created_at"`
}

// SearchFunc searches the messages of all sessions, best match first; the
// session package provides it.
type SearchFunc func(ctx context.Context, query string, limit int) ([]SearchHit, error)

// SessionSearch is the session_search tool.
type SessionSearch struct {
	search SearchFunc
}

// NewSessionSearch returns the tool over search.
func NewSessionSearch(search SearchFunc) *SessionSearch { return &SessionSearch{search: search} }

func (*SessionSearch) Name() string { return "session_search" }
func (*SessionSearch) Description() string {
	return "Search the user's past conversations (all sessions, English and Chinese) for messages that match a query. " +
		"Returns snippets with the session, the role and the date, best match first."
}
func (*SessionSearch) Annotations() tools.Annotations { return tools.Annotations{ReadOnly: true} }
func (*SessionSearch) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{
		"query":{"type":"string","minLength":1,"maxLength":500,"description":"words to look for"},
		"limit":{"type":"integer","minimum":1,"maximum":20,"description":"how many messages to return (default 5)"}},
		"required":["query"],"additionalProperties":false}`)
}

// Execute runs the search.
func (s *SessionSearch) Execute(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := tools.ReadArgs("search sessions", args, &in); err != nil {
		return nil, err
	}
	if in.Limit == 0 {
		in.Limit = 5
	}
	hits, err := s.search(ctx, in.Query, in.Limit)
	if err != nil {
		return nil, fmt.Errorf("search sessions for %q: %w", in.Query, err)
	}
	if len(hits) > in.Limit {
		hits = hits[:in.Limit]
	}
	if hits == nil {
		hits = []SearchHit{}
	}
	return tools.JSONResult("search sessions", struct {
		Query string      `json:"query"`
		Hits  []SearchHit `json:"hits"`
	}{in.Query, hits})
}
