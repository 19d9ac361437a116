// Package llm adapts the official Ollama Go client (github.com/ollama/ollama/api):
// streaming chat with tools and structured output, embeddings, models, version and
// host checks, with timeouts, retries and a fallback chain of models.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/netguard"
)

// Errors callers can test for.
var (
	ErrUnreachable   = errors.New("ollama is not reachable")
	ErrModelNotFound = errors.New("model not found")
	ErrTimeout       = errors.New("ollama stopped responding")
	ErrOverloaded    = errors.New("ollama is busy")
	ErrNoMemory      = errors.New("not enough memory for the model")
	ErrCutOff        = errors.New("the stream ended before the reply was complete")
	ErrDiskFull      = errors.New("Ollama's disk is full")
)

// TimeoutError is an ErrTimeout that says which wait ran out: Setting is the
// name of the setting that bounds it (first_token_timeout before the first
// chunk, token_gap_timeout between two), Limit its value.
type TimeoutError struct {
	Setting string
	Limit   time.Duration
}

func (e *TimeoutError) Error() string {
	phase := "the first token"
	if e.Setting == "token_gap_timeout" {
		phase = "the next token"
	}
	return fmt.Sprintf("%v: no %s within %s", ErrTimeout, phase, e.Limit)
}

func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// Config says where Ollama is and how patient to be.
type Config struct {
	Host              string        // scheme://host:port
	ConnectTimeout    time.Duration // dialing the server
	FirstTokenTimeout time.Duration // request sent -> first chunk
	TokenGapTimeout   time.Duration // between two chunks
	Retries           int           // extra attempts on connection refused and 503
	Backoff           time.Duration // first retry delay; doubles each time
	// Store says where the Ollama at Host keeps its models when Hermes knows
	// it (Hermes started that Ollama itself), else "": an import then writes
	// the model's blob there instead of uploading it (ImportGGUF).
	Store func() string
	// KeepAlive is how long Ollama keeps a model loaded after a request (sent
	// with every chat; negative: for ever, 0: unload at once); nil: Ollama's own.
	KeepAlive *time.Duration
}

// Client talks to one Ollama server.
type Client struct {
	cfg  Config
	host *url.URL
	api  *api.Client
	http *http.Client // the api client's, for what it has no call for (HEAD of a blob)
	// Sleep waits between retries; tests replace it.
	Sleep func(context.Context, time.Duration) error
	// ctxLen remembers each model's context length as the server reported it.
	ctxLen sync.Map // model -> int
	// noTools remembers the models the server said cannot call tools.
	noTools sync.Map // model -> true
	// caps remembers each model's capabilities as the server reported them.
	caps sync.Map // model -> []string
}

// New returns a client for cfg.Host. transport may be nil; pass a shared one to reuse connections.
func New(cfg Config, transport *http.Transport) (*Client, error) {
	u, err := url.Parse(cfg.Host)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("new ollama client: bad host %q", cfg.Host)
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.FirstTokenTimeout <= 0 {
		cfg.FirstTokenTimeout = 2 * time.Minute
	}
	if cfg.TokenGapTimeout <= 0 {
		cfg.TokenGapTimeout = 30 * time.Second
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 250 * time.Millisecond
	}
	if transport == nil {
		transport = NewTransport((&net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext)
	}
	if cfg.Store == nil {
		cfg.Store = func() string { return "" }
	}
	hc := &http.Client{Transport: sizedBodies{transport}}
	return &Client{
		cfg:   cfg,
		host:  u,
		api:   api.NewClient(u, hc),
		http:  hc,
		Sleep: sleep,
	}, nil
}

// sizedBodies gives a request whose body is a regular file (a model file being
// uploaded) the file's remaining length: the request then goes with a
// Content-Length rather than chunked, and the transport hands the file to the
// kernel (sendfile) instead of copying it through user space in 32 KiB pieces.
type sizedBodies struct{ rt http.RoundTripper }

func (s sizedBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	if f, ok := r.Body.(*os.File); ok && r.ContentLength == 0 {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && info.Size() > off {
				sized := r.Clone(r.Context()) // a RoundTripper leaves the caller's request as it is
				sized.ContentLength = info.Size() - off
				return s.rt.RoundTrip(sized)
			}
		}
	}
	return s.rt.RoundTrip(r)
}

// NewTransport is an HTTP transport that dials with dial (the composition root
// gives it backend/egress's, which checks offline_only and records every
// connection) and no proxy: Ollama is local.
func NewTransport(dial func(ctx context.Context, network, address string) (net.Conn, error)) *http.Transport {
	return &http.Transport{
		Proxy:               nil,
		DialContext:         dial,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Host is the server address.
func (c *Client) Host() string { return c.cfg.Host }

// classify turns transport and status errors into the package's error kinds.
func classify(op string, err error) error {
	if err == nil {
		return nil
	}
	var se api.StatusError
	switch {
	case noThinkSupport(err):
		return fmt.Errorf("%s: %w", op, ErrNoThinking)
	case errors.As(err, &se) && se.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s: %w: %s", op, ErrModelNotFound, se.ErrorMessage)
	case errors.As(err, &se) && se.StatusCode == http.StatusServiceUnavailable:
		return fmt.Errorf("%s: %w: %s", op, ErrOverloaded, se.ErrorMessage)
	case errors.As(err, &se) && strings.Contains(se.ErrorMessage, "requires more system memory"):
		// "model requires more system memory (5.6 GiB) than is available (3.1 GiB)"
		return &MemoryError{Need: between(se.ErrorMessage, "memory (", ")"), Free: between(se.ErrorMessage, "available (", ")"),
			err: fmt.Errorf("%s: %w: %s", op, ErrNoMemory, se.ErrorMessage)}
	case errors.Is(err, netguard.ErrOffline):
		// Hermes refused the connection itself (offline_only): no retry mends it.
		return fmt.Errorf("%s: %w", op, err)
	case isConnError(err):
		return fmt.Errorf("%s: %w: %v", op, ErrUnreachable, err)
	case strings.Contains(ollamaSaid(err), "no space left"):
		// Ollama's own answer: its disk, not this computer's (a write of Hermes's fails otherwise).
		return fmt.Errorf("%s: %w (%w); free some space (`hermes model rm` removes models you no longer need) and try again", op, ErrDiskFull, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// fromOllama is an error a progress stream from Ollama ended with that Hermes's
// own callback did not cause: its text is Ollama's (an {"error"} line after the
// answer began, which the client returns bare, not as a StatusError).
type fromOllama struct{ error }

func (e fromOllama) Unwrap() error { return e.error }

// ollamaSaid is what Ollama itself answered in err: a StatusError's message, or
// the {"error"} line a progress stream ended with (fromOllama); "" otherwise.
func ollamaSaid(err error) string {
	var se api.StatusError
	if errors.As(err, &se) {
		return se.ErrorMessage
	}
	if errors.As(err, new(fromOllama)) {
		return err.Error()
	}
	return ""
}

// followProgress runs an Ollama call that streams progress (a pull, a
// create), reports each line through m to fn (nil: to nobody) and returns the
// last status Ollama gave ("success" once it finished): an error fn returned
// comes back as it is, any other as fromOllama.
func followProgress(call func(func(api.ProgressResponse) error) error, m *meter, fn func(Progress) error) (last string, err error) {
	var own error
	err = call(func(r api.ProgressResponse) error {
		last = r.Status
		if fn != nil {
			own = fn(m.update(r.Status, r.Completed, r.Total))
		}
		return own
	})
	if err == nil || own != nil {
		return last, err
	}
	return last, fromOllama{err}
}

func isConnError(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EHOSTUNREACH) {
		return true
	}
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr)
}

func retryable(err error) bool {
	return errors.Is(err, ErrUnreachable) || errors.Is(err, ErrOverloaded)
}

// withRetry runs fn, retrying with exponential backoff on connection refused and 503.
func (c *Client) withRetry(ctx context.Context, fn func() error) error {
	return c.retry(ctx, fn, retryable)
}

// onceKey marks a context whose requests are tried once (Once).
type onceKey struct{}

// Once returns ctx marked so that the client tries each request once, without
// Config.Retries: for a probe, where "not reachable now" is the answer, not a
// reason to wait (an embedding probe with Ollama down waited 0.9 s).
func Once(ctx context.Context) context.Context { return context.WithValue(ctx, onceKey{}, true) }

// retry runs fn again, with exponential backoff, while mayRetry says its error
// allows it and ctx is not marked Once.
func (c *Client) retry(ctx context.Context, fn func() error, mayRetry func(error) bool) error {
	delay := c.cfg.Backoff
	retries := c.cfg.Retries
	if ctx.Value(onceKey{}) != nil {
		retries = 0
	}
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || !mayRetry(err) || attempt >= retries || ctx.Err() != nil {
			return err
		}
		if serr := c.Sleep(ctx, delay); serr != nil {
			return err
		}
		delay *= 2
	}
}

// Version returns the server's version.
func (c *Client) Version(ctx context.Context) (string, error) {
	var v string
	err := c.withRetry(ctx, func() error {
		var err error
		v, err = c.api.Version(ctx)
		return classify("get ollama version", err)
	})
	return v, err
}

// Model is an installed model.
type Model struct {
	Name       string    `json:"name"`
	Size       int64     `json:"size"`
	ModifiedAt time.Time `json:"modifiedAt"`
}

// Models lists the installed models.
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	var out []Model
	err := c.withRetry(ctx, func() error {
		resp, err := c.api.List(ctx)
		if err != nil {
			return classify("list models", err)
		}
		out = out[:0]
		for _, m := range resp.Models {
			out = append(out, Model{Name: m.Name, Size: m.Size, ModifiedAt: m.ModifiedAt})
		}
		return nil
	})
	return out, err
}

// ModelInfo is what the server says about one model.
type ModelInfo struct {
	Name          string
	ContextLength int
	Capabilities  []string
	Family        string
}

// Has reports whether the model declares a capability such as "tools" or "embedding".
func (m ModelInfo) Has(capability string) bool {
	for _, c := range m.Capabilities {
		if c == capability {
			return true
		}
	}
	return false
}

// ContextLength is a model's context length as the server reports it, asked once
// per client (a client talks to one server); 0 when it cannot be known now (the
// question is asked again next time).
func (c *Client) ContextLength(ctx context.Context, model string) int {
	if n, ok := c.ctxLen.Load(model); ok {
		return n.(int)
	}
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	info, err := c.Show(sctx, model)
	if err != nil {
		return 0
	}
	return info.ContextLength
}

// forget drops what the client remembers of a model that was created, pulled,
// copied over or deleted.
func (c *Client) forget(model string) {
	c.ctxLen.Delete(model)
	c.noTools.Delete(model)
	c.caps.Delete(model)
}

// Capabilities are a model's capabilities as Ollama names them ("completion",
// "tools", "vision", "thinking" …), asked once per client like ContextLength.
func (c *Client) Capabilities(ctx context.Context, model string) ([]string, error) {
	if v, ok := c.caps.Load(model); ok {
		return v.([]string), nil
	}
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	info, err := c.Show(sctx, model)
	if err != nil {
		return nil, err
	}
	return info.Capabilities, nil
}

// Show returns a model's context length and capabilities, and keeps both for
// ContextLength and Capabilities (one show answers both, and a model list's
// shows answer them for every model listed).
func (c *Client) Show(ctx context.Context, name string) (ModelInfo, error) {
	var resp *api.ShowResponse
	err := c.withRetry(ctx, func() error {
		var err error
		resp, err = c.api.Show(ctx, &api.ShowRequest{Model: name})
		return classify("show model "+name, err)
	})
	if err != nil {
		return ModelInfo{}, err
	}
	info := ModelInfo{Name: name, Family: resp.Details.Family}
	for _, cp := range resp.Capabilities {
		info.Capabilities = append(info.Capabilities, string(cp))
	}
	for k, v := range resp.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok {
				info.ContextLength = int(f)
			}
		}
	}
	c.caps.Store(name, info.Capabilities)
	if info.ContextLength > 0 {
		c.ctxLen.Store(name, info.ContextLength)
	}
	return info, nil
}

// Embed returns one embedding per input.
func (c *Client) Embed(ctx context.Context, model string, input []string) ([][]float32, error) {
	var resp *api.EmbedResponse
	err := c.withRetry(ctx, func() error {
		var err error
		resp, err = c.api.Embed(ctx, &api.EmbedRequest{Model: model, Input: input})
		return classify("embed with "+model, err)
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Embeddings) != len(input) {
		return nil, fmt.Errorf("embed with %s: got %d embeddings for %d inputs", model, len(resp.Embeddings), len(input))
	}
	return resp.Embeddings, nil
}

// decodeArgs turns the ordered arguments of a tool call into raw JSON.
func decodeArgs(a api.ToolCallFunctionArguments) json.RawMessage {
	b, err := json.Marshal(a)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// MemoryError is a model too big for the memory free now, with the sizes Ollama gave.
type MemoryError struct {
	Need, Free string // e.g. "5.6 GiB"; "" when the message did not say
	err        error
}

func (e *MemoryError) Error() string { return e.err.Error() }
func (e *MemoryError) Unwrap() error { return e.err }

// between is the text of s after open up to the next close, or "".
func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	v, _, ok := strings.Cut(rest, close)
	if !ok {
		return ""
	}
	return v
}
