// Package summary keeps a conversation channel's rolling summary: the turns that
// have left the recent window folded, incrementally, into a few bullet points by
// the model (or extractively when it cannot).
package summary

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
	// ChannelSummary and SetChannelSummary read and store a channel's summary (the
	// main channel's is the session's own).
	ChannelSummary(ctx context.Context, sessionID, channel string) (summary string, upto int, err error)
	SetChannelSummary(ctx context.Context, sessionID, channel, summary, kind string, upto int) error
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

// Refresh folds messages of the main channel that left the recent window into the
// session's summary. It reports whether the summary changed and which kind it is
// ("llm" or "extractive").
func (s *Summarizer) Refresh(ctx context.Context, sessionID string) (bool, string, error) {
	return s.RefreshChannel(ctx, sessionID, session.MainChannel)
}

// RefreshChannel is Refresh for one channel (a sub-agent's window is summarised
// on its own).
func (s *Summarizer) RefreshChannel(ctx context.Context, sessionID, channel string) (bool, string, error) {
	sess, err := s.Store.Get(ctx, sessionID)
	if err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	previous, done := sess.Summary, sess.SummaryUpto
	if channel == session.MainChannel {
		// Sequence numbers run 1..MessageCount, so at most this many messages are not
		// summarized yet; most turns stop here without loading the history.
		if sess.MessageCount-sess.SummaryUpto < s.MinMessages+2*s.KeepTurns {
			return false, "", nil
		}
	} else if previous, done, err = s.Store.ChannelSummary(ctx, sess.ID, channel); err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	all, err := s.Store.Messages(ctx, sess.ID)
	if err != nil {
		return false, "", fmt.Errorf("refresh summary: %w", err)
	}
	msgs := session.ChannelOnly(session.Visible(all), channel) // the shown branch
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
		if m.Seq > done && m.Content != "" {
			batch = append(batch, m)
		}
	}
	if len(batch) == 0 || len(batch) < s.MinMessages {
		return false, "", nil
	}
	upto := batch[len(batch)-1].Seq
	summary, kind := "", "llm"
	if s.LLM != nil {
		summary, err = s.fold(ctx, previous, batch)
	}
	if s.LLM == nil || err != nil || strings.TrimSpace(summary) == "" {
		summary, kind = session.ExtractiveSummary(previous, batch), "extractive"
	}
	if err := s.Store.SetChannelSummary(ctx, sess.ID, channel, summary, kind, upto); err != nil {
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
