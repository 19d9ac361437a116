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

// loadingWatch tells the page, once, that the turn's model is being loaded:
// asked of /api/ps while the request goes out, and only when no token has
// arrived by the time the answer comes.
type loadingWatch struct {
	once  sync.Once
	mu    sync.Mutex
	first bool // a token arrived: nothing to announce
}

func (w *loadingWatch) token() {
	w.once.Do(func() {
		w.mu.Lock()
		w.first = true
		w.mu.Unlock()
	})
}

// watch asks Ollama whether in's model is loaded and emits a Loading event
// when it is not and no token has arrived yet.
func (a *App) watchLoading(ctx context.Context, requestID string, in agent.Input, w *loadingWatch) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	model := a.core.turnModel(ctx, in)
	client, _, err := a.core.llmClient(ctx)
	if model == "" || err != nil {
		return
	}
	loaded, err := client.IsLoaded(ctx, model)
	if err != nil || loaded {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.first && ctx.Err() == nil {
		a.emit("chat:status:"+requestID, Loading{State: "loading", Model: model})
	}
}

// turnModel is the model a turn will ask first: the turn's own, the chat's,
// else chat_model.
func (c *Core) turnModel(ctx context.Context, in agent.Input) string {
	in, err := c.withChatSettings(ctx, in)
	if err != nil {
		return ""
	}
	if len(in.Models) > 0 {
		return in.Models[0]
	}
	s, err := c.settings.Load(ctx)
	if err != nil {
		return ""
	}
	return s.ChatModel
}
