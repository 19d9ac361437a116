package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hermes/backend/llm"
	"hermes/backend/session"
)

// closeSchema is the structured output asked of the model when a conversation closes.
var closeSchema = json.RawMessage(`{"type":"object","properties":{
	"title":{"type":"string","description":"3 to 6 words naming the conversation's topic"},
	"summary":{"type":"string","description":"at most 8 short bullet points: facts, decisions, open questions"}},
	"required":["title","summary"]}`)

// closeHook asks the model for a title and summary of a conversation that went idle.
func (c *Core) closeHook(ctx context.Context, s session.Session, msgs []session.Message) (string, string, error) {
	if ctx.Value(noModelKey{}) != nil {
		return "", "", fmt.Errorf("close session: no model answers")
	}
	var b strings.Builder
	if s.Summary != "" {
		b.WriteString("Earlier summary:\n" + s.Summary + "\n\nLatest messages:\n")
	}
	start := max(0, len(msgs)-40)
	for _, m := range msgs[start:] {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		r := []rune(m.Content)
		if len(r) > 800 {
			r = append(r[:800], '…')
		}
		fmt.Fprintf(&b, "%s: %s\n", m.Role, string(r))
	}
	reply, err := settingsLLM{c}.Chat(ctx, llm.ChatRequest{Format: closeSchema, Messages: []llm.Message{
		{Role: "system", Content: "Give this conversation a short title and a summary, in the conversation's language. Answer with JSON only."},
		{Role: "user", Content: b.String()},
	}}, func(llm.Delta) error { return nil })
	if err != nil {
		return "", "", err
	}
	var out struct{ Title, Summary string }
	if err := json.Unmarshal([]byte(reply.Content), &out); err != nil || strings.TrimSpace(out.Summary) == "" {
		return "", "", fmt.Errorf("close session: the model's answer was not the JSON asked for")
	}
	title := session.TitleFrom(out.Title)
	return strings.TrimSpace(out.Summary), title, nil
}

// Sweep applies the session lifecycle once: idle after idle_timeout (summarized and
// titled), archived a week later.
func (c *Core) Sweep(ctx context.Context) (int, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return 0, err
	}
	lc := &session.Lifecycle{Store: c.sessions, IdleAfter: s.IdleTimeout, ArchiveAfter: s.ArchiveAfter, Close: c.closeHook,
		Archived: func(ctx context.Context, id string) {
			if m, err := c.memoryStore(); err == nil {
				m.EndSession(ctx, id)
			}
		}}
	return lc.Sweep(ctx, c.sessions.Now())
}

// sweepAtOpen applies the due lifecycle work whenever a data dir is opened,
// from any door, in the background (Close waits for it briefly). The model
// titles and summarises only when an Ollama already answers; otherwise the
// extractive summary serves, as when Ollama is away.
func (c *Core) sweepAtOpen() {
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s, err := c.settings.Load(ctx)
		if err != nil {
			return
		}
		if !c.answers(s.OllamaHost)(ctx) {
			ctx = context.WithValue(ctx, noModelKey{}, true)
		}
		_, _ = c.Sweep(ctx)
	}()
}

// noModelKey marks a sweep that must not ask the model (nor start Ollama).
type noModelKey struct{}

// RunMaintenance sweeps now and then every interval until ctx ends (desktop and
// web mode), and scrubs the file after erasures that could not be checkpointed
// at once (another process was reading): "scrub:done" tells the UI.
func (c *Core) RunMaintenance(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_, _ = c.Sweep(ctx)
		c.retryScrubs(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// retryScrubs completes erasures that wait for a checkpoint.
func (c *Core) retryScrubs(ctx context.Context) {
	if ids, err := c.db.RetryScrubs(ctx); err == nil && len(ids) > 0 {
		c.emitEvent("scrub:done", ids)
	}
}
