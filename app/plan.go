package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hermes/backend/memory/memtool"
	"hermes/backend/tools"
	"hermes/backend/workflow"
)

// planDescription tells the model when and how to plan.
const planDescription = "Run a plan of several tool calls. Use it when a request needs several tool calls, some of which " +
	"can run at the same time: give each step an id, the tool and its args, and in after the steps it must wait for. " +
	"Steps that wait for nothing (or whose after steps are done) run at the same time. A step's args may use " +
	"{{steps.ID.result.FIELD}}, the result of a step listed in its after. The plan is stored and shown to the user; " +
	"you get each step's result or error. If it fails, call " + workflow.PlanTool + " again with revises set to its run_id " +
	"and the steps still to do (fix the failed ones): done steps you give again unchanged are kept, not run again."

// registerPlanTool offers the model run_plan, through which it runs a plan of
// its own on the workflow engine (stored, shown as a run card, resumable). It
// is idempotent: a second call, or a tool of that name already there, is fine.
// Call it after openWorkflows.
func (c *Core) registerPlanTool() error {
	t := &tools.Func{ToolName: workflow.PlanTool, ToolDescription: planDescription, Params: workflow.PlanParams, Fn: c.planToolCall}
	err := c.tools.reg.Register(t, tools.WithGroups(tools.GroupTask), tools.WithTimeout(workflow.DefaultDeadline+5*time.Second), tools.WithOwnSchemas())
	if errors.Is(err, tools.ErrDuplicate) {
		return nil
	}
	return err
}

// planKnownTool reports whether a plan step may call a tool: one that is
// registered, switched on and offered to turns that allow tasks (FromPlan
// refuses workflows and run_plan itself; sub-agents are tools and allowed).
func (c *Core) planKnownTool(name string) bool {
	info, ok := c.tools.reg.Info(name)
	if !ok || !info.Enabled {
		return false
	}
	t, _ := c.tools.reg.Get(name)
	return t != nil && c.tools.reg.InGroup(tools.GroupTask)(t)
}

// RunPlan checks a model-made plan and runs it to its end on the workflow
// engine (kind "plan"); a plan that revises an earlier plan run keeps that
// run's done steps it repeats unchanged (see workflow.Reusable). A bad plan is
// refused with every mistake named (IsWorkflowBadInput).
func (c *Core) RunPlan(ctx context.Context, p workflow.Plan, opts WorkflowOptions) (WorkflowRun, error) {
	w, err := workflow.FromPlan(p, c.planKnownTool)
	if err != nil {
		return WorkflowRun{}, err
	}
	var reuse map[string]workflow.StepState
	if id := strings.TrimSpace(p.Revises); id != "" {
		prev, err := c.workflows.engine.Get(ctx, id)
		if err != nil {
			return WorkflowRun{}, fmt.Errorf("revises: %w", err)
		}
		if reuse, err = workflow.Reusable(prev, p, opts.SessionID); err != nil {
			return WorkflowRun{}, err
		}
	}
	c.waitForTools(ctx, w)
	return c.workflows.engine.Start(ctx, w, nil, workflow.StartOptions{SessionID: opts.SessionID, Kind: "plan",
		Observe: opts.Observe, OnCreated: opts.OnCreated, Reuse: reuse})
}

// planToolCall is run_plan: it runs the plan in the conversation that asked
// for it and tells the model how each step went.
func (c *Core) planToolCall(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var p workflow.Plan
	if err := json.Unmarshal(args, &p); err != nil {
		return nil, fmt.Errorf("the plan cannot be read: %v", err)
	}
	sid := ""
	if sc, ok := memtool.ScopeFrom(ctx); ok && sc.SessionID != "" && !sc.Incognito {
		if _, err := c.sessions.Get(ctx, sc.SessionID); err == nil {
			sid = sc.SessionID
		}
	}
	r, err := c.RunPlan(ctx, p, WorkflowOptions{SessionID: sid})
	if err != nil {
		return nil, err
	}
	if r.Status != workflow.StatusDone {
		return nil, errors.New(planReport(r))
	}
	results := map[string]json.RawMessage{}
	for _, s := range r.Steps {
		if s.Status == workflow.StepDone {
			results[s.ID] = s.Result
		}
	}
	// run_id first, as the workflow tools do: the chat finds the run's card by it.
	return json.Marshal(struct {
		RunID   string                     `json:"run_id"`
		Status  workflow.Status            `json:"status"`
		Results map[string]json.RawMessage `json:"results"`
	}{r.ID, r.Status, results})
}

// planReport is what the model reads of a plan run that did not finish: the
// run, each step's result or error, and how to go on.
func planReport(r WorkflowRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan run %s %s: %s. Steps:", r.ID, r.Status, r.Error)
	for _, s := range r.Steps {
		switch s.Status {
		case workflow.StepDone:
			fmt.Fprintf(&b, " %s (%s) done: %s;", s.ID, s.Tool, s.Result)
		case workflow.StepFailed, workflow.StepCancelled:
			fmt.Fprintf(&b, " %s (%s) %s: %s;", s.ID, s.Tool, s.Status, s.Error)
		default:
			fmt.Fprintf(&b, " %s (%s) %s;", s.ID, s.Tool, s.Status)
		}
	}
	fmt.Fprintf(&b, " To go on, call %s again with \"revises\": %q and the steps still to do (fix the failed ones); "+
		"done steps given again with the same id, tool and args are kept, not run again. (The user can also resume it: hermes workflow resume %s)",
		workflow.PlanTool, r.ID, r.ID)
	return b.String()
}
