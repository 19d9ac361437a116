package app

import (
	"context"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/embed"
	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/memory/memtool"
)

// memoryLoader opens long-term memory on first use: building its vector index from
// SQLite takes time, and most CLI commands never need it.
type memoryLoader struct {
	c    *Core
	once sync.Once
	m    *memory.Store
	err  error
}

func (l *memoryLoader) get() (*memory.Store, error) {
	l.once.Do(func() {
		c := l.c
		l.m, l.err = memory.Open(context.Background(), c.db, memory.Config{
			Embedder: c.embedder(),
			LLM:      settingsLLM{c},
			Models: func() []string {
				s, _ := c.settings.Load(context.Background())
				return s.Models()
			},
			// The half-lives the user set apply at once (settings are cached briefly).
			HalfLives: func() map[string]time.Duration {
				s, _ := c.settings.Load(context.Background())
				return s.MemoryHalfLives
			},
			Verifiers:  toolVerifiers{c},
			OnChange:   func(ch memory.Change) { send(c.emitEvent, evMemoryChanged, ch) },
			OnProgress: func(p memory.Progress) { send(c.emitEvent, evMemoryProgress, p) },
		})
	})
	return l.m, l.err
}

// embedder is the embedding model when Ollama has it (embed_model), else the
// offline one: what long-term memory and the knowledge base embed with. The
// probe asks once: an Ollama not reachable now means the offline embedder.
func (c *Core) embedder() embed.Embedder {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var e embed.Embedder = embed.NewHashed(0)
	if client, s, err := c.llmClient(ctx); err == nil && s.EmbedModel != "" {
		e, _ = embed.Choose(llm.Once(ctx), embed.NewHashed(0), embed.NewOllama(client, s.EmbedModel))
	}
	return e
}

// memoryStore is long-term memory, opened on first use.
func (c *Core) memoryStore() (*memory.Store, error) { return c.memory.get() }

// finishErasures opens long-term memory at once when a bulk erasure a crash
// interrupted is waiting (opening it finishes them, memory.Open), so every door
// finishes it; otherwise memory still opens on first use.
func (c *Core) finishErasures(ctx context.Context) {
	if n, err := memory.UnfinishedErasures(ctx, c.db); err != nil || n == 0 {
		return
	}
	if m, err := c.memoryStore(); err == nil {
		c.resumed = m.Resumed()
	}
}

// ResumedErasures returns the receipts of the bulk erasures a crash had
// interrupted and this open finished (the command line prints them).
func (c *Core) ResumedErasures() []MemoryReceipt { return append([]MemoryReceipt(nil), c.resumed...) }

// RunMemoryJobs processes queued memory work (extraction, reindex) now; the CLI calls
// it before exiting so a fact stated in `hermes chat` is kept.
func (c *Core) RunMemoryJobs(ctx context.Context) (int, error) {
	m, err := c.memoryStore()
	if err != nil {
		return 0, err
	}
	return m.RunJobs(ctx)
}

// RunMemoryWorker processes memory jobs in the background until ctx ends.
func (c *Core) RunMemoryWorker(ctx context.Context) {
	m, err := c.memoryStore()
	if err != nil {
		return
	}
	_ = m.Worker().Run(ctx)
}

// agentMemory adapts memory to the agent.
type agentMemory struct{ c *Core }

func (a agentMemory) Recall(ctx context.Context, q agent.MemoryQuery) ([]string, error) {
	m, err := a.c.memoryStore()
	if err != nil {
		return nil, err
	}
	got, err := m.Recall(ctx, memory.Query{Profile: q.Profile, Text: q.Text, K: q.K, SessionID: q.SessionID, MessageID: q.MessageID})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(got))
	for _, r := range got {
		out = append(out, r.Prompt)
	}
	return out, nil
}

func (a agentMemory) Observe(ctx context.Context, t agent.MemoryTurn) error {
	m, err := a.c.memoryStore()
	if err != nil {
		return err
	}
	_, err = m.Observe(ctx, memory.Turn{Profile: t.Profile, SessionID: t.SessionID, UserMessageID: t.UserMessageID,
		AssistantMessageID: t.AssistantMessageID, UserText: t.UserText, AssistantText: t.AssistantText,
		Intent: t.Plan.Intent, MayWriteMemory: t.Plan.MayWriteMemory, Incognito: t.Incognito})
	return err
}

func (a agentMemory) Scope(ctx context.Context, t agent.MemoryTurn) context.Context {
	return memtool.WithScope(ctx, memtool.Scope{Profile: t.Profile, SessionID: t.SessionID, MessageID: t.UserMessageID,
		UserText: t.UserText, Intent: t.Plan.Intent, MayWriteMemory: t.Plan.MayWriteMemory, Incognito: t.Incognito})
}

// lazyMemoryTools lets the memory tools be registered before memory is opened.
type lazyMemoryTools struct{ c *Core }

func (l lazyMemoryTools) Search(ctx context.Context, profile, query string, k int) ([]memory.Hit, error) {
	m, err := l.c.memoryStore()
	if err != nil {
		return nil, err
	}
	return m.Search(ctx, profile, query, k)
}

func (l lazyMemoryTools) SaveFromTool(ctx context.Context, in memory.ToolSave) (memory.Memory, memory.Decision, error) {
	m, err := l.c.memoryStore()
	if err != nil {
		return memory.Memory{}, memory.Decision{}, err
	}
	return m.SaveFromTool(ctx, in)
}

func (l lazyMemoryTools) Forget(ctx context.Context, ids ...string) (memory.Receipt, error) {
	m, err := l.c.memoryStore()
	if err != nil {
		return memory.Receipt{}, err
	}
	return m.Forget(ctx, ids...)
}
