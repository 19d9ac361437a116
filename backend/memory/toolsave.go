package memory

import (
	"context"
	"fmt"
)

// ToolSave is a memory the model saves with the memory tool during a turn.
type ToolSave struct {
	// Turn is the turn the model is answering (its user text, plan and scope).
	Turn     Turn
	Text     string
	Key      string
	Value    string
	Category string
}

// SaveFromTool stores what the model saves through the memory tool. It passes the
// same gate as the background extraction, judged on the user's message of the
// turn; it is active only when the user asked to remember, otherwise it waits in
// the inbox. A refused save returns the gate's decision and no error.
func (s *Store) SaveFromTool(ctx context.Context, in ToolSave) (Memory, Decision, error) {
	t := in.Turn
	d := Gate(GateInput{Intent: t.Intent, MayWriteMemory: t.MayWriteMemory, Incognito: t.Incognito, Text: t.UserText, MinSignals: s.cfg.KeyFactSignals})
	if !d.Allowed {
		return Memory{}, d, nil
	}
	f := fact{Profile: t.Profile, SessionID: t.SessionID, Text: in.Text, Key: in.Key, Value: in.Value, Category: in.Category,
		Confidence: 0.9, AssertedBy: AssertedByTool, Origin: OriginTool, Explicit: d.Explicit}
	if t.UserMessageID != "" {
		f.Sources = []string{t.UserMessageID}
	}
	w, err := s.write(ctx, f, nil)
	if err != nil {
		return Memory{}, d, fmt.Errorf("save memory: %w", err)
	}
	s.emitWrite(w, t.SessionID, t.UserMessageID)
	m, err := s.Get(ctx, w.Memory.ID)
	return m, d, err
}
