// Package app is the facade the desktop window, the web mode and the CLI share. It
// holds the one composition root (Open), the Wails-bound App methods, their DTOs,
// events, and the mapping of errors to user messages. It has no SQL and no
// business logic.
package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/session"
	"hermes/backend/store"
)

// Options configure Open.
type Options struct {
	DataDir string              // resolved data directory
	Getenv  func(string) string // environment; nil uses os.Getenv
}

// Core is everything wired together: the composition root.
type Core struct {
	DataDir  string
	DB       *store.DB
	Settings *config.Store
	Sessions *session.Store
	Agent    *agent.Agent

	transport *http.Transport
	mu        sync.Mutex
	clientKey string
	client    *llm.Client
}

// Open opens the data dir's database and wires the backend.
func Open(ctx context.Context, opts Options) (*Core, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	file, err := config.EnsureDataDir(opts.DataDir)
	if err != nil {
		return nil, err
	}
	db, err := store.Open(ctx, file)
	if err != nil {
		return nil, err
	}
	c := &Core{
		DataDir:   opts.DataDir,
		DB:        db,
		Settings:  config.NewStore(db.DB, getenv),
		Sessions:  session.NewStore(db),
		transport: llm.NewTransport(5 * time.Second),
	}
	c.Agent = &agent.Agent{LLM: settingsLLM{c}, Sessions: c.Sessions}
	return c, nil
}

// Close releases the database.
func (c *Core) Close() error {
	c.transport.CloseIdleConnections()
	return c.DB.Close()
}

// LLM returns a client for the current settings (reused while they do not change).
func (c *Core) LLM(ctx context.Context) (*llm.Client, config.Settings, error) {
	s, err := c.Settings.Load(ctx)
	if err != nil {
		return nil, s, err
	}
	key := fmt.Sprint(s.OllamaHost, s.ConnectTimeout, s.FirstTokenTimeout, s.TokenGapTimeout)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client == nil || c.clientKey != key {
		c.client, err = llm.New(llm.Config{
			Host: s.OllamaHost, ConnectTimeout: s.ConnectTimeout, FirstTokenTimeout: s.FirstTokenTimeout,
			TokenGapTimeout: s.TokenGapTimeout, Retries: 2, Backoff: 300 * time.Millisecond,
		}, c.transport)
		if err != nil {
			return nil, s, err
		}
		c.clientKey = key
	}
	return c.client, s, nil
}

// settingsLLM is the agent's LLM: it follows the settings as they change.
type settingsLLM struct{ c *Core }

func (l settingsLLM) Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error) {
	client, s, err := l.c.LLM(ctx)
	if err != nil {
		return llm.Reply{}, err
	}
	if len(req.Models) == 0 {
		req.Models = s.Models()
	}
	return client.Chat(ctx, req, fn)
}
