package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// thinker is a fake with a thinking model "qwen3" that reasons in pieces
// before it answers.
func thinker(pieces int, delay time.Duration) *llmtest.Server {
	fake := llmtest.New()
	fake.Models = append(fake.Models, llmtest.Model{Name: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "tools", "thinking"}})
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		r := llmtest.Reply{Chunks: []string{"The", " answer"}, Delay: delay}
		for i := range pieces {
			r.Thinking = append(r.Thinking, strings.Repeat("hm", i%3+1)+" ")
		}
		return r
	}
	return fake
}

func TestChatStreamsThinkingApart(t *testing.T) {
	fake := thinker(4, 0)
	c := newClient(t, fake, nil)
	var order []string
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"qwen3"}, Messages: userMsg("why?")}, func(d Delta) error {
		if d.Thinking != "" && d.Content != "" {
			t.Errorf("one delta carries both reasoning and answer: %+v", d)
		}
		if d.Thinking != "" {
			order = append(order, "think")
		} else {
			order = append(order, "say")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ","); got != "think,think,think,think,say,say" {
		t.Errorf("deltas in order %s; want the reasoning first, then the answer", got)
	}
	if reply.Content != "The answer" || reply.Thinking != "hm hmhm hmhmhm hm " {
		t.Errorf("reply = %q, thinking %q", reply.Content, reply.Thinking)
	}
}

func TestThinkingCountsAsProgress(t *testing.T) {
	// A model thinking for 12 gaps of 100 ms (1.2 s) before its first answer
	// token, against a 300 ms first-token timeout: its reasoning is progress.
	fake := thinker(12, 100*time.Millisecond)
	c := newClient(t, fake, func(cfg *Config) {
		cfg.FirstTokenTimeout, cfg.TokenGapTimeout = 300*time.Millisecond, 300*time.Millisecond
	})
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"qwen3"}, Messages: userMsg("think long")}, func(Delta) error { return nil })
	if err != nil {
		t.Fatalf("a model that thinks is not stalled: %v", err)
	}
	if reply.Content != "The answer" || len(reply.Thinking) == 0 {
		t.Errorf("reply = %+v", reply)
	}
	// The same model silent for as long does time out: the watchdog still works.
	fake.Chat = func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{"late"}, Delay: 1200 * time.Millisecond}
	}
	if _, err := c.Chat(context.Background(), ChatRequest{Models: []string{"qwen3"}, Messages: userMsg("silent")}, func(Delta) error { return nil }); !errors.Is(err, ErrTimeout) {
		t.Errorf("a silent model: %v; want a timeout", err)
	}
}

func TestThinkRequestValues(t *testing.T) {
	fake := thinker(2, 0)
	c := newClient(t, fake, func(cfg *Config) { d := 10 * time.Minute; cfg.KeepAlive = &d })
	ctx := context.Background()
	send := func(req ChatRequest) Reply {
		t.Helper()
		req.Models, req.Messages = []string{"qwen3"}, userMsg("q")
		r, err := c.Chat(ctx, req, func(Delta) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	high, _ := ParseThink("high")
	off, _ := ParseThink("off")
	send(ChatRequest{})
	send(ChatRequest{NoThink: true})
	send(ChatRequest{Think: high})
	r := send(ChatRequest{Think: off, NoThink: true})
	if r.Thinking != "" {
		t.Errorf("think off still thought: %q", r.Thinking)
	}
	reqs := fake.ChatRequests()
	want := []string{"<nil>", "false", "high", "false"}
	for i, req := range reqs {
		got := "<nil>"
		if req.Think != nil {
			got = strings.ToLower(strings.Trim(fmtThink(req.Think), `"`))
		}
		if got != want[i] {
			t.Errorf("request %d: think %s; want %s", i, got, want[i])
		}
		if req.KeepAlive == nil || req.KeepAlive.Duration != 10*time.Minute {
			t.Errorf("request %d: keep_alive %v; want 10m on every request", i, req.KeepAlive)
		}
	}
}

func fmtThink(v *api.ThinkValue) string {
	b, _ := v.MarshalJSON()
	return string(b)
}

func TestThinkingOnAModelThatCannotThink(t *testing.T) {
	fake := thinker(2, 0)
	c := newClient(t, fake, nil)
	on, _ := ParseThink("on")
	_, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("q"), Think: on}, func(Delta) error { return nil })
	if !errors.Is(err, ErrNoThinking) {
		t.Fatalf("think on for llama3.2: %v; want ErrNoThinking", err)
	}
	var me *ModelError
	if !errors.As(err, &me) || me.Model != "llama3.2" {
		t.Errorf("the error names no model: %v", err)
	}
	// think false (a background call) is fine for it, and it does not think.
	r, err := c.Chat(context.Background(), ChatRequest{Models: []string{"llama3.2"}, Messages: userMsg("q"), NoThink: true}, func(Delta) error { return nil })
	if err != nil || r.Thinking != "" {
		t.Errorf("think false for llama3.2: %+v, %v", r, err)
	}
}

func TestParseThink(t *testing.T) {
	for in, want := range map[string]string{"": "<nil>", "default": "<nil>", "ON": "true", "off": "false", "low": `"low"`, " High ": `"high"`} {
		v, err := ParseThink(in)
		got := "<nil>"
		if v != nil {
			got = fmtThink(v)
		}
		if err != nil || got != want {
			t.Errorf("ParseThink(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ParseThink("maybe"); !errors.Is(err, ErrBadThink) {
		t.Errorf("ParseThink(maybe) = %v", err)
	}
}

// TestAMinuteOfThinkingIsNotAStall is the issue's own case at full scale: a
// model that thinks for 60 s (a piece every 2 s) before its first answer
// token, with first_token_timeout 30 s and token_gap_timeout 30 s (the
// defaults a user may have), answers; it runs beside the package's other tests.
func TestAMinuteOfThinkingIsNotAStall(t *testing.T) {
	t.Parallel()
	fake := thinker(30, 2*time.Second)
	c := newClient(t, fake, func(cfg *Config) { cfg.FirstTokenTimeout, cfg.TokenGapTimeout = 30*time.Second, 30*time.Second })
	start := time.Now()
	reply, err := c.Chat(context.Background(), ChatRequest{Models: []string{"qwen3"}, Messages: userMsg("think for a minute")}, func(Delta) error { return nil })
	if err != nil {
		t.Fatalf("after %s of thinking: %v", time.Since(start).Round(time.Second), err)
	}
	if took := time.Since(start); took < 60*time.Second || reply.Content != "The answer" {
		t.Errorf("reply %q after %s; want the answer after a minute of thought", reply.Content, took)
	}
}
