package app

// bindgen writes the window's TypeScript types and client (frontend/src/lib/bindings.gen.ts)
// and web mode's table of methods (webmethods_gen.go) from this package's types.
//go:generate go run -C ../build/tools ./bindgen -root ../..

import (
	"context"
	"errors"
	"maps"
	"strings"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/tools"
)

// App is what the window binds and web mode serves: one service per domain
// (Chat, Sessions, Knowledge, ...), built once here, each a small type whose
// methods are thin (call Core or a backend store, convert to DTOs, map errors
// to user messages), and the page's lifecycle (UIReady) on App itself
// (docs/architecture.md, "Bound services").
//
//bindgen:bound
type App struct {
	core *Core
	// the domain services bound beside App, each in the field named after its
	// domain (its type's name without Service: bindgen and the command line
	// reach it there)
	Chat      *ChatService
	Knowledge *KnowledgeService
	Sessions  *SessionsService
	Tools     *ToolsService
	Settings  *SettingsService
	Models    *ModelsService
	Memory    *MemoryService
	Workflows *WorkflowsService
	Agents    *AgentsService
	MCP       *MCPService
	// emit sends an event to the UI; set by the desktop or the web server.
	emit func(name string, data any)
	// ready is called once when the UI reports it has loaded.
	ready     func()
	readyOnce sync.Once
	// methods is web mode's table of the bound methods, and bound that of the
	// request-bound ones (webbound.go), each built on first use.
	methods, bound func() map[string]webMethod

	*desktopHooks
}

// ChatService is the chat as the window and web mode call it: a turn and its
// stream, its stop, its branches, the context inspector, attachments, the
// chat's settings, incognito, and the approvals a turn waits on. One bound
// service of its own beside App.
//
//bindgen:bound
type ChatService struct {
	core *Core
	emit func(name string, data any)
	// throttle is the shortest gap between two chat:delta events of one request: the UI's
	// redraw interval of a streaming reply (Message.svelte, STREAM_DRAW_MS). Deltas sent more
	// often are not drawn sooner; each still costs the page a read, a parse and an update
	// (at 50 tokens/s a 30 ms gap cost the page about 1% of a core more than this).
	throttle  time.Duration
	approvals *uiApprover
	reqs      *inflight     // turns, model jobs and imports, by request id
	contexts  *liveContexts // kept after each turn for the inspector
	sessions  *SessionsService

	mu        sync.Mutex
	incognito bool
}

// quotesStale reports whether a memory change can make a live report quote text
// that is gone or changed (adding or confirming memories cannot).
func quotesStale(name string, data any) bool {
	if name != string(evMemoryChanged) {
		return false
	}
	ch, ok := data.(memory.Change)
	return !ok || ch.AltersText()
}

// NewApp returns the facade over core. emit may be nil until a UI attaches.
func NewApp(core *Core, emit func(name string, data any)) *App {
	if emit == nil {
		emit = func(string, any) {}
	}
	a := &App{core: core, emit: emit, desktopHooks: &desktopHooks{}}
	reqs, contexts := &inflight{}, &liveContexts{} // what the model saw on each chat's last turn in this run
	approvals := &uiApprover{emit: a.emitEvent, timeout: 5 * time.Minute, pending: map[string]chan tools.Decision{}}
	a.Knowledge = &KnowledgeService{core: core, desk: a.desktopHooks}
	a.Sessions = &SessionsService{core: core, desk: a.desktopHooks, reqs: reqs, emit: a.emitEvent, contexts: contexts}
	a.Chat = &ChatService{core: core, emit: a.emitEvent, throttle: streamGap, approvals: approvals, reqs: reqs,
		contexts: contexts, sessions: a.Sessions}
	a.Tools = &ToolsService{core: core}
	a.Settings = &SettingsService{core: core}
	a.Models = &ModelsService{core: core, desk: a.desktopHooks, reqs: reqs, emit: a.emitEvent}
	a.Memory = &MemoryService{core: core}
	a.Workflows = &WorkflowsService{core: core}
	a.Agents = &AgentsService{core: core}
	a.MCP = &MCPService{core: core}
	a.methods, a.bound = sync.OnceValue(a.webMethods), sync.OnceValue(a.requestBound)
	core.SetApprover(approvals)
	core.mu.Lock()
	core.emit = func(n string, d any) {
		if quotesStale(n, d) { // live reports quote memories: rebuild them from the stored recipes
			contexts.stale()
		}
		a.emit(n, d)
	}
	core.mu.Unlock()
	core.tools.exec.OnBreakerChange = func(tool, from, to string) {
		send(a.emit, evBreaker, BreakerChange{Tool: tool, From: from, To: to})
	}
	return a
}

// emitEvent sends an event to the page, when one is attached.
func (a *App) emitEvent(name string, data any) {
	if a.emit != nil {
		a.emit(name, data)
	}
}

// desktopHooks are what only the desktop window can do, set by it when it
// starts (RunDesktop); each is nil in web mode and the command line.
type desktopHooks struct {
	// saveDialog asks where to save a file, openDialog for a file to open
	saveDialog func(defaultName string) (string, error)
	openDialog func(title, pattern string) (string, error)
	// folderDialog asks for a folder, openPath hands a file to the desktop
	folderDialog func(title string) (string, error)
	openPath     func(path string)
}

// SendMessage runs one turn, streaming chat:delta:<requestID> events, and returns when
// the reply is complete, cancelled (by CancelMessage) or failed.
func (a *ChatService) SendMessage(requestID, sessionID, text string) (TurnResult, error) {
	return a.send(context.Background(), requestID, sessionID, text)
}

func (a *ChatService) send(parent context.Context, requestID, sessionID, text string) (TurnResult, error) {
	return a.run(parent, requestID, agent.Input{SessionID: sessionID, Text: text})
}

func (a *ChatService) run(parent context.Context, requestID string, in agent.Input) (TurnResult, error) {
	ctx, done, err := a.reqs.track(parent, requestID)
	if err != nil {
		return TurnResult{}, err
	}
	defer done()

	out := newThrottle(a.throttle, func(d Delta) { send(a.emit, evDelta.of(requestID), d) })
	in.RequestID = requestID
	a.mu.Lock()
	in.Incognito = a.incognito
	a.mu.Unlock()
	gen := a.contexts.generation()
	in.OnTool = func(o tools.Outcome) { send(a.emit, evTool.of(requestID), toToolCall(o)) }
	watch := newLoadingWatch()
	go a.watchLoading(ctx, requestID, in, watch)
	res, err := a.core.turn(ctx, in, func(d llm.Delta) error {
		watch.token()
		out.add(d)
		return nil
	})
	out.flush()
	tr := ToTurnResult(res)
	if res.Session.ID != "" && len(res.Context.Items) > 0 {
		a.contexts.keep(res.Session.ID, toContextReport(res.Session.ID, res), gen)
	}
	if err != nil {
		return tr, storedIn(a.core.userErr(ctx, err), res)
	}
	return tr, nil
}

// storedIn tells the UI, with a failed turn's error, where the user's message
// was stored ("session", "stored": its id): the reply failed, not the send, and
// the UI must not put the text back to be sent twice. Nothing is added when the
// message was not stored.
func storedIn(err error, res agent.Result) error {
	var ue *UserError
	if res.User.ID == "" || res.Session.ID == "" || !errors.As(err, &ue) {
		return err
	}
	p := make(map[string]string, len(ue.Params)+2)
	maps.Copy(p, ue.Params)
	p["session"], p["stored"] = res.Session.ID, res.User.ID
	ue.Params = p
	return err
}

// inflight are the long calls under way by their request id (a turn, a
// model's pull or import, a chat import), so that the page can stop one.
type inflight struct {
	mu      sync.Mutex
	running map[string]context.CancelFunc
}

// track registers long work under its request id, cancellable by cancel
// (CancelMessage, CancelModelJob); done ends it.
func (r *inflight) track(parent context.Context, requestID string) (context.Context, func(), error) {
	if requestID == "" {
		return nil, nil, &UserError{Message: "Internal error: the request has no id.", Code: CodeInternal}
	}
	ctx, cancel := context.WithCancel(parent)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.running[requestID]; dup {
		cancel()
		return nil, nil, &UserError{Message: "That request is already running.", Code: CodeConflict}
	}
	if r.running == nil {
		r.running = map[string]context.CancelFunc{}
	}
	r.running[requestID] = cancel
	return ctx, func() {
		cancel()
		r.mu.Lock()
		delete(r.running, requestID)
		r.mu.Unlock()
	}, nil
}

// cancel stops the request under way with that id, if any.
func (r *inflight) cancel(requestID string) {
	r.mu.Lock()
	cancel, ok := r.running[requestID]
	r.mu.Unlock()
	if ok {
		cancel()
	}
}

// CancelMessage stops a running SendMessage; its partial reply is kept.
func (a *ChatService) CancelMessage(requestID string) error {
	a.reqs.cancel(requestID)
	return nil
}

// NewSession starts an empty conversation.
func (a *ChatService) NewSession() (SessionInfo, error) {
	ctx := context.Background()
	a.mu.Lock()
	incognito := a.incognito
	a.mu.Unlock()
	s, err := a.core.NewSession(ctx, incognito)
	if err != nil {
		return SessionInfo{}, a.core.userErr(ctx, err)
	}
	return s, nil
}

// UIReady is called by the frontend once it has loaded and talked to the backend.
func (a *App) UIReady() error {
	a.readyOnce.Do(func() {
		if a.ready != nil {
			a.ready()
		}
	})
	return nil
}

// streamGap is how often a streaming reply's new text goes to the UI: as often as the page
// draws it (Message.svelte's STREAM_DRAW_MS), no more; a delta between two draws would only wake
// the page for nothing.
const streamGap = 150 * time.Millisecond

// throttle coalesces deltas: the first goes out at once, later ones at most
// every gap, the reasoning and the answer that arrived meanwhile in one event.
type throttle struct {
	gap  time.Duration
	send func(Delta)

	mu        sync.Mutex
	buf, tbuf strings.Builder
	last      time.Time
	pending   *time.Timer
}

func newThrottle(gap time.Duration, send func(Delta)) *throttle {
	return &throttle{gap: gap, send: send}
}

func (t *throttle) add(d llm.Delta) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.WriteString(d.Content)
	t.tbuf.WriteString(d.Thinking)
	if since := time.Since(t.last); since >= t.gap {
		t.flushLocked()
		return
	}
	if t.pending == nil {
		t.pending = time.AfterFunc(t.gap-time.Since(t.last), func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.flushLocked()
		})
	}
}

func (t *throttle) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
}

func (t *throttle) flushLocked() {
	if t.pending != nil {
		t.pending.Stop()
		t.pending = nil
	}
	if t.buf.Len() == 0 && t.tbuf.Len() == 0 {
		return
	}
	t.send(Delta{Text: t.buf.String(), Thinking: t.tbuf.String()})
	t.buf.Reset()
	t.tbuf.Reset()
	t.last = time.Now()
}
