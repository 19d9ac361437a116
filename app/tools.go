package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/ollama/ollama/api"

	"hermes/backend/agent"
	"hermes/backend/proc"
	"hermes/backend/session"
	"hermes/backend/tools"
	"hermes/backend/tools/builtin"
	"hermes/backend/tools/toolfile"
)

// toolbox is the tools engine as the agent sees it.
type toolbox struct {
	reg  *tools.Registry
	exec *tools.Executor
	// prepare, when set, runs before a turn is offered a group's tools (the
	// CLI's chat starts the MCP servers there, the first time they are needed).
	prepare func(group agent.ToolGroup)
	// file is tools.yaml: its tools are registered from it, and again whenever
	// it changes (watched like workflows.yaml and agents.yaml).
	file *toolFile
}

// toolFile is tools.yaml and the tools registered from it.
type toolFile struct {
	path  string
	opts  toolfile.Options
	tools generatedTools
	watch *fileWatch

	mu    sync.Mutex
	stamp string  // size and modification time of the file last read
	errs  []error // the mistakes found in it (the good tools still load)
}

// refresh reads tools.yaml again when it changed since the last read and
// brings the registry in step: tools gone or changed are unregistered, new
// ones registered. It reports whether the file changed.
func (f *toolFile) refresh(reg *tools.Registry) bool {
	stamp := "missing"
	if fi, err := os.Stat(f.path); err == nil {
		stamp = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if stamp == f.stamp {
		return false
	}
	f.stamp = stamp
	declared, errs := toolfile.Load(f.path, f.opts)
	want := map[string]generatedTool{}
	for _, t := range declared {
		want[t.Name()] = generatedTool{def: stamp, tool: t, opts: t.Options()} // any change re-registers all
	}
	refused := f.tools.sync(reg, want)
	for _, t := range declared { // in the file's order
		if err := refused[t.Name()]; err != nil {
			errs = append(errs, fmt.Errorf("%s line %d: %w", f.path, t.Line(), err))
		}
	}
	f.errs = errs
	return true
}

func (f *toolFile) errors() []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]error(nil), f.errs...)
}

func (c *Core) openTools(getenv func(string) string) error {
	reg := tools.NewRegistry()
	search := func(ctx context.Context, q string, limit int) ([]builtin.SearchHit, error) {
		hits, err := c.sessions.Search(ctx, q, limit)
		if err != nil {
			return nil, err
		}
		out := make([]builtin.SearchHit, 0, len(hits))
		for _, h := range hits {
			at, _ := time.Parse(time.RFC3339Nano, h.CreatedAt)
			out = append(out, builtin.SearchHit{SessionID: h.SessionID, MessageID: h.MessageID, Role: h.Role,
				Snippet: session.SnippetText(h.Snippet), Score: h.Score, CreatedAt: at})
		}
		return out, nil
	}
	if err := builtin.Register(reg, builtin.Deps{Search: search}); err != nil {
		return err
	}
	tb := &toolbox{reg: reg, file: &toolFile{path: filepath.Join(c.dataDir, "tools.yaml"), opts: toolfile.Options{LookupEnv: func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	}, Net: c.outbound, Records: proc.NewRecorder(filepath.Join(c.dataDir, "tool-pids"), "HERMES_TOOL_RUN", proc.InFlight, nil)}}}
	tb.file.refresh(reg)
	tb.exec = tools.NewExecutor(reg, tools.Config{})
	tb.exec.Audit = tools.NewAuditLog(c.db)
	tb.exec.Shared = tools.SQLBreakers{DB: c.db} // every door sees the breakers every other opened
	tb.exec.Grants = tools.NewSQLGrants(c.db)
	tb.exec.Approver = &c.approver
	c.tools = tb
	return nil
}

// registry is the tools registry (MCP tools included).
func (c *Core) registry() *tools.Registry { return c.tools.reg }

// ToolFileErrors are the mistakes in tools.yaml, each naming its line and field.
func (c *Core) ToolFileErrors() []error { return c.tools.file.errors() }

// watchToolFile re-reads tools.yaml when it changes, as workflows.yaml and
// agents.yaml are, and tells the window (tools:changed).
func (c *Core) watchToolFile() {
	f := c.tools.file
	f.watch = startWatch(fileWatchEvery, func() {
		if f.refresh(c.tools.reg) {
			send(c.emitEvent, evToolsChanged, nil)
		}
	})
}

func (c *Core) closeToolFile() {
	if w := c.tools.file.watch; w != nil {
		w.close()
	}
}

// SetApprover decides who is asked before a call that needs approval: the window's
// dialog, a terminal prompt, or a policy (--yes).
func (c *Core) SetApprover(a Approver) { c.approver.set(a) }

// Schemas are the tools a turn of the group is offered.
func (t *toolbox) Schemas(group agent.ToolGroup) api.Tools {
	if t.prepare != nil {
		t.prepare(group)
	}
	return t.reg.Schemas(t.reg.InGroup(string(group)))
}

// NamesTool reports whether a message names one of the tools by a whole word:
// its name ("shout"), its words ("convert units" for convert_units), or an MCP
// tool's own name after "server__".
func (t *toolbox) NamesTool(text string) bool {
	words := " " + strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-')
	}), " ") + " "
	for _, in := range t.reg.List() {
		name := strings.ToLower(in.Name)
		candidates := []string{name, strings.ReplaceAll(name, "_", " ")}
		if _, tool, ok := strings.Cut(name, "__"); ok {
			candidates = append(candidates, tool, strings.NewReplacer("_", " ", "-", " ").Replace(tool))
		}
		for _, c := range candidates {
			if len(c) >= 4 && strings.Contains(words, " "+c+" ") {
				return true
			}
		}
	}
	return false
}

// NewTurn starts the tool calls of one turn.
func (t *toolbox) NewTurn(requestID, sessionID string, group agent.ToolGroup, maxRounds int) agent.ToolTurn {
	return t.exec.NewTurn(tools.TurnInfo{RequestID: requestID, SessionID: sessionID, Allow: t.reg.InGroup(string(group)),
		Guard: tools.GuardConfig{MaxIterations: maxRounds}})
}

// approverSwitch forwards to the approver the front end installed; with none, calls
// that need approval are refused.
type approverSwitch struct {
	mu sync.RWMutex
	a  tools.Approver
}

func (s *approverSwitch) set(a tools.Approver) {
	s.mu.Lock()
	s.a = a
	s.mu.Unlock()
}

func (s *approverSwitch) Approve(ctx context.Context, req tools.ApprovalRequest) (tools.Decision, error) {
	s.mu.RLock()
	a := s.a
	s.mu.RUnlock()
	if a == nil {
		return tools.Decision{}, errors.New("no one can be asked to approve this call")
	}
	return a.Approve(ctx, req)
}

// ApprovalPrompt is the payload of the approval:needed event.
type ApprovalPrompt struct {
	ID string `json:"id"`
	tools.ApprovalRequest
}

// uiApprover asks the window: it emits approval:needed and waits for ResolveApproval.
type uiApprover struct {
	emit    func(string, any)
	timeout time.Duration

	mu      sync.Mutex
	pending map[string]chan tools.Decision
}

func (u *uiApprover) Approve(ctx context.Context, req tools.ApprovalRequest) (tools.Decision, error) {
	b := make([]byte, 8)
	rand.Read(b)
	id := hex.EncodeToString(b)
	ch := make(chan tools.Decision, 1)
	u.mu.Lock()
	u.pending[id] = ch
	u.mu.Unlock()
	defer func() {
		u.mu.Lock()
		delete(u.pending, id)
		u.mu.Unlock()
		send(u.emit, evApprovalDone, ApprovalDone{ID: id})
	}()
	send(u.emit, evApprovalNeeded, ApprovalPrompt{ID: id, ApprovalRequest: req})
	t := time.NewTimer(u.timeout)
	defer t.Stop()
	select {
	case d := <-ch:
		return d, nil
	case <-ctx.Done():
		return tools.Decision{}, ctx.Err()
	case <-t.C:
		return tools.Decision{Allow: false}, nil // no answer is a no
	}
}

func (u *uiApprover) resolve(id string, d tools.Decision) bool {
	u.mu.Lock()
	ch, ok := u.pending[id]
	u.mu.Unlock()
	if ok {
		ch <- d
	}
	return ok
}
