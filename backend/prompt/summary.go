package prompt

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/llm"
	"hermes/backend/session"
)

// Chatter is the part of the LLM the summarizer needs.
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error)
}

// SummaryStore reads a session and stores its summary.
type SummaryStore interface {
	Get(ctx context.Context, id string) (session.Session, error)
	Messages(ctx context.Context, sessionID string) ([]session.Message, error)
	SetSummary(ctx context.Context, id, summary, kind string, upto int) error
}

// Summarizer keeps a rolling summary of the turns that have left the recent window.
// It is incremental: each refresh folds only the messages after the summary's last
// seq into the previous summary, never the whole history.
type Summarizer struct {
	LLM   Chatter // nil: extractive only
	Store SummaryStore
	// KeepTurns newest turns are never summarized (they are in the prompt verbatim).
	KeepTurns int
	// MinMessages is the smallest batch worth a refresh.
	MinMessages int
}

// Refresh folds messages that left the recent window into the summary. It reports
// whether the summary changed and which kind it is ("llm" or "extractive").
func (s *Summarizer) Refresh(ctx context.Context, sessionID string) (bool, string, error) {
	sess, err := s.Store.Get(ctx, sessionID)
	if err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	// Sequence numbers run 1..MessageCount, so this many messages are not summarized
	// yet; most turns stop here without loading the history.
	if sess.MessageCount-sess.SummaryUpto < s.MinMessages+2*s.KeepTurns {
		return false, "", nil
	}
	msgs, err := s.Store.Messages(ctx, sess.ID)
	if err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	// Find where the kept window starts: the KeepTurns-th newest user message.
	cut := len(msgs)
	for i, turns := len(msgs)-1, 0; i >= 0; i-- {
		if msgs[i].Role == "user" {
			if turns++; turns == s.KeepTurns {
				cut = i
				break
			}
		}
	}
	if s.KeepTurns <= 0 {
		cut = len(msgs)
	}
	var batch []session.Message
	for _, m := range msgs[:cut] {
		if m.Seq > sess.SummaryUpto && m.Content != "" && m.Channel == "main" {
			batch = append(batch, m)
		}
	}
	if len(batch) == 0 || len(batch) < s.MinMessages {
		return false, "", nil
	}
	upto := batch[len(batch)-1].Seq
	summary, kind := "", "llm"
	if s.LLM != nil {
		summary, err = s.fold(ctx, sess.Summary, batch)
	}
	if s.LLM == nil || err != nil || strings.TrimSpace(summary) == "" {
		summary, kind = session.ExtractiveSummary(sess.Summary, batch), "extractive"
	}
	if err := s.Store.SetSummary(ctx, sess.ID, summary, kind, upto); err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	return true, kind, nil
}

const summaryInstruction = "You maintain a running summary of a conversation between a user and an assistant. " +
	"Update the summary with the new messages. Keep facts, decisions, names, numbers, dates and open questions; " +
	"drop small talk. Write at most 12 short bullet points in the language of the conversation. Output only the summary."

func (s *Summarizer) fold(ctx context.Context, previous string, batch []session.Message) (string, error) {
	var b strings.Builder
	if previous != "" {
		b.WriteString("Current summary:\n" + previous + "\n\n")
	}
	b.WriteString("New messages:\n")
	for _, m := range batch {
		content := m.Content
		if r := []rune(content); len(r) > 1500 {
			content = string(r[:1500]) + " […]"
		}
		fmt.Fprintf(&b, "%s: %s\n", m.Role, content)
	}
	reply, err := s.LLM.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{
		{Role: "system", Content: summaryInstruction},
		{Role: "user", Content: b.String()},
	}}, func(llm.Delta) error { return nil })
	if err != nil {
		return "", fmt.Errorf("summarize: %w", err)
	}
	return strings.TrimSpace(reply.Content), nil
}
