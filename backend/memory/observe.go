package memory

import (
	"context"
	"fmt"
	"strings"
)

// Turn is a finished conversation turn handed to memory (docs/architecture.md, "One turn, as data", step 8).
type Turn struct {
	Profile            string
	SessionID          string
	UserMessageID      string
	AssistantMessageID string
	UserText           string
	AssistantText      string
	// Intent and MayWriteMemory come from the turn's plan.
	Intent         string
	MayWriteMemory bool
	Incognito      bool
}

// observation is the payload of an observe job (masked unless the user allows
// sensitive data).
type observation struct {
	Profile       string   `json:"profile"`
	SessionID     string   `json:"session_id"`
	UserMessageID string   `json:"user_message_id"`
	UserText      string   `json:"user_text"`
	AssistantText string   `json:"assistant_text"`
	Explicit      bool     `json:"explicit"`
	Signals       []string `json:"signals"`
	Day           string   `json:"day"`
}

// Observe runs the write gate on a turn and, when it passes, queues the turn for
// extraction by the worker. It returns the gate's decision; nothing is stored when
// the gate refuses (or the turn is incognito).
func (s *Store) Observe(ctx context.Context, t Turn) (Decision, error) {
	d := Gate(GateInput{Intent: t.Intent, MayWriteMemory: t.MayWriteMemory, Incognito: t.Incognito, Text: t.UserText, MinSignals: s.cfg.KeyFactSignals})
	if !d.Allowed {
		return d, nil
	}
	if s.cfg.LLM == nil {
		d.Allowed, d.Reason = false, "memory extraction is off (no model configured)"
		return d, nil
	}
	t.Profile = s.profileOr(t.Profile)
	if err := validProfile(t.Profile); err != nil {
		return d, fmt.Errorf("observe turn: %w", err)
	}
	o := observation{Profile: t.Profile, SessionID: t.SessionID, UserMessageID: t.UserMessageID,
		UserText: strings.TrimSpace(t.UserText), AssistantText: strings.TrimSpace(t.AssistantText),
		Explicit: d.Explicit, Signals: d.Signals, Day: s.now().In(s.cfg.Location).Format("2006-01-02")}
	if !s.currentPolicy().AllowSensitive {
		o.UserText, _ = Mask(o.UserText)
		o.AssistantText, _ = Mask(o.AssistantText)
	}
	if _, err := s.enqueue(ctx, jobObserve, t.Profile, t.SessionID, o); err != nil {
		return d, fmt.Errorf("observe turn: %w", err)
	}
	return d, nil
}
