package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hermes/backend/memory/memtool"
	"hermes/backend/subagent"
	"hermes/backend/tools"
	"hermes/backend/workflow"
)

// Workflow DTOs: the backend's snapshot types, as the UI and the CLI see them.
type (
	WorkflowRun   = workflow.Run
	WorkflowStep  = workflow.StepState
	WorkflowEvent = workflow.Event
)

// WorkflowInfo describes a declared workflow.
type WorkflowInfo struct {
	Name        string              `json:"name"`
	Description string              `json:"description"`
	Inputs      json.RawMessage     `json:"inputs"` // JSON Schema (the Run form is made from it)
	Deadline    string              `json:"deadline"`
	Tool        string              `json:"tool"` // the model sees it as this tool
	Phases      []WorkflowPhaseInfo `json:"phases"`
	Line        int                 `json:"line"`
}

// WorkflowPhaseInfo is a phase of a declared workflow.
type WorkflowPhaseInfo struct {
	Name  string   `json:"name"`
	Mode  string   `json:"mode"`
	Steps []string `json:"steps"` // "id (tool)"
}

// WorkflowOptions tune RunWorkflow and ResumeWorkflow.
type WorkflowOptions struct {
	SessionID string              // the conversation the run belongs to ("" outside one)
	Confirm   bool                // resume: run again steps stopped mid-way that are not idempotent
	Observe   func(WorkflowEvent) // this run's progress; optional
	OnCreated func(WorkflowRun)   // the run exists (its id is known); optional
}

// Errors of the workflow commands.
var (
	// ErrNoWorkflow: no workflow of that name loaded from workflows.yaml.
	ErrNoWorkflow = errors.New("no such workflow")
	// ErrWorkflowConfirm: resuming would run again a step that may have acted.
	ErrWorkflowConfirm = workflow.ErrConfirm
)

// IsWorkflowBadInput reports whether err is the user's request being refused
// (an unknown workflow or run, inputs that fail the schema, a run that cannot be
// resumed or cancelled now, a confirmation missing): exit 2 on the command line.
func IsWorkflowBadInput(err error) bool {
	return errors.Is(err, ErrNoWorkflow) || errors.Is(err, workflow.ErrInvalid) || errors.Is(err, workflow.ErrNotFound) ||
		errors.Is(err, workflow.ErrConflict) || errors.Is(err, workflow.ErrConfirm)
}

// workflows is the engine and the workflows file, with the workflow tools it
// keeps in the registry.
type workflows struct {
	engine      *workflow.Engine
	catalog     *workflow.Catalog
	interrupted []string // runs a dead process left running, found at open
	tools       generatedTools
	watch       *fileWatch
	closeOnce   sync.Once
}

// openWorkflows wires the workflow engine on the tools engine, marks the runs a
// dead process left running as interrupted, offers each workflow to the model
// as a tool, and watches workflows.yaml.
func (c *Core) openWorkflows(ctx context.Context) error {
	reg := c.tools.reg
	known := func(name string) bool {
		if strings.HasPrefix(name, workflow.ToolPrefix) {
			return false // a workflow does not run workflows
		}
		if _, ok := reg.Get(name); ok || strings.HasPrefix(name, subagent.ToolPrefix) {
			return ok // a sub-agent's tool exists while it is switched on
		}
		return strings.Contains(name, "__") // an MCP tool: its server may not have started yet
	}
	eng := workflow.New(c.db, c.tools.exec)
	eng.OnEvent = func(e workflow.Event) { send(c.emitEvent, evWorkflowProgress, e) }
	wf := &workflows{engine: eng, catalog: workflow.NewCatalog(filepath.Join(c.dataDir, workflow.FileName), workflow.Options{KnownTool: known})}
	ids, err := eng.Recover(ctx)
	if err != nil {
		return err
	}
	wf.interrupted = ids
	c.workflows = wf
	c.syncWorkflowTools()
	wf.watch = startWatch(fileWatchEvery, func() {
		if wf.catalog.Refresh() {
			c.syncWorkflowTools()
			send(c.emitEvent, evWorkflowChanged, nil)
		}
	})
	return nil
}

// closeWorkflows stops the watcher and interrupts this process's runs (they can
// be resumed).
func (c *Core) closeWorkflows() {
	if c.workflows == nil {
		return
	}
	c.workflows.closeOnce.Do(func() {
		c.workflows.watch.close()
		c.workflows.engine.Close()
	})
}

// syncWorkflowTools registers workflow__<name> for each loaded workflow and
// unregisters the ones gone or changed.
func (c *Core) syncWorkflowTools() {
	list, _ := c.workflows.catalog.List()
	want := map[string]generatedTool{}
	for _, w := range list {
		want[workflow.ToolPrefix+w.Name] = generatedTool{def: encodeDef(w), tool: c.workflowTool(w),
			opts: []tools.Option{tools.WithTimeout(w.RunDeadline() + 5*time.Second)}}
	}
	c.workflows.tools.sync(c.tools.reg, want)
}

// workflowTool is a workflow as a tool the model may call: its inputs are the
// arguments; its steps ask for approval themselves where their tools do.
func (c *Core) workflowTool(w *workflow.Workflow) tools.Tool {
	var names []string
	for _, ph := range w.Phases {
		for _, s := range ph.Steps {
			names = append(names, s.Tool)
		}
	}
	desc := fmt.Sprintf("%s (a workflow of %d steps: %s; it is stored and can be resumed if it fails)", w.Description, w.Steps(), strings.Join(names, ", "))
	name := w.Name
	return &tools.Func{ToolName: workflow.ToolPrefix + name, ToolDescription: desc, Params: w.Inputs,
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			sid := ""
			if sc, ok := memtool.ScopeFrom(ctx); ok && sc.SessionID != "" && !sc.Incognito {
				if _, err := c.sessions.Get(ctx, sc.SessionID); err == nil {
					sid = sc.SessionID
				}
			}
			r, err := c.RunWorkflow(ctx, name, args, WorkflowOptions{SessionID: sid})
			if err != nil {
				return nil, err
			}
			if r.Status != workflow.StatusDone {
				return nil, fmt.Errorf("workflow run %s %s: %s (the user can resume it: hermes workflow resume %s)", r.ID, r.Status, r.Error, r.ID)
			}
			results := map[string]json.RawMessage{}
			for _, s := range r.Steps {
				if s.Status == workflow.StepDone {
					results[s.ID] = s.Result
				}
			}
			// run_id first: the chat finds the run's card by it even when a long
			// result is cut short.
			return json.Marshal(struct {
				RunID   string                     `json:"run_id"`
				Status  workflow.Status            `json:"status"`
				Results map[string]json.RawMessage `json:"results"`
			}{r.ID, r.Status, results})
		}}
}

// Workflows lists the declared workflows, and the mistakes in workflows.yaml
// (each with its line and field; a broken workflow is left out).
func (c *Core) Workflows() ([]WorkflowInfo, []error) {
	list, errs := c.workflows.catalog.List()
	out := make([]WorkflowInfo, 0, len(list))
	for _, w := range list {
		info := WorkflowInfo{Name: w.Name, Description: w.Description, Inputs: w.Inputs, Deadline: w.RunDeadline().String(),
			Tool: workflow.ToolPrefix + w.Name, Line: w.Line}
		for _, ph := range w.Phases {
			p := WorkflowPhaseInfo{Name: ph.Name, Mode: string(ph.Mode)}
			for _, s := range ph.Steps {
				p.Steps = append(p.Steps, s.ID+" ("+s.Tool+")")
			}
			info.Phases = append(info.Phases, p)
		}
		out = append(out, info)
	}
	return out, errs
}

// WorkflowFile is the path of workflows.yaml.
func (c *Core) WorkflowFile() string { return c.workflows.catalog.Path() }

// InterruptedWorkflows are the runs a dead process had left running, found when
// this Hermes opened the data dir (they can be resumed).
func (c *Core) InterruptedWorkflows() []string { return c.workflows.interrupted }

// RunWorkflow runs a declared workflow to its end and returns the run (done,
// failed, cancelled or interrupted).
func (c *Core) RunWorkflow(ctx context.Context, name string, inputs json.RawMessage, opts WorkflowOptions) (WorkflowRun, error) {
	w, ok := c.workflows.catalog.Get(name)
	if !ok {
		return WorkflowRun{}, c.noWorkflow(name)
	}
	c.waitForTools(ctx, w)
	return c.workflows.engine.Start(ctx, w, inputs, workflow.StartOptions{SessionID: opts.SessionID, Observe: opts.Observe, OnCreated: opts.OnCreated})
}

func (c *Core) noWorkflow(name string) error {
	_, errs := c.workflows.catalog.List()
	for _, e := range errs {
		var fe *workflow.Error
		if errors.As(e, &fe) && fe.Workflow == name {
			return fmt.Errorf("workflow %s is not loaded: %w: %v", name, ErrNoWorkflow, e)
		}
	}
	return fmt.Errorf("%w %q in %s (see `hermes workflow list`)", ErrNoWorkflow, name, c.WorkflowFile())
}

// ResumeWorkflow goes on with a failed or interrupted run where it stopped.
func (c *Core) ResumeWorkflow(ctx context.Context, id string, opts WorkflowOptions) (WorkflowRun, error) {
	if r, err := c.workflows.engine.Get(ctx, id); err == nil && r.Definition != nil {
		c.waitForTools(ctx, r.Definition)
	}
	return c.workflows.engine.Resume(ctx, id, workflow.ResumeOptions{Confirm: opts.Confirm, Observe: opts.Observe})
}

// CancelWorkflow cancels a run for good (one running in another Hermes process
// too).
func (c *Core) CancelWorkflow(ctx context.Context, id string) (WorkflowRun, error) {
	return c.workflows.engine.Cancel(ctx, id)
}

// WorkflowRun reads one run with its steps.
func (c *Core) WorkflowRun(ctx context.Context, id string) (WorkflowRun, error) {
	return c.workflows.engine.Get(ctx, id)
}

// WorkflowRuns lists runs, newest first ("" session: all of them).
func (c *Core) WorkflowRuns(ctx context.Context, sessionID string, limit int) ([]WorkflowRun, error) {
	runs, err := c.workflows.engine.List(ctx, workflow.Filter{SessionID: sessionID, Limit: limit})
	if runs == nil {
		runs = []WorkflowRun{}
	}
	return runs, err
}

// UnsureWorkflowSteps lists the steps a resume of the run would run again
// although they were stopped mid-way and are not idempotent.
func UnsureWorkflowSteps(r WorkflowRun) []string { return workflow.Unsure(r) }

// waitForTools starts the MCP servers a workflow's steps need and waits (at most
// 30 s) until they are ready, so their tools are registered.
func (c *Core) waitForTools(ctx context.Context, w *workflow.Workflow) {
	servers := map[string]bool{}
	for _, ph := range w.Phases {
		for _, s := range ph.Steps {
			if _, ok := c.tools.reg.Get(s.Tool); ok {
				continue
			}
			if server, _, found := strings.Cut(s.Tool, "__"); found {
				servers[server] = true
			}
		}
	}
	if len(servers) == 0 || c.mcp == nil {
		return
	}
	_ = c.mcp.Start(ctx) // already started in the window and web mode
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for s := range servers {
		_, _ = c.mcp.WaitReady(wctx, s) // a server that does not come up fails its step with the reason
	}
}
