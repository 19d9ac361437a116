package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/tools"
)

// scripted is a model that answers each call with the next reply of its
// script (streaming the reply's text as one piece) and keeps what it was sent.
type scripted struct {
	replies []llm.Reply
	sent    []llm.ChatRequest
}

func (s *scripted) Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error) {
	s.sent = append(s.sent, req)
	if err := ctx.Err(); err != nil {
		return llm.Reply{}, err
	}
	r := s.replies[min(len(s.sent), len(s.replies))-1]
	if r.Content != "" {
		if err := fn(llm.Delta{Content: r.Content}); err != nil {
			return llm.Reply{}, err
		}
	}
	return r, nil
}

// toolRounds runs every call as ok, and stops after stopAfter rounds (0: never).
type toolRounds struct {
	rounds, stopAfter int
	onRound           func()
}

func (g *toolRounds) RunAll(_ context.Context, calls []llm.ToolCall) ([]tools.Outcome, *tools.StopReason) {
	g.rounds++
	if g.onRound != nil {
		g.onRound()
	}
	var outs []tools.Outcome
	for _, c := range calls {
		outs = append(outs, tools.Outcome{CallID: c.ID, Tool: c.Name, Status: tools.StatusOK, Content: "result of " + c.Name})
	}
	if g.stopAfter > 0 && g.rounds >= g.stopAfter {
		return outs, &tools.StopReason{Kind: "max_iterations", Message: "stopped"}
	}
	return outs, nil
}

func callOf(name string) llm.Reply {
	return llm.Reply{Content: "let me look", ToolCalls: []llm.ToolCall{{ID: "c-" + name, Name: name, Arguments: []byte(`{}`)}}}
}

// The loop asks, runs the calls, gives the model their results after its own
// message, and asks again until it answers; every stage hears its part.
func TestLoopRunsToolsUntilTheModelAnswers(t *testing.T) {
	model := &scripted{replies: []llm.Reply{callOf("current_time"), callOf("session_search"), {Content: "It is noon."}}}
	var asks []int
	var text strings.Builder
	var results []string
	req := llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "what time is it?"}}}
	end, err := Loop{LLM: model, Tools: &toolRounds{},
		Ask:    func(r int) { asks = append(asks, r) },
		Delta:  func(d llm.Delta) error { text.WriteString(d.Content); return nil },
		Result: func(o tools.Outcome) error { results = append(results, o.Tool); return nil },
	}.Run(context.Background(), &req)
	if err != nil || end.ChatErr != nil || end.Stop != nil || end.Reply.Content != "It is noon." {
		t.Fatalf("end = %+v, %v", end, err)
	}
	if len(asks) != 3 || asks[2] != 2 || strings.Join(results, ",") != "current_time,session_search" {
		t.Fatalf("asks %v, results %v", asks, results)
	}
	if text.String() != "let me looklet me lookIt is noon." {
		t.Fatalf("deltas %q", text.String())
	}
	last := model.sent[2].Messages
	if len(last) != 5 || last[1].Role != "assistant" || len(last[1].ToolCalls) != 1 || last[2].Role != "tool" ||
		last[2].ToolName != "current_time" || !strings.Contains(last[4].Content, "result of session_search") {
		t.Fatalf("third request = %+v", last)
	}
}

// The guard's stop, a stop between rounds, a stage's error and a model with
// no tools each end the loop where they happen.
func TestLoopEnds(t *testing.T) {
	ctx := context.Background()
	req := func() *llm.ChatRequest {
		return &llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "go"}}}
	}
	spin := &scripted{replies: []llm.Reply{callOf("current_time")}}

	end, err := Loop{LLM: spin, Tools: &toolRounds{stopAfter: 2}}.Run(ctx, req())
	if err != nil || end.Stop == nil || len(spin.sent) != 2 {
		t.Fatalf("guard: end %+v, err %v, %d calls", end, err, len(spin.sent))
	}

	cctx, cancel := context.WithCancel(ctx)
	end, err = Loop{LLM: &scripted{replies: []llm.Reply{callOf("current_time")}}, Tools: &toolRounds{onRound: cancel}}.Run(cctx, req())
	if err != nil || !errors.Is(end.ChatErr, context.Canceled) {
		t.Fatalf("stopped: end %+v, err %v", end, err)
	}

	boom := errors.New("disk full")
	end, err = Loop{LLM: &scripted{replies: []llm.Reply{callOf("current_time")}}, Tools: &toolRounds{},
		Result: func(tools.Outcome) error { return boom }}.Run(ctx, req())
	if !errors.Is(err, boom) {
		t.Fatalf("stage error: %v", err)
	}

	none := &scripted{replies: []llm.Reply{callOf("current_time")}}
	end, err = Loop{LLM: none}.Run(ctx, req())
	if err != nil || len(none.sent) != 1 || len(end.Reply.ToolCalls) != 1 {
		t.Fatalf("no tools: end %+v, err %v, %d calls", end, err, len(none.sent))
	}
}

// One default: no Budget and no size asked is DefaultBudget; a size asked
// without a Budget is its prompt share.
func TestBudgetOf(t *testing.T) {
	if b, n, _, _ := Budget(nil).Of(context.Background(), nil, 0); b != DefaultBudget || n != 0 {
		t.Fatalf("default = %d, %d", b, n)
	}
	if b, n, _, _ := Budget(nil).Of(context.Background(), nil, 8192); n != 8192 || b <= 0 || b >= 8192 {
		t.Fatalf("asked 8192 = %d, %d", b, n)
	}
}
