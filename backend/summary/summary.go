// Package summary is Hermes' one summariser: it keeps a conversation channel's
// rolling summary (the turns that have left the recent window folded,
// incrementally, into a few bullet points by the model, or extractively when it
// cannot), and titles and summarises a conversation when it closes.
package summary

import (
	"context"
	"encoding/json"
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
	reply, err := s.LLM.Chat(ctx, llm.ChatRequest{NoThink: true, Messages: []llm.Message{
		{Role: "system", Content: summaryInstruction},
		{Role: "user", Content: transcript("Current summary", previous, "New messages", batch, 1500)},
	}}, func(llm.Delta) error { return nil })
	if err != nil {
		return "", fmt.Errorf("summarize: %w", err)
	}
	return strings.TrimSpace(reply.Content), nil
}

// transcript is the text a summary is asked of: the previous summary (if any)
// and the messages, each cut to limit runes.
func transcript(previousHead, previous, head string, msgs []session.Message, limit int) string {
	var b strings.Builder
	if previous != "" {
		b.WriteString(previousHead + ":\n" + previous + "\n\n")
	}
	b.WriteString(head + ":\n")
	for _, m := range msgs {
		content := m.Content
		if r := []rune(content); len(r) > limit {
			content = string(r[:limit]) + " […]"
		}
		fmt.Fprintf(&b, "%s: %s\n", m.Role, content)
	}
	return b.String()
}

// closeSchema is the structured output asked of the model when a conversation closes.
var closeSchema = json.RawMessage(`{"type":"object","properties":{
	"title":{"type":"string","description":"3 to 6 words naming the conversation's topic"},
	"summary":{"type":"string","description":"at most 8 short bullet points: facts, decisions, open questions"}},
	"required":["title","summary"]}`)

const closeInstruction = "Give this conversation a short title and a summary, in the conversation's language. Answer with JSON only."

// closeWindow is how many of the newest messages a closing summary reads (with the
// rolling summary of those before).
const closeWindow = 40

// Close titles and summarises a conversation that went idle: the rolling summary
// so far and its newest turns, in one structured answer. Without a model it fails,
// and the caller keeps the extractive summary.
func (s *Summarizer) Close(ctx context.Context, sess session.Session, msgs []session.Message) (summary, title string, err error) {
	if s.LLM == nil {
		return "", "", fmt.Errorf("close session: no model")
	}
	var turns []session.Message
	for _, m := range msgs[max(0, len(msgs)-closeWindow):] {
		if m.Role == "user" || m.Role == "assistant" {
			turns = append(turns, m)
		}
	}
	reply, err := s.LLM.Chat(ctx, llm.ChatRequest{NoThink: true, Format: closeSchema, Messages: []llm.Message{
		{Role: "system", Content: closeInstruction},
		{Role: "user", Content: transcript("Earlier summary", sess.Summary, "Latest messages", turns, 800)},
	}}, func(llm.Delta) error { return nil })
	if err != nil {
		return "", "", fmt.Errorf("close session: %w", err)
	}
	var out struct{ Title, Summary string }
	if err := json.Unmarshal([]byte(reply.Content), &out); err != nil || strings.TrimSpace(out.Summary) == "" {
		return "", "", fmt.Errorf("close session: the model's answer was not the JSON asked for")
	}
	return strings.TrimSpace(out.Summary), session.TitleFrom(out.Title), nil
}
