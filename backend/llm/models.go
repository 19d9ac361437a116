package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
)

// ErrTooOld means the Ollama server lacks an API Hermes needs (TooOldError).
var ErrTooOld = errors.New("ollama is too old")

// TooOldError is an Ollama too old for what was asked: Version is the server's,
// Need the oldest that can do it.
type TooOldError struct {
	Version, Need string
	What          string // what it cannot do, e.g. "create a model from a file"
}

func (e *TooOldError) Error() string {
	return fmt.Sprintf("Ollama %s cannot %s; update Ollama to %s or newer", e.Version, e.What, e.Need)
}

func (e *TooOldError) Is(target error) bool { return target == ErrTooOld }

// Capabilities as Hermes names them (Ollama's "completion" is "chat").
const (
	CapChat      = "chat"
	CapTools     = "tools"
	CapEmbedding = "embedding"
	CapVision    = "vision"
	CapThinking  = "thinking"
)

// ModelDetail is an installed model with what it can do.
type ModelDetail struct {
	Name          string    `json:"name"`
	Family        string    `json:"family"`
	ParameterSize string    `json:"parameter_size"`
	Quantization  string    `json:"quantization"`
	ContextLength int       `json:"context_length"`
	Capabilities  []string  `json:"capabilities"`
	Size          int64     `json:"size"`
	Loaded        bool      `json:"loaded"`
	ModifiedAt    time.Time `json:"modified_at"`
	Digest        string    `json:"digest"`
}

// Can reports whether the model has a capability (CapChat, CapEmbedding …).
func (m ModelDetail) Can(capability string) bool { return slices.Contains(m.Capabilities, capability) }

// ShortName drops Ollama's default ":latest" tag.
func ShortName(name string) string { return strings.TrimSuffix(name, ":latest") }

// SameModel treats "llama3.2" and "llama3.2:latest" as one.
func SameModel(a, b string) bool { return ShortName(a) == ShortName(b) }

// capabilities maps Ollama's capability names to Hermes's.
func capabilities(in []string) []string {
	out := []string{}
	for _, c := range in {
		switch c {
		case "completion":
			out = append(out, CapChat)
		case "tools", "embedding", "vision", "thinking":
			out = append(out, c)
		}
	}
	return out
}

// ModelDetails lists the installed models with their details, capabilities and
// whether each is loaded now (one list, one ps, and a show per model, four at
// a time).
func (c *Client) ModelDetails(ctx context.Context) ([]ModelDetail, error) {
	var list *api.ListResponse
	err := c.withRetry(ctx, func() error {
		var err error
		list, err = c.api.List(ctx)
		return classify("list models", err)
	})
	if err != nil {
		return nil, err
	}
	loaded := map[string]bool{}
	if ps, err := c.api.ListRunning(ctx); err == nil { // an old server without ps: nothing loaded
		for _, m := range ps.Models {
			loaded[ShortName(m.Name)] = true
		}
	}
	out := make([]ModelDetail, len(list.Models))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	errs := make([]error, len(list.Models))
	for i, m := range list.Models {
		out[i] = ModelDetail{Name: ShortName(m.Name), Family: m.Details.Family, ParameterSize: m.Details.ParameterSize,
			Quantization: m.Details.QuantizationLevel, Size: m.Size, ModifiedAt: m.ModifiedAt, Digest: m.Digest,
			Loaded: loaded[ShortName(m.Name)], Capabilities: []string{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			info, err := c.Show(ctx, m.Name)
			if err != nil {
				errs[i] = err
				return
			}
			out[i].ContextLength, out[i].Capabilities = info.ContextLength, capabilities(info.Capabilities)
			if out[i].Family == "" {
				out[i].Family = info.Family
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("list models: %w", err)
	}
	slices.SortFunc(out, func(a, b ModelDetail) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Progress is how far long work (a pull, an import) has come.
type Progress struct {
	Status    string        `json:"status"`
	Completed int64         `json:"completed"`
	Total     int64         `json:"total"`
	Percent   float64       `json:"percent"`
	Rate      float64       `json:"rate_bps"` // bytes per second, over the last seconds
	ETA       time.Duration `json:"-"`
	ETASecs   float64       `json:"eta_seconds"`
}

// meter turns byte counts into percent, rate and ETA.
type meter struct {
	now     func() time.Time
	status  string
	startAt time.Time
	lastAt  time.Time
	last    int64
	rate    float64
}

func newMeter(now func() time.Time) *meter { return &meter{now: now} }

func (m *meter) update(status string, completed, total int64) Progress {
	t := m.now()
	if status != m.status || completed < m.last {
		m.status, m.startAt, m.lastAt, m.last, m.rate = status, t, t, completed, 0
	}
	if dt := t.Sub(m.lastAt).Seconds(); dt >= 0.25 {
		inst := float64(completed-m.last) / dt
		if m.rate == 0 {
			m.rate = inst
		} else {
			m.rate = 0.7*m.rate + 0.3*inst // smoothed
		}
		m.lastAt, m.last = t, completed
	}
	p := Progress{Status: status, Completed: completed, Total: total, Rate: m.rate}
	if total > 0 {
		p.Percent = float64(completed) * 100 / float64(total)
		if m.rate > 0 {
			p.ETA = time.Duration(float64(total-completed) / m.rate * float64(time.Second))
			p.ETASecs = p.ETA.Seconds()
		}
	}
	return p
}

// Pull downloads a model from the registry Ollama is set up for, reporting
// progress; cancelling ctx stops it (Ollama keeps what it downloaded and
// resumes from there next time; nothing is listed before the pull completes).
func (c *Client) Pull(ctx context.Context, name string, fn func(Progress) error) error {
	defer c.forget(name)
	if strings.TrimSpace(name) == "" {
		return errors.New("pull model: give a model name, e.g. llama3.2")
	}
	pull := func(f func(api.ProgressResponse) error) error {
		return c.api.Pull(ctx, &api.PullRequest{Model: name}, f)
	}
	last, err := followProgress(pull, newMeter(time.Now), fn)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("pull model %s: cancelled (what was downloaded is kept; pulling again resumes): %w", name, ctx.Err())
	case err != nil:
		return classifyPull(name, err)
	case last != "success":
		return fmt.Errorf("pull model %s: Ollama stopped answering before the pull finished (last: %q); pull again to resume", name, last)
	}
	return nil
}

// A pull Ollama could not make: its library is out of reach from this
// computer (no network, a proxy refusing), or it has no model of that name.
var (
	ErrLibraryOffline = errors.New("ollama cannot reach its model library from this computer")
	ErrNotInLibrary   = errors.New("the model library has no model of that name")
)

// netFailures are the words of Ollama's own "pull model manifest: …" when the
// request to its library did not get an answer (Go's net/http errors).
var netFailures = []string{"dial tcp", "no such host", "connection refused", "proxyconnect", "i/o timeout",
	"network is unreachable", "TLS handshake", "tls: ", "connection reset", "EOF"}

// classifyPull words a failed pull by what Ollama said: "file does not exist"
// (or a 404) is a name the library does not have; a manifest request that got
// no answer is a library out of reach. Anything else goes through classify.
func classifyPull(name string, err error) error {
	said := ollamaSaid(err)
	var se api.StatusError
	switch {
	case strings.Contains(said, "file does not exist") || strings.Contains(said, "manifest unknown") ||
		errors.As(err, &se) && se.StatusCode == http.StatusNotFound && strings.Contains(said, "manifest"):
		return fmt.Errorf("pull model %s: %w (%s)", name, ErrNotInLibrary, said)
	case strings.HasPrefix(said, "pull model manifest:") && slices.ContainsFunc(netFailures, func(w string) bool { return strings.Contains(said, w) }):
		return fmt.Errorf("pull model %s: %w (%s)", name, ErrLibraryOffline, said)
	}
	return classify("pull model "+name, err)
}

// Delete removes an installed model.
func (c *Client) Delete(ctx context.Context, name string) error {
	defer c.forget(name)
	return classify("delete model "+name, c.api.Delete(ctx, &api.DeleteRequest{Model: name}))
}

// Copy makes dst a copy of src (with Delete, a rename).
func (c *Client) Copy(ctx context.Context, src, dst string) error {
	defer c.forget(dst)
	if strings.TrimSpace(dst) == "" {
		return errors.New("copy model: give the new name")
	}
	return classify("copy model "+src+" to "+dst, c.api.Copy(ctx, &api.CopyRequest{Source: src, Destination: dst}))
}

// IsLoaded reports whether Ollama has model in memory now (/api/ps): a chat
// with a model that is not must wait for it to load first. An error (an old
// server without ps, no answer) is returned as such.
func (c *Client) IsLoaded(ctx context.Context, model string) (bool, error) {
	ps, err := c.api.ListRunning(ctx)
	if err != nil {
		return false, classify("list loaded models", err)
	}
	for _, m := range ps.Models {
		if SameModel(m.Name, model) {
			return true, nil
		}
	}
	return false, nil
}
