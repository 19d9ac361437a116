// Package app is the facade the desktop window, the web mode and the CLI share. It
// holds the one composition root (Open), the Wails-bound App methods, their DTOs,
// events, and the mapping of errors to user messages. It has no SQL and no
// business logic.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"hermes/backend/agent"
	"hermes/backend/cage"
	"hermes/backend/config"
	"hermes/backend/egress"
	"hermes/backend/intent/correct"
	"hermes/backend/kb/kbtool"
	"hermes/backend/llm"
	"hermes/backend/mcp"
	"hermes/backend/memory"
	"hermes/backend/memory/memtool"
	"hermes/backend/netlog"
	"hermes/backend/ollamad"
	"hermes/backend/proc"
	"hermes/backend/procid"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/store"
	"hermes/backend/summary"
	"hermes/backend/tokencal"
)

// Options configure Open.
type Options struct {
	DataDir string              // resolved data directory
	Getenv  func(string) string // environment; nil uses os.Getenv
	// IntentModel holds the built-in intent model files (intent.onnx, labels.json,
	// featurizer.json); nil reads them from $HERMES_INTENT_MODEL_DIR or
	// <data dir>/models/intent as they are.
	IntentModel fs.FS
	// MCPOnly limits which MCP servers start (the CLI starts only the one it uses);
	// MCPNoStart starts none (commands that only read or edit mcp.json).
	MCPOnly    []string
	MCPNoStart bool
	// ReadConversations opens only what reading conversations needs (`session
	// list`, `show`, `search`): no tools, MCP servers, sub-agents, workflows or
	// agent, and no watcher of their files. Such a Core serves those reads and
	// Close, nothing that runs a turn or a tool.
	ReadConversations bool
	// OnDBWait hears when a write waits for another Hermes process (true) and
	// when it goes on (false); the CLI says so on stderr. Without it, an attached
	// UI gets the "db:waiting" event.
	OnDBWait func(waiting bool)
	// CageExe is the program that reads untrusted files in a child (run with
	// cage.Command); "" is this executable (docs/architecture.md, "The parser cage").
	CageExe string
	// OnStage hears each stage of Open and how long it took (HERMES_START_TRACE
	// on the command line, and the start-up benchmark).
	OnStage func(stage string, took time.Duration)
	// OnIndexRewrite hears that Open writes the search indexes again in this
	// build's form before it goes on (once after an upgrade: seconds for a
	// large history); the CLI says so on stderr.
	OnIndexRewrite func()
}

// stageClock times Open's stages for Options.OnStage.
type stageClock struct {
	last   time.Time
	report func(string, time.Duration)
}

func (s *stageClock) done(stage string) {
	if s.report == nil {
		return
	}
	now := time.Now()
	s.report(stage, now.Sub(s.last))
	s.last = now
}

// Core is everything wired together: the composition root.
type Core struct {
	dataDir  string
	db       *store.DB
	settings *config.Store
	sessions *session.Store
	agent    *agent.Agent
	replay   agent.Replay // what the model saw, for stored replies
	prompt   *prompt.Builder
	summary  *summary.Summarizer
	calib    *tokencal.Calibration
	docs     cage.Reader // attached files, their parsers in a child process

	intent   *intentLoader
	tools    *toolbox
	approver approverSwitch
	mcp      *mcp.Manager
	memory   *memoryLoader
	kb       *Knowledge      // the knowledge base service
	resumed  []MemoryReceipt // erasures a crash interrupted that this open finished
	self     procid.ID       // this process, the owner of its incognito chats

	erasedIncognito []DeleteReceipt             // incognito chats of a Hermes gone, erased at open
	unsaved         unsavedReplies              // replies the data dir could not take yet
	emit            func(name string, data any) // the attached UI's events; nil without one
	bg              sync.WaitGroup              // background work (summaries) finished before Close
	maintained      atomic.Bool                 // RunMaintenance runs: it sweeps, Close need not

	workflows *workflows // the workflow engine, workflows.yaml and the workflow__ tools
	agents    *agents    // agents.yaml, the sub-agent runner and the agent__ tools

	transport *http.Transport
	outbound  *egress.Net // every connection beyond the process: offline_only, and the record in netLog
	netLog    *netlog.Log
	offline   atomic.Bool // offline_only as last read
	mu        sync.Mutex
	ollama    *ollamad.Daemon   // the local Ollama for the current settings
	ollamaKey string            // the settings it was made for
	ollamaAt  string            // its host
	retired   []*ollamad.Daemon // earlier ones, stopped at Close if Hermes started them
	// ollamaRecords keeps the record of the Ollama servers Hermes started, for
	// the sweep after a crash (backend/ollamad/records.go).
	ollamaRecords *proc.Recorder
	clientKey     string
	client        *llm.Client
	probeMu       sync.Mutex // the last probe of an Ollama host (app/ollama.go)
	probeHost     string
	probeErr      error
}

// Knowledge is the knowledge base service.
func (c *Core) Knowledge() *Knowledge { return c.kb }

// cageExe is the cage's program: the one named, else this executable.
func cageExe(named string) string {
	if named != "" {
		return named
	}
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0] // the reader then fails as a refusal, never as a crash
	}
	return exe
}

// cageLimits are the cage's limits in the settings (cage_memory, cage_time).
func (c *Core) cageLimits(ctx context.Context) cage.Limits {
	st, err := c.settings.Load(ctx)
	if err != nil {
		return cage.DefaultLimits()
	}
	return cage.Limits{Memory: int64(st.CageMemoryMB) << 20, CPU: st.CageTime, Wall: st.CageTime}
}

// Open opens the data dir's database and wires the backend. Each stage
// that holds something to release pushes its undo on a list; a failing stage
// undoes the ones before it, last first (after crush's internal/app).
func Open(ctx context.Context, opts Options) (c *Core, err error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	clock := &stageClock{last: time.Now(), report: opts.OnStage}
	file, err := config.EnsureDataDir(opts.DataDir)
	if err != nil {
		return nil, err
	}
	clock.done("data dir")
	db, err := store.Open(ctx, file)
	if err != nil {
		return nil, err
	}
	clock.done("database (open, migrations, check)")
	if err := upgradeIndexForm(ctx, db, opts.OnIndexRewrite); err != nil {
		db.Close()
		return nil, err
	}
	clock.done("search indexes' form")
	var undo []func()
	defer func() {
		if err != nil {
			for i := len(undo) - 1; i >= 0; i-- {
				undo[i]()
			}
		}
	}()
	undo = append(undo, func() { db.Close() })
	c = newCore(opts, db, getenv)
	clock.done("services")
	if !opts.ReadConversations {
		if err = c.openExtensions(ctx, opts, getenv, clock, &undo); err != nil {
			return nil, err
		}
	}
	if err = c.finishLeftovers(ctx, clock); err != nil {
		return nil, err
	}
	if !opts.ReadConversations {
		c.watchToolFile()
	}
	return c, nil
}

// newCore wires the services over the open database: nothing here starts or
// holds anything.
func newCore(opts Options, db *store.DB, getenv func(string) string) *Core {
	c := &Core{
		dataDir:  opts.DataDir,
		db:       db,
		settings: config.NewStore(db.DB, getenv, domainSettings()...),
		sessions: session.NewStore(db),
		self:     procid.Self(),
	}
	c.ollamaRecords = ollamad.NewRecorder(filepath.Join(opts.DataDir, "ollama-pids"), nil)
	c.openNetwork()
	c.sessions.Profile = func(ctx context.Context) string { return memory.ActiveProfile(ctx, db) } // new chats join the active profile
	db.OnWait = opts.OnDBWait
	if db.OnWait == nil {
		db.OnWait = func(w bool) { send(c.emitEvent, evDBWaiting, w) }
	}
	modelDir := getenv("HERMES_INTENT_MODEL_DIR")
	model := opts.IntentModel
	if modelDir != "" {
		model = nil // use the files there as they are
	} else {
		modelDir = filepath.Join(opts.DataDir, "models", "intent")
	}
	c.intent = &intentLoader{model: model, dir: modelDir, libPath: getenv("HERMES_ORT_LIB"),
		corrections: correct.NewStore(filepath.Join(opts.DataDir, IntentCorrectionsFile))}
	c.docs = cage.Reader{Exe: cageExe(opts.CageExe), Limits: c.cageLimits}
	c.prompt = prompt.NewBuilder()
	c.calib = tokencal.New(db.DB)
	c.summary = &summary.Summarizer{LLM: settingsLLM{c}, Store: c.sessions, KeepTurns: 6, MinMessages: 8}
	c.memory = &memoryLoader{c: c}
	c.kb = &Knowledge{c: c}
	return c
}

// openExtensions registers the tools (built-in, tools.yaml, knowledge,
// memory), the MCP servers, the sub-agents, the workflows and the plan tool,
// then wires the agent over them; what it starts goes on undo.
func (c *Core) openExtensions(ctx context.Context, opts Options, getenv func(string) string, clock *stageClock, undo *[]func()) error {
	if err := c.openTools(getenv); err != nil {
		return err
	}
	if err := kbtool.Register(c.tools.reg, c.kb, knowledgeExists(ctx, c.db), c.kb.userSwitch); err != nil {
		return err
	}
	if err := memtool.Register(c.tools.reg, lazyMemoryTools{c}, memtool.Options{}); err != nil {
		return err
	}
	clock.done("tools (built-in, tools.yaml, knowledge, memory)")
	if err := c.openMCP(os.Environ, opts.MCPOnly, opts.MCPNoStart); err != nil {
		return err
	}
	*undo = append(*undo, func() { c.mcp.Close() })
	clock.done("MCP servers")
	c.openAgents()
	*undo = append(*undo, c.closeAgents)
	clock.done("sub-agents")
	if err := c.openWorkflows(ctx); err != nil {
		return err
	}
	*undo = append(*undo, c.closeWorkflows)
	if err := c.registerPlanTool(); err != nil {
		return err
	}
	c.agent = &agent.Agent{LLM: settingsLLM{c}, Sessions: c.sessions, Classifier: intentClassifier{c.intent},
		Prompt: c.prompt, Budget: c.budget, Calibration: c.calib, AfterTurn: c.afterTurn, Tools: c.tools,
		Memory: agentMemory{c}, ExplainError: c.explainError, Documents: c.sessions, Knowledge: c.kb}
	c.replay = agent.Replay{Sessions: c.sessions, Recalls: recallLog{c}, System: c.agent.SystemPrompt}
	clock.done("workflows and the plan tool")
	return nil
}

// finishLeftovers finishes what a dead or busy process left, as every door
// does: an import it never published is rolled back, an erasure a reader held
// up is scrubbed, a bulk erasure it did not finish is finished, and the
// incognito chats of a Hermes that stopped are erased.
func (c *Core) finishLeftovers(ctx context.Context, clock *stageClock) error {
	if _, err := c.sessions.RecoverImports(ctx); err != nil {
		return err
	}
	clock.done("unpublished imports")
	c.retryScrubs(ctx)
	c.finishErasures(ctx)
	clock.done("interrupted erasures")
	var err error
	if c.erasedIncognito, err = c.eraseIncognito(ctx, false); err != nil {
		return err
	}
	clock.done("incognito chats left")
	return nil
}

// afterTurn refreshes the session's rolling summary in the background.
func (c *Core) afterTurn(sessionID string) {
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, _, _ = c.summary.Refresh(ctx, sessionID) // best effort; the extractive fallback covers failures
	}()
}

// Close applies the due lifecycle work (sweepAtClose), waits briefly for
// background work and releases the database.
func (c *Core) Close() error {
	c.sweepAtClose()
	done := make(chan struct{})
	go func() { c.bg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, ierr := c.eraseIncognito(ctx, true) // a failure is finished by the next open
	// Without tools the Core was opened to read conversations only.
	if c.tools != nil {
		c.closeToolFile()
		c.closeWorkflows()
		c.closeAgents()
		c.mcp.Close()
	}
	c.stopOllama()
	c.intent.close()
	c.transport.CloseIdleConnections()
	_ = c.netLog.Close() // the last connections' record; never a reason to fail Close
	return errors.Join(ierr, c.db.Close())
}

// llmClient returns a client for the current settings (reused while they do not change).
func (c *Core) llmClient(ctx context.Context) (*llm.Client, config.Settings, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return nil, s, err
	}
	c.outbound.Observe(s.OfflineOnly) // turned on, no pooled connection beyond this computer is used again
	key := fmt.Sprint(s.OllamaHost, s.ConnectTimeout, s.FirstTokenTimeout, s.TokenGapTimeout, s.KeepAlive)
	c.mu.Lock()
	fresh := c.client == nil || c.clientKey != key
	c.mu.Unlock()
	if fresh && s.ManageOllama != "never" {
		_, _ = c.daemon(s).Ensure(ctx) // the first use starts a local Ollama if it may; errors show as unreachable
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client == nil || c.clientKey != key {
		c.client, err = llm.New(llm.Config{
			Host: s.OllamaHost, ConnectTimeout: s.ConnectTimeout, FirstTokenTimeout: s.FirstTokenTimeout,
			TokenGapTimeout: s.TokenGapTimeout, Retries: 2, Backoff: 300 * time.Millisecond,
			Store: c.ollamaModels, KeepAlive: &s.KeepAlive,
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
	client, s, err := l.c.llmClient(ctx)
	if err != nil {
		return llm.Reply{}, err
	}
	if len(req.Models) == 0 {
		req.Models = s.Models()
	}
	return client.Chat(ctx, req, fn)
}

// budget is the prompt budget for a turn (prompt.ContextSize and prompt.Budget
// over the settings, the context size the chat asks for, and the model's own limit).
func (c *Core) budget(ctx context.Context, models []string, asked int) (budget, numCtx int, model string, recent int) {
	client, s, err := c.llmClient(ctx)
	if err != nil { // no server to ask: the agents' default
		return agent.Budget(nil).Of(ctx, models, asked)
	}
	model = s.ChatModel
	if len(models) > 0 {
		model = models[0]
	}
	if asked <= 0 {
		asked = s.ContextWindow
	}
	numCtx = prompt.ContextSize(asked, client.ContextLength(ctx, model))
	return prompt.Budget(numCtx, s.ReplyReserve), numCtx, model, s.RecentTurns
}

// BuildContext builds the context the model would see if query were sent to the
// session now, within budget tokens (for `hermes session context` and evaluations).
func (c *Core) BuildContext(ctx context.Context, sessionID, query string, budget int) (PromptContext, error) {
	st, _ := c.settings.Load(ctx)
	w := c.chatWindow(ctx, sessionID)
	return agent.NextWindow(ctx, c.sessions, c.prompt, agent.WindowSpec{SessionID: sessionID, Channel: session.MainChannel,
		System: w.system, Query: query, Budget: budget, RecentTurns: st.RecentTurns})
}

// chatWindowSettings are what a conversation's main channel runs with.
type chatWindowSettings struct {
	system string
	models []string
	numCtx int // 0: the setting's
}

// chatWindow is what a conversation's main channel runs with: its own settings,
// else the defaults.
func (c *Core) chatWindow(ctx context.Context, sessionID string) chatWindowSettings {
	w := chatWindowSettings{system: c.agent.SystemPrompt()}
	if cs, err := c.sessions.EffectiveChatSettings(ctx, sessionID); err == nil { // its own, else its project's
		if cs.System != "" {
			w.system = cs.System
		}
		if cs.Model != "" {
			w.models = []string{cs.Model}
		}
		w.numCtx = cs.NumCtx
	}
	return w
}
