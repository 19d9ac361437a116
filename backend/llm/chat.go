package llm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// Message is one chat message sent to or received from the model.
type Message struct {
	Role      string // system, user, assistant, tool
	Content   string
	ToolName  string     // for role "tool": which tool produced the content
	ToolCalls []ToolCall // for role "assistant"
	// Images are encoded images (PNG, JPEG) given with a user message; only a
	// model with the vision capability may be sent them.
	Images [][]byte
}

// ToolCall is the model asking to run a tool.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// ChatRequest is one chat call. Models is the fallback chain, tried in order.
type ChatRequest struct {
	Models   []string
	Messages []Message
	Tools    api.Tools       // tool schemas offered to the model
	Format   json.RawMessage // "json" or a JSON Schema for structured output
	Options  map[string]any
	// Think asks a thinking model to think or not (nil: the model decides; see
	// ParseThink). NoThink is a background call that needs no reasoning: it sends
	// think false unless Think says otherwise.
	Think   *api.ThinkValue
	NoThink bool
}

// Delta is one streamed piece of the reply: answer text or reasoning.
type Delta struct {
	Content  string
	Thinking string
}

// Reply is the finished reply.
type Reply struct {
	Model   string
	Content string
	// Thinking is the reasoning a thinking model streamed before (or between) its answer.
	Thinking         string
	ToolCalls        []ToolCall
	DoneReason       string
	PromptTokens     int
	CompletionTokens int
	// EvalDuration is the server's time generating CompletionTokens (0: not reported).
	EvalDuration time.Duration
	// Failures lists models tried before Model, with why they were skipped.
	Failures []string
}

// Chat streams a reply, calling fn for every content delta in order; an error from fn
// stops the stream and is returned. It retries on connection refused and 503 before
// any token arrived, falls back to the next model when one is missing or fails before
// streaming, and enforces the first-token and token-gap timeouts. On error the Reply
// still holds the text streamed so far.
func (c *Client) Chat(ctx context.Context, req ChatRequest, fn func(Delta) error) (Reply, error) {
	if len(req.Models) == 0 {
		return Reply{}, errors.New("chat: no model configured")
	}
	var failures []string
	var lastErr error
	for _, model := range req.Models {
		var reply Reply
		var streamed bool
		try := req
		if _, no := c.noTools.Load(model); no {
			try.Tools = nil
		}
		err := c.retry(ctx, func() error {
			var err error
			reply, streamed, err = c.chatOnce(ctx, model, try, fn)
			if err != nil && !streamed && len(try.Tools) > 0 && noToolSupport(err) {
				// A model that cannot call tools answers without them rather than not at all,
				// and is not offered them again.
				c.noTools.Store(model, true)
				try.Tools = nil
				reply, streamed, err = c.chatOnce(ctx, model, try, fn)
			}
			return err
		}, func(err error) bool {
			return !streamed && retryable(err) // never once the user has seen tokens: the reply would repeat
		})
		reply.Failures = failures
		if err == nil {
			return reply, nil
		}
		err = &ModelError{Model: model, Err: err}
		lastErr = err
		if streamed || ctx.Err() != nil || !fallbackable(err) {
			return reply, err
		}
		failures = append(failures, fmt.Sprintf("%s: %v", model, err))
	}
	return Reply{Failures: failures}, lastErr
}

// ModelError is a chat that failed with Model (the last one tried when a chain
// fell back): the error names the model the user has to do something about.
type ModelError struct {
	Model string
	Err   error
}

func (e *ModelError) Error() string { return e.Err.Error() }
func (e *ModelError) Unwrap() error { return e.Err }

// noToolSupport: Ollama refused the request because the model cannot call tools
// (400 "… does not support tools").
func noToolSupport(err error) bool {
	var se api.StatusError
	return errors.As(err, &se) && se.StatusCode == http.StatusBadRequest && strings.Contains(se.ErrorMessage, "does not support tools")
}

// fallbackable errors move on to the next model in the chain.
func fallbackable(err error) bool {
	if errors.Is(err, ErrModelNotFound) || errors.Is(err, ErrOverloaded) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrNoMemory) {
		return true
	}
	var se api.StatusError
	return errors.As(err, &se) && se.StatusCode >= 500
}

// errStalled is the cancel cause set by the watchdog.
var errStalled = errors.New("stalled")

func (c *Client) chatOnce(parent context.Context, model string, req ChatRequest, fn func(Delta) error) (Reply, bool, error) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)

	// The watchdog cancels the request when the server goes quiet for too long.
	streamed := false // the callback runs on this goroutine; the watchdog only cancels
	timer := time.AfterFunc(c.cfg.FirstTokenTimeout, func() { cancel(errStalled) })
	defer timer.Stop()

	areq := c.wireRequest(model, req)
	reply := Reply{Model: model}
	var content, thinking []byte
	done := false
	err := c.api.Chat(ctx, areq, func(r api.ChatResponse) error {
		timer.Reset(c.cfg.TokenGapTimeout) // a thinking token is progress too
		for _, tc := range r.Message.ToolCalls {
			id := tc.ID
			if id == "" { // older servers and some models give none; the UI and the stored thread need one
				id = newCallID()
			}
			reply.ToolCalls = append(reply.ToolCalls, ToolCall{ID: id, Name: tc.Function.Name, Arguments: decodeArgs(tc.Function.Arguments)})
		}
		if r.Done {
			done = true
			reply.DoneReason = r.DoneReason
			reply.PromptTokens = r.PromptEvalCount
			reply.CompletionTokens = r.EvalCount
			reply.EvalDuration = r.EvalDuration
		}
		if r.Message.Content == "" && r.Message.Thinking == "" {
			return nil
		}
		streamed = true
		content = append(content, r.Message.Content...)
		thinking = append(thinking, r.Message.Thinking...)
		return fn(Delta{Content: r.Message.Content, Thinking: r.Message.Thinking})
	})
	reply.Thinking = string(thinking)
	reply.Content = string(content)
	if err == nil && !done {
		// The client stops quietly when the body ends early or the context is cancelled.
		if err = ctx.Err(); err == nil {
			err = ErrCutOff
		}
	}
	didStream := streamed
	if err != nil {
		if errors.Is(context.Cause(ctx), errStalled) && parent.Err() == nil {
			te := &TimeoutError{Setting: "first_token_timeout", Limit: c.cfg.FirstTokenTimeout}
			if didStream {
				te = &TimeoutError{Setting: "token_gap_timeout", Limit: c.cfg.TokenGapTimeout}
			}
			return reply, didStream, fmt.Errorf("chat with %s: %w", model, te)
		}
		if parent.Err() != nil {
			return reply, didStream, fmt.Errorf("chat with %s: %w", model, parent.Err())
		}
		return reply, didStream, classify("chat with "+model, err)
	}
	return reply, didStream, nil
}

// wireRequest is req for model as the official client sends it. Thinking is
// never sent back: a message's reasoning stays out of later requests.
func (c *Client) wireRequest(model string, req ChatRequest) *api.ChatRequest {
	msgs := make([]api.Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		am := api.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName}
		for _, img := range m.Images {
			am.Images = append(am.Images, api.ImageData(img))
		}
		for _, tc := range m.ToolCalls {
			args := api.NewToolCallFunctionArguments()
			_ = json.Unmarshal(tc.Arguments, &args)
			am.ToolCalls = append(am.ToolCalls, api.ToolCall{ID: tc.ID, Function: api.ToolCallFunction{Name: tc.Name, Arguments: args}})
		}
		msgs = append(msgs, am)
	}
	stream := true
	areq := &api.ChatRequest{Model: model, Messages: msgs, Stream: &stream, Tools: req.Tools, Format: req.Format,
		Options: req.Options, Think: req.Think}
	if areq.Think == nil && req.NoThink {
		areq.Think = &api.ThinkValue{Value: false}
	}
	if c.cfg.KeepAlive != nil {
		areq.KeepAlive = &api.Duration{Duration: *c.cfg.KeepAlive}
	}
	return areq
}

// newCallID names a tool call the model gave no id.
func newCallID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "call_" + hex.EncodeToString(b)
}
