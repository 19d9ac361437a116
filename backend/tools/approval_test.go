package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm"
)

// scriptedApprover answers from a list and records what it was asked.
type scriptedApprover struct {
	mu      sync.Mutex
	answers []Decision
	err     error
	asked   []ApprovalRequest
}

func (a *scriptedApprover) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	if a.err != nil {
		return Decision{}, a.err
	}
	if len(a.answers) == 0 {
		return Decision{}, errors.New("no scripted answer")
	}
	d := a.answers[0]
	a.answers = a.answers[1:]
	return d, nil
}

func (a *scriptedApprover) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

func TestApprovals(t *testing.T) {
	ctx := context.Background()
	args := `{"text":"notes.txt","api_key":"sk-123"}`
	params := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"api_key":{"type":"string"}},"required":["text"]}`)
	newTool := func(name string, a Annotations) *Func {
		return &Func{ToolName: name, ToolDescription: "Acts.", Params: params, Annots: a,
			Fn: func(context.Context, json.RawMessage) (json.RawMessage, error) { return TextResult("done"), nil }}
	}
	yesOnce := Decision{Allow: true, Scope: ScopeOnce}
	yesSession := Decision{Allow: true, Scope: ScopeSession}

	t.Run("which annotations ask", func(t *testing.T) {
		tests := []struct {
			name string
			a    Annotations
			asks bool
		}{
			{"read-only", Annotations{ReadOnly: true}, false},
			{"plain write", Annotations{}, false},
			{"destructive", Annotations{Destructive: true}, true},
			{"open world", Annotations{ReadOnly: true, OpenWorld: true}, true},
			{"command", Annotations{Command: true}, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ap := &scriptedApprover{answers: []Decision{yesOnce}}
				h := newHarness(t, Config{}, newTool("act", tt.a))
				h.exec.Approver = ap
				o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("act", args))
				if !o.OK() || (ap.count() == 1) != tt.asks {
					t.Fatalf("outcome %s, asked %d", o.Status, ap.count())
				}
			})
		}
	})
	t.Run("the request shows the full arguments and the definition hash", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesOnce}}
		tool := newTool("delete_file", Annotations{Destructive: true})
		h := newHarness(t, Config{}, tool)
		h.exec.Approver = ap
		turn := h.exec.NewTurn(TurnInfo{SessionID: "s1"})
		turn.Run(ctx, llm.ToolCall{ID: "c9", Name: "delete_file", Arguments: json.RawMessage(args)})
		req := ap.asked[0]
		if string(req.Args) != args || req.DefinitionHash != DefinitionHash(tool) || req.Tool != "delete_file" ||
			req.SessionID != "s1" || req.CallID != "c9" || req.RequestID != turn.RequestID() || !req.Annotations.Destructive {
			t.Fatalf("request = %+v", req)
		}
	})
	t.Run("the outcome keeps how long the user took to answer", func(t *testing.T) {
		h := newHarness(t, Config{}, newTool("delete_file", Annotations{Destructive: true}))
		h.exec.Approver = ApproverFunc(func(context.Context, ApprovalRequest) (Decision, error) {
			time.Sleep(150 * time.Millisecond) // the user reads the arguments
			return yesOnce, nil
		})
		o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("delete_file", args))
		if !o.OK() || o.Waited < 150*time.Millisecond || o.Waited > 5*time.Second {
			t.Fatalf("outcome %s, waited %v", o.Status, o.Waited)
		}
		h.exec.Approver = nil
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("delete_file", args)); o.Waited != 0 {
			t.Fatalf("waited %v without being asked", o.Waited)
		}
	})
	t.Run("denial is a result for the model, not an error", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{{Allow: false}}}
		var ran bool
		tool := newTool("rm", Annotations{Destructive: true})
		tool.Fn = func(context.Context, json.RawMessage) (json.RawMessage, error) { ran = true; return nil, nil }
		h := newHarness(t, Config{}, tool)
		h.exec.Approver = ap
		turn := h.exec.NewTurn(TurnInfo{})
		o, stop := turn.Run(ctx, call("rm", args))
		p := problemOf(t, o)
		if ran || o.Status != StatusDenied || p.Error != KindDenied || p.Tool != "rm" || stop != nil || o.Failed() {
			t.Fatalf("outcome = %+v problem %+v", o, p)
		}
		if rows := h.rows(t, AuditFilter{Status: StatusDenied}); len(rows) != 1 {
			t.Fatalf("denied rows = %d", len(rows))
		}
	})
	t.Run("an unattended turn refuses instead of asking, though an approver is there", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesOnce}}
		var ran bool
		tool := newTool("rm", Annotations{Destructive: true})
		tool.Fn = func(context.Context, json.RawMessage) (json.RawMessage, error) { ran = true; return nil, nil }
		h := newHarness(t, Config{}, tool)
		h.exec.Approver = ap
		o, _ := h.exec.NewTurn(TurnInfo{Unattended: true}).Run(ctx, call("rm", args))
		p := problemOf(t, o)
		if ran || ap.count() != 0 || p.Error != KindApprovalFailed || !strings.Contains(p.Message, "no one to ask") {
			t.Fatalf("ran %v, asked %d, problem %+v", ran, ap.count(), p)
		}
		// A call that needs no approval still runs unattended.
		h2 := newHarness(t, Config{}, newTool("read", Annotations{ReadOnly: true}))
		h2.exec.Approver = ap
		if o, _ := h2.exec.NewTurn(TurnInfo{Unattended: true}).Run(ctx, call("read", args)); !o.OK() {
			t.Fatalf("read-only outcome = %+v", o)
		}
	})
	t.Run("a turn run inside an unattended turn's tool call is unattended too", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesOnce, yesOnce}}
		var ran bool
		rm := newTool("rm", Annotations{Destructive: true})
		rm.Fn = func(context.Context, json.RawMessage) (json.RawMessage, error) {
			ran = true
			return TextResult("gone"), nil
		}
		var h *harness
		var inner Outcome
		// A read-only tool that runs a turn of its own, as a sub-agent's tool does.
		nest := newTool("nest", Annotations{ReadOnly: true})
		nest.Fn = func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			inner, _ = h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", args))
			return TextResult("nested"), nil
		}
		h = newHarness(t, Config{}, rm, nest)
		h.exec.Approver = ap
		if o, _ := h.exec.NewTurn(TurnInfo{Unattended: true}).Run(ctx, call("nest", args)); !o.OK() {
			t.Fatalf("outer outcome = %+v", o)
		}
		if ran || ap.count() != 0 || problemOf(t, inner).Error != KindApprovalFailed {
			t.Fatalf("ran %v, asked %d, inner %+v", ran, ap.count(), inner)
		}
		// The same nesting in an attended turn asks as usual.
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("nest", args)); !o.OK() || !ran || ap.count() != 1 {
			t.Fatalf("attended: outcome %s, ran %v, asked %d", o.Status, ran, ap.count())
		}
	})
	t.Run("a turn's own approver decides its calls and no other turn's", func(t *testing.T) {
		window := &scriptedApprover{answers: []Decision{{Allow: false}}}
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = window
		own := &scriptedApprover{answers: []Decision{yesOnce}}
		if o, _ := h.exec.NewTurn(TurnInfo{Approver: own}).Run(ctx, call("rm", args)); !o.OK() || own.count() != 1 || window.count() != 0 {
			t.Fatalf("outcome %s, own asked %d, window asked %d", o.Status, own.count(), window.count())
		}
		// The next turn without one is asked through the executor's approver again.
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", args)); o.Status != StatusDenied || window.count() != 1 {
			t.Fatalf("outcome %s, window asked %d", o.Status, window.count())
		}
	})
	t.Run("allow once asks again next time", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesOnce, yesOnce}}
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = ap
		turn := h.exec.NewTurn(TurnInfo{SessionID: "s1"})
		turn.Run(ctx, call("rm", `{"text":"a"}`))
		turn.Run(ctx, call("rm", `{"text":"b"}`))
		if ap.count() != 2 {
			t.Fatalf("asked %d times", ap.count())
		}
	})
	t.Run("allow for this session is remembered per session and per definition", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesSession, yesOnce, yesOnce}}
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = ap
		for _, text := range []string{"a", "b", "c"} { // one question, then remembered
			if o, _ := h.exec.NewTurn(TurnInfo{SessionID: "s1"}).Run(ctx, call("rm", `{"text":"`+text+`"}`)); !o.OK() {
				t.Fatalf("outcome = %+v", o)
			}
		}
		if ap.count() != 1 {
			t.Fatalf("asked %d times in one session", ap.count())
		}
		h.exec.NewTurn(TurnInfo{SessionID: "s2"}).Run(ctx, call("rm", `{"text":"a"}`))
		if ap.count() != 2 {
			t.Fatal("another session must ask")
		}
		// The tool changes its description: the grant no longer applies.
		h.reg.Unregister("rm")
		changed := newTool("rm", Annotations{Destructive: true})
		changed.ToolDescription = "Acts. Also uploads your files."
		if err := h.reg.Register(changed); err != nil {
			t.Fatal(err)
		}
		h.exec.NewTurn(TurnInfo{SessionID: "s1"}).Run(ctx, call("rm", `{"text":"a"}`))
		if ap.count() != 3 || ap.asked[2].DefinitionHash == ap.asked[0].DefinitionHash {
			t.Fatalf("a changed definition must ask again (asked %d)", ap.count())
		}
	})
	t.Run("without a session nothing is remembered", func(t *testing.T) {
		ap := &scriptedApprover{answers: []Decision{yesSession, yesSession}}
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = ap
		h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", `{"text":"a"}`))
		h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", `{"text":"b"}`))
		if ap.count() != 2 {
			t.Fatalf("asked %d", ap.count())
		}
	})
	t.Run("auto-approved tools do not ask", func(t *testing.T) {
		ap := &scriptedApprover{}
		h := newHarness(t, Config{})
		if err := h.reg.Register(newTool("rm", Annotations{Destructive: true}), WithAutoApprove()); err != nil {
			t.Fatal(err)
		}
		h.exec.Approver = ap
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", args)); !o.OK() || ap.count() != 0 {
			t.Fatalf("outcome %+v asked %d", o, ap.count())
		}
	})
	t.Run("no approver refuses", func(t *testing.T) {
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", args)); o.ErrorKind != KindApprovalFailed {
			t.Fatalf("outcome = %+v", o)
		}
	})
	t.Run("an approver error is a clear failure", func(t *testing.T) {
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = &scriptedApprover{err: errors.New("window closed")}
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(ctx, call("rm", args)); o.ErrorKind != KindApprovalFailed || !strings.Contains(o.Content, "window closed") {
			t.Fatalf("outcome = %+v", o)
		}
	})
	t.Run("cancelling while the dialog is open is a cancellation", func(t *testing.T) {
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = ApproverFunc(func(ctx context.Context, _ ApprovalRequest) (Decision, error) {
			<-ctx.Done()
			return Decision{}, ctx.Err()
		})
		cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		if o, _ := h.exec.NewTurn(TurnInfo{}).Run(cctx, call("rm", args)); o.Status != StatusCancelled {
			t.Fatalf("outcome = %+v", o)
		}
	})
	t.Run("parallel calls ask one at a time and share a session grant", func(t *testing.T) {
		var mu sync.Mutex
		inDialog, asked := 0, 0
		h := newHarness(t, Config{}, newTool("rm", Annotations{Destructive: true}))
		h.exec.Approver = ApproverFunc(func(context.Context, ApprovalRequest) (Decision, error) {
			mu.Lock()
			inDialog++
			asked++
			if inDialog > 1 {
				t.Error("two dialogs at once")
			}
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			inDialog--
			mu.Unlock()
			return yesSession, nil
		})
		outs, _ := h.exec.NewTurn(TurnInfo{SessionID: "s1"}).RunAll(ctx, []llm.ToolCall{
			call("rm", `{"text":"1"}`), call("rm", `{"text":"2"}`), call("rm", `{"text":"3"}`)})
		for _, o := range outs {
			if !o.OK() {
				t.Fatalf("outcome = %+v", o)
			}
		}
		if asked != 1 {
			t.Fatalf("asked %d times", asked)
		}
	})
}

func TestAllowAll(t *testing.T) {
	d, err := AllowAll{}.Approve(context.Background(), ApprovalRequest{})
	if err != nil || !d.Allow || d.Scope != ScopeOnce {
		t.Fatalf("decision = %+v, %v", d, err)
	}
}
