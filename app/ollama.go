package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"hermes/backend/config"
	"hermes/backend/egress"
	"hermes/backend/ollamad"
)

// daemon is the local Ollama for the current settings (a new one when the
// host, path or mode changes; the one Hermes started keeps running until
// Close).
func (c *Core) daemon(s config.Settings) *ollamad.Daemon {
	key := s.OllamaHost + "\x00" + s.OllamaPath + "\x00" + s.ManageOllama
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ollama == nil || c.ollamaKey != key {
		host := s.OllamaHost
		answered := false // an Ollama that answered here stays "stopped responding", never "not installed"
		if c.ollama != nil {
			c.retired = append(c.retired, c.ollama) // stopped at Close if Hermes started it
			answered = c.ollamaAt == host && c.ollama.Answered()
		}
		c.ollama = ollamad.New(ollamad.Config{Host: host, Path: s.OllamaPath, Manage: s.ManageOllama,
			LogFile: filepath.Join(c.dataDir, "ollama.log"), Answers: c.answers(host), Answered: answered, Records: c.ollamaRecords})
		c.ollamaAt = host
		c.ollamaKey = key
	}
	return c.ollama
}

// answers reports quickly whether an Ollama answers at host, and keeps why not
// (lastProbe): a refusal by Hermes's own rules is a state of its own.
func (c *Core) answers(host string) func(context.Context) bool {
	return func(ctx context.Context) bool {
		err := c.probe(ctx, host)
		c.probeMu.Lock()
		c.probeHost, c.probeErr = host, err
		c.probeMu.Unlock()
		return err == nil
	}
}

// probe asks host for Ollama's version through the Ollama transport (its
// dial rule and the network record): nil when it answers. The error keeps its
// cause (an egress.RefusedError), which the llm client's words do not.
func (c *Core) probe(ctx context.Context, host string) error {
	client := &http.Client{Transport: c.transport, Timeout: 2 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, host+"/api/version", nil)
	if err != nil {
		return fmt.Errorf("probe ollama: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("probe ollama: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("probe ollama: %w: %s answered %s", errNotOllama, host, resp.Status)
	}
	return nil
}

// errNotOllama: something answered at the host, but not as Ollama does.
var errNotOllama = errors.New("not an Ollama server")

// refusal is why Hermes itself refused the last probe of host, or nil.
func (c *Core) refusal(host string) *egress.RefusedError {
	c.probeMu.Lock()
	defer c.probeMu.Unlock()
	var ref *egress.RefusedError
	if c.probeHost == host && errors.As(c.probeErr, &ref) {
		return ref
	}
	return nil
}

// EnsureOllama starts the local Ollama when the settings allow it and nothing
// answers (every door: the first model use of a CLI command, the window, web
// mode).
func (c *Core) EnsureOllama(ctx context.Context) (ollamad.State, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return ollamad.State{}, err
	}
	return c.daemon(s).Ensure(ctx)
}

// OllamaState says whether Ollama answers and what can be done if not, without
// starting anything.
func (c *Core) OllamaState(ctx context.Context) (ollamad.State, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return ollamad.State{}, err
	}
	return c.daemon(s).State(ctx), nil
}

// ollamaModels is the models folder of the Ollama Hermes started ("" when it
// started none): an import writes the model's blob there (llm.Config.Store).
func (c *Core) ollamaModels() string {
	c.mu.Lock()
	d := c.ollama
	c.mu.Unlock()
	if d == nil {
		return ""
	}
	return d.Models()
}

// stopOllama stops the Ollama servers Hermes started.
func (c *Core) stopOllama() {
	c.mu.Lock()
	all := append(c.retired, c.ollama)
	c.ollama, c.retired = nil, nil
	c.mu.Unlock()
	for _, d := range all {
		if d != nil {
			d.Stop()
		}
	}
}
