package app

import (
	"context"
	"encoding/json"
)

// WorkflowsService is the workflows as the window and web mode call them (the
// Workflows panel, a run's steps): one bound service of its own beside App.
//
//bindgen:bound
type WorkflowsService struct {
	core *Core
}

// Workflow methods of the UI.

// ListWorkflows lists the declared workflows.
func (a *WorkflowsService) ListWorkflows() ([]WorkflowInfo, error) {
	list, _ := a.core.Workflows()
	return list, nil
}

// WorkflowProblems lists the mistakes in workflows.yaml, one line each.
func (a *WorkflowsService) WorkflowProblems() ([]string, error) {
	_, errs := a.core.Workflows()
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out, nil
}

// WorkflowRuns lists the runs of a session ("" for all), newest first.
func (a *WorkflowsService) WorkflowRuns(sessionID string) ([]WorkflowRun, error) {
	ctx := context.Background()
	runs, err := a.core.WorkflowRuns(ctx, sessionID, 100)
	return runs, a.core.userErr(ctx, err)
}

// GetWorkflowRun reads a run with its steps.
func (a *WorkflowsService) GetWorkflowRun(id string) (WorkflowRun, error) {
	ctx := context.Background()
	r, err := a.core.WorkflowRun(ctx, id)
	return r, a.core.userErr(ctx, err)
}

// RunWorkflow runs a workflow with inputs (a JSON object) in a session ("" for
// none); progress comes as workflow:progress events; it returns the run when it
// ends.
func (a *WorkflowsService) RunWorkflow(sessionID, name string, inputs json.RawMessage) (WorkflowRun, error) {
	return a.runWorkflow(context.Background(), sessionID, name, inputs)
}

func (a *WorkflowsService) runWorkflow(ctx context.Context, sessionID, name string, inputs json.RawMessage) (WorkflowRun, error) {
	if len(inputs) == 0 || string(inputs) == "null" {
		inputs = json.RawMessage("{}")
	}
	r, err := a.core.RunWorkflow(ctx, name, inputs, WorkflowOptions{SessionID: sessionID})
	return r, a.workflowErr(ctx, err)
}

// ResumeWorkflow resumes a failed or interrupted run; with confirm it runs again
// the steps that were stopped mid-way.
func (a *WorkflowsService) ResumeWorkflow(id string, confirm bool) (WorkflowRun, error) {
	return a.resumeWorkflow(context.Background(), id, confirm)
}

func (a *WorkflowsService) resumeWorkflow(ctx context.Context, id string, confirm bool) (WorkflowRun, error) {
	r, err := a.core.ResumeWorkflow(ctx, id, WorkflowOptions{Confirm: confirm})
	return r, a.workflowErr(ctx, err)
}

// CancelWorkflow cancels a run.
func (a *WorkflowsService) CancelWorkflow(id string) (WorkflowRun, error) {
	ctx := context.Background()
	r, err := a.core.CancelWorkflow(ctx, id)
	return r, a.workflowErr(ctx, err)
}

// workflowErr keeps the workflow engine's own messages (they say what to do).
func (a *WorkflowsService) workflowErr(ctx context.Context, err error) error {
	if err != nil && IsWorkflowBadInput(err) {
		return &UserError{Message: err.Error(), Err: err}
	}
	return a.core.userErr(ctx, err)
}
