package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/tools"
)

// turn is one turn as it goes through its stages (Agent.Turn): open (the
// session, its history and the user's message), buildPrompt (what the model
// sees), stream (the model and the tools it calls) and persist (the reply).
type turn struct {
	a       *Agent
	in      Input
	onDelta func(llm.Delta) error
	res     Result
	ctx     context.Context

	sess    session.Session
	history []session.Message
	user    session.Message
	// userStored waits for the user's message to be in the database (its commit
	// overlaps the request); an error means it is not, and nothing may be shown.
	userStored func() error

	req        llm.ChatRequest
	offered    api.Tools
	sources    Sources // the passages of the user's documents offered (nil: no knowledge base)
	toolTurn   ToolTurn
	mt         MemoryTurn
	model      string
	recalledAt time.Time // when memories were recalled for this reply (the recall log's batch)

	reply          llm.Reply
	chatErr        error
	text, thinking strings.Builder
	clock          figures
}

// check refuses a turn that cannot start.
func (a *Agent) check(in Input) error {
	switch {
	case a.Prompt == nil:
		return errors.New("turn: the agent has no prompt builder")
	case in.Continue && in.SessionID == "":
		return fmt.Errorf("turn: %w: continue needs a session", session.ErrInvalid)
	case in.Continue:
		return nil
	case strings.TrimSpace(in.Text) == "":
		return ErrEmptyMessage
	}
	return session.ValidateText(in.Text)
}

// open loads the session and its history and prepares the user's message: a
// continued turn answers the last one again; a new message is classified (while
// the session loads) and committed in the background. stop ends the request
// context open made.
func (t *turn) open(ctx context.Context) (stop func(), err error) {
	a, in := t.a, t.in
	stop, t.ctx = func() {}, ctx
	var cls *classification
	if !in.Continue {
		cls = a.startClassification(ctx, in.Text)
	}
	if t.sess, err = a.session(ctx, in.SessionID); err != nil {
		return stop, err
	}
	if t.history, err = a.Sessions.History(ctx, t.sess); err != nil {
		return stop, fmt.Errorf("turn: %w", err)
	}
	if in.Continue {
		return stop, t.openContinued(ctx)
	}
	label, conf := cls.result()
	t.res.Plan = PlanFor(label, conf)
	t.user, err = a.Sessions.Prepare(session.Message{SessionID: t.sess.ID, Role: "user", Content: in.Text, Intent: label, IntentConfidence: conf})
	if err != nil {
		return stop, fmt.Errorf("turn: %w", err)
	}
	// The message commits while the prompt is built and the request goes out; nothing
	// of the reply is shown or stored before it has committed (userStored), and a
	// failed commit cancels the request.
	chatCtx, stopChat := context.WithCancelCause(ctx)
	pending := a.commitInBackground(context.WithoutCancel(ctx), t.user, stopChat)
	t.userStored = func() error {
		m, err := pending.wait()
		if err != nil {
			t.res.User = session.Message{}
			return err
		}
		t.user, t.res.User = m, m
		return nil
	}
	t.ctx, t.res.User = chatCtx, t.user
	return func() { stopChat(nil) }, nil
}

// openContinued answers the session's last user message again: it is the
// query, not history.
func (t *turn) openContinued(ctx context.Context) error {
	user, err := t.a.lastUser(ctx, t.sess.ID)
	if err != nil {
		return err
	}
	t.user, t.res.User, t.in.Text = user, user, user.Content
	t.res.Plan = PlanFor(user.Intent, user.IntentConfidence)
	for i := len(t.history) - 1; i >= 0; i-- {
		if t.history[i].ID == user.ID {
			t.history = append(t.history[:i:i], t.history[i+1:]...)
			break
		}
	}
	return nil
}

// settings applies the chat's settings to the request and the plan's guards
// to the tools offered; it returns the system prompt.
func (t *turn) settings() (string, error) {
	a, in := t.a, t.in
	t.req = llm.ChatRequest{Models: in.Models}
	system := a.systemPrompt()
	if strings.TrimSpace(in.System) != "" {
		system, t.res.Settings.System = in.System, in.System
	}
	if in.Temperature != nil {
		v := *in.Temperature
		t.res.Settings.Temperature, t.req.Options = &v, map[string]any{"temperature": v}
	}
	if len(in.Models) > 0 {
		t.res.Settings.Model = in.Models[0]
	}
	think, err := llm.ParseThink(in.Think)
	if err != nil {
		return "", fmt.Errorf("turn: %w", err)
	}
	t.req.Think, t.res.Settings.Think = think, in.Think
	t.res.Plan = guardErase(t.res.Plan, in.Text)
	if a.Tools != nil {
		t.res.Plan = widenForNamedTool(t.res.Plan, a.Tools, in.Text)
		if t.res.Plan.ToolGroup != ToolsNone {
			t.offered = a.Tools.Schemas(t.res.Plan.ToolGroup)
		}
	}
	return system, nil
}

// buildPrompt fits what the model sees into its context window (the offered
// tools' schemas counted in it): history, summary, recalled memories and
// documents.
func (t *turn) buildPrompt() error {
	a, in, ctx := t.a, t.in, t.ctx
	system, err := t.settings()
	if err != nil {
		return err
	}
	budget, numCtx, model, recent := a.Budget.Of(ctx, in.Models, in.NumCtx)
	t.model = model
	t.res.Settings.NumCtx = numCtx
	if t.res.Settings.Model == "" {
		t.res.Settings.Model = t.model
	}
	pin := prompt.Input{System: system, Query: in.Text, History: t.history, Channel: "main",
		Summary: t.sess.Summary, SummaryUpto: t.sess.SummaryUpto, Budget: budget, RecentTurns: recent}
	if err := t.recall(&pin); err != nil {
		return err
	}
	if a.Knowledge != nil {
		t.ctx, t.sources = a.Knowledge.Open(t.ctx, t.sess.ID, in.Text, autoKnowledge(t.res.Plan))
		if t.sources != nil {
			pin.Knowledge = t.sources.Items()
		}
	}
	if a.Calibration != nil && t.model != "" {
		pin.Ratio = a.Calibration.Ratio(ctx, t.model)
	}
	if pin.Documents, err = a.documents(ctx, in, t.user.ID, t.history, t.userStored); err != nil {
		return err
	}
	pin.ToolSchemas = SchemaTexts(t.offered)
	t.res.Context = a.Prompt.Build(ctx, pin)
	t.req.Messages = ChatMessages(t.res.Context)
	if in.NoImages {
		for i := range t.req.Messages {
			t.req.Messages[i].Images = nil
		}
	}
	t.offered = Fitted(t.offered, pin.ToolSchemas, t.res.Context)
	if numCtx > 0 {
		if t.req.Options == nil {
			t.req.Options = map[string]any{}
		}
		t.req.Options["num_ctx"] = numCtx
	}
	return nil
}

// recall offers memories when the plan asks for them (never in incognito).
func (t *turn) recall(pin *prompt.Input) error {
	a := t.a
	if a.Memory == nil || !t.res.Plan.Recall || t.in.Incognito {
		return nil
	}
	// Recall logs what it offers against the user's message: wait for it to exist.
	if err := t.userStored(); err != nil {
		return err
	}
	t.recalledAt = time.Now()
	mems, err := a.Memory.Recall(t.ctx, MemoryQuery{Profile: t.sess.Profile, Text: t.in.Text, SessionID: t.sess.ID,
		MessageID: t.user.ID, K: t.res.Plan.RecallK})
	if err == nil {
		t.res.Recalled, pin.Memories = mems, mems
	}
	return nil
}

// stream asks the model, runs the tools it calls and asks again, under the
// loop guard, until it answers, fails, is stopped or the guard stops it.
func (t *turn) stream() error {
	a, in := t.a, t.in
	if a.Tools != nil && t.res.Plan.ToolGroup != ToolsNone {
		t.req.Tools = t.offered
		rounds := 0
		if in.Continue && !in.Regenerate {
			rounds = 1
		}
		t.toolTurn = a.Tools.NewTurn(in.RequestID, t.sess.ID, t.res.Plan.ToolGroup, rounds)
	}
	t.mt = MemoryTurn{Profile: t.sess.Profile, SessionID: t.sess.ID, UserMessageID: t.user.ID, UserText: in.Text, Plan: t.res.Plan, Incognito: in.Incognito}
	if in.Incognito {
		t.mt.Plan.MayWriteMemory, t.mt.Plan.Recall = false, false
	}
	if a.Memory != nil {
		t.ctx = a.Memory.Scope(t.ctx, t.mt)
	}
	t.clock = figures{start: time.Now()}
	loop := Loop{LLM: a.LLM, Delta: t.delta, Asked: t.asked, Result: t.toolResult}
	if t.toolTurn != nil {
		loop.Tools = t.toolTurn
	}
	end, err := loop.Run(t.ctx, &t.req)
	t.reply, t.chatErr, t.res.Stop = end.Reply, end.ChatErr, end.Stop
	return err
}

// asked follows each call of the model: nothing of it counts before the
// user's message is stored (the caller keeps the text when it is not).
func (t *turn) asked(reply llm.Reply, _ error) error {
	if err := t.userStored(); err != nil {
		return err
	}
	t.clock.round(reply)
	return nil
}

// delta takes one streamed piece: shown and kept only once the user's message
// is stored and while the turn still runs.
func (t *turn) delta(d llm.Delta) error {
	if err := t.userStored(); err != nil {
		return err
	}
	if err := t.ctx.Err(); err != nil {
		return err // stopped: a delta already on its way is neither shown nor kept
	}
	t.clock.delta(d)
	t.text.WriteString(d.Content)
	t.thinking.WriteString(d.Thinking)
	if t.onDelta == nil {
		return nil
	}
	return t.onDelta(d)
}

// toolResult keeps one tool call's result: in the turn's figures and result,
// shown, and stored in the conversation.
func (t *turn) toolResult(o tools.Outcome) error {
	t.clock.pause(o.Waited)
	t.res.Tools = append(t.res.Tools, o)
	if t.in.OnTool != nil {
		t.in.OnTool(o)
	}
	tm := ToolMessage(o, "")
	tm.SessionID = t.sess.ID
	if _, err := t.a.Sessions.Append(context.WithoutCancel(t.ctx), tm); err != nil {
		return fmt.Errorf("turn: store tool result: %w", err)
	}
	return nil
}

// persist stores the reply, even when the caller has gone away: complete, or
// partial and marked cancelled or failed; then hands the turn to memory and the
// summary.
func (t *turn) persist() (Result, error) {
	a, ctx := t.a, context.WithoutCancel(t.ctx)
	out := t.replyMessage()
	if prepared, err := a.Sessions.Prepare(out); err == nil {
		out = prepared // its id and time now: a reply kept unsaved is stored as it was
	}
	stored, err := a.Sessions.Append(ctx, out)
	if err != nil {
		t.res.Assistant = out
		return t.res, &UnsavedReplyError{Reply: out, Err: fmt.Errorf("turn: store reply: %w", errors.Join(err, t.chatErr))}
	}
	t.res.Assistant = stored
	if t.res.Session, err = a.Sessions.Get(ctx, t.sess.ID); err != nil {
		t.res.Session = t.sess
	}
	if out.Status == session.StatusFailed {
		return t.res, fmt.Errorf("turn: %w", t.chatErr)
	}
	if a.Calibration != nil && t.reply.PromptTokens > 0 && t.res.Context.Estimated > 0 && len(t.res.Tools) == 0 {
		// A full context was cut by Ollama: its count is only a floor, and the
		// next turn must be built smaller at once, not a fifth of the way.
		full := FullContext(t.reply.PromptTokens, t.res.Settings.NumCtx)
		_ = a.Calibration.Observe(ctx, t.reply.Model, t.res.Context.Estimated, t.reply.PromptTokens, full)
	}
	if a.Memory != nil && !t.in.Incognito && !t.in.Continue {
		t.mt.AssistantMessageID, t.mt.AssistantText = stored.ID, stored.Content
		_ = a.Memory.Observe(ctx, t.mt) // queued; a failure never fails the turn
	}
	if a.AfterTurn != nil && t.res.Context.Dropped > 0 { // a summary is needed only once history stops fitting
		a.AfterTurn(t.sess.ID)
	}
	return t.res, nil
}

// replyMessage is the reply as it is stored: its text and reasoning, its
// status (a failure in the user's words), its figures and how the prompt was
// made.
func (t *turn) replyMessage() session.Message {
	a := t.a
	content := t.text.String()
	if t.res.Stop != nil && strings.TrimSpace(content) == "" {
		content = "_" + t.res.Stop.Message + "_"
	}
	out := session.Message{SessionID: t.sess.ID, Role: "assistant", Content: content, Thinking: t.thinking.String(),
		Model: t.reply.Model, Status: session.StatusOK}
	var why *Failure // a failed reply's reason, as the UI words it
	switch {
	case t.chatErr != nil && t.ctx.Err() != nil:
		out.Status = session.StatusCancelled
	case t.chatErr != nil:
		out.Status, out.Error = session.StatusFailed, t.chatErr.Error()
		if a.ExplainError != nil { // stored in the user's words, with a code the UI translates
			msg, code, params := a.ExplainError(context.WithoutCancel(t.ctx), t.chatErr)
			out.Error, why = msg, &Failure{Code: code, Params: params}
		}
	}
	if out.Status != session.StatusFailed {
		var succeeded []string
		if t.toolTurn != nil {
			succeeded = t.toolTurn.Succeeded()
		}
		t.res.Unverified = tools.ClaimsUnexecutedAction(content, succeeded)
	}
	if t.sources != nil {
		t.res.Sources = t.sources.List()
		t.res.BadCitations = BadCitations(content, t.res.Sources)
	}
	var figs *Figures
	if out.Status == session.StatusOK {
		figs = t.clock.done()
		figs.ContextSize = t.res.Settings.NumCtx
		figs.ContextFull = FullContext(figs.PromptTokens, figs.ContextSize)
	}
	out.Details, out.Context = replyDetails(t.res, figs, why), contextRecipe(t.res, t.sess.SummaryUpto, t.recalledAt)
	return out
}
