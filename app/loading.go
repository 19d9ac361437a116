package app

import (
	"context"
	"sync"
	"time"

	"hermes/backend/agent"
)

// Loading is a chat:status:<requestID> event: Ollama is loading Model into
// memory before it can answer (the first reply after it started, or after
// keep_alive let the model go); the reply shows "Loading MODEL…" until its
// first token.
type Loading struct {
	State string `json:"state"` // "loading"
	Model string `json:"model"`
}

// loadingGrace is how long a turn waits for its first token before it asks
// whether the model is being loaded: a model that answers at once is never
// announced (no flash of "Loading…"), and a load takes seconds.
const loadingGrace = 250 * time.Millisecond

// loadingWatch tells the page, once, that the turn's model is being loaded:
// when no token has come within loadingGrace and /api/ps does not list the
// model.
type loadingWatch struct {
	once  sync.Once
	first chan struct{} // closed at the first token
}

func newLoadingWatch() *loadingWatch { return &loadingWatch{first: make(chan struct{})} }

func (w *loadingWatch) token() { w.once.Do(func() { close(w.first) }) }

// watchLoading emits a Loading event for in's model when it is still loading.
func (a *ChatService) watchLoading(ctx context.Context, requestID string, in agent.Input, w *loadingWatch) {
	select {
	case <-w.first:
		return
	case <-ctx.Done():
		return
	case <-time.After(loadingGrace):
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	model := a.core.turnModel(ctx, in)
	client, _, err := a.core.llmClient(ctx)
	if model == "" || err != nil {
		return
	}
	if loaded, err := client.IsLoaded(ctx, model); err != nil || loaded {
		return
	}
	select {
	case <-w.first: // the answer began meanwhile
	default:
		send(a.emit, evLoading.of(requestID), Loading{State: "loading", Model: model})
	}
}

// turnModel is the model a turn will ask first: the turn's own, the chat's,
// else chat_model.
func (c *Core) turnModel(ctx context.Context, in agent.Input) string {
	in, err := c.withChatSettings(ctx, in)
	if err != nil {
		return ""
	}
	return c.firstModel(ctx, in)
}

// firstModel is the model of a turn whose chat settings are applied: the
// turn's own (or the chat's), else chat_model.
func (c *Core) firstModel(ctx context.Context, in agent.Input) string {
	if len(in.Models) > 0 {
		return in.Models[0]
	}
	s, err := c.settings.Load(ctx)
	if err != nil {
		return ""
	}
	return s.ChatModel
}
