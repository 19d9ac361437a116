package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

const workflowsYAML = `version: 1
workflows:
  - name: double_plus_one
    description: Double a number, then add one.
    inputs: {type: object, properties: {n: {type: number}}, required: [n]}
    phases:
      - steps:
          - {id: double, tool: calculator, args: {expression: "{{inputs.n}} * 2"}}
          - {id: plus, tool: calculator, args: {expression: "{{steps.double.result.result}} + 1"}}
  - name: broken
    description: Calls a tool that does not exist.
    phases:
      - steps:
          - {id: a, tool: no_such_tool}
`

func newWorkflowApp(t *testing.T, dir string) (*App, *Core, *llmtest.Server) {
	t.Helper()
	fake := llmtest.New()
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL}
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string { return env[k] },
		IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return NewApp(core, nil), core, fake
}

func TestWorkflowCoreAndModelTool(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflows.yaml"), []byte(workflowsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	a, core, fake := newWorkflowApp(t, dir)
	ctx := context.Background()

	list, errs := core.Workflows()
	if len(list) != 1 || list[0].Name != "double_plus_one" || list[0].Tool != "workflow__double_plus_one" || len(errs) != 1 ||
		!strings.Contains(errs[0].Error(), "workflows.yaml:14: workflow broken: phase #1: step a: tool:") {
		t.Fatalf("list = %+v, errs = %v", list, errs)
	}
	info, ok := core.registry().Info("workflow__double_plus_one")
	if !ok || string(info.Parameters) != `{"properties":{"n":{"type":"number"}},"required":["n"],"type":"object"}` || info.NeedsApproval {
		t.Fatalf("workflow tool = %+v, %v", info, ok)
	}

	// the model calls the workflow as a tool in a turn that allows tasks
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if n, last := toolRounds(req); n > 0 {
			return llmtest.Reply{Chunks: []string{"workflow said: " + last}}
		}
		return llmtest.Reply{ToolCalls: []api.ToolCall{call("workflow__double_plus_one", map[string]any{"n": 20})}}
	}
	res, err := a.Chat.SendMessage("req-wf", "", "please calculate 2+3*4 for me")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Status != "ok" || !strings.Contains(res.Assistant.Content, `"plus":{"expression":"40 + 1","result":41}`) {
		t.Fatalf("turn = %+v", res)
	}
	runs, err := a.Workflows.WorkflowRuns(res.Session.ID)
	if err != nil || len(runs) != 1 || runs[0].Status != "done" || runs[0].SessionID != res.Session.ID {
		t.Fatalf("session runs = %+v, %v", runs, err)
	}
	// the run is part of the conversation: deleting it deletes the run
	if _, err := a.Sessions.DeleteSession(res.Session.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := core.WorkflowRun(ctx, runs[0].ID); !IsWorkflowBadInput(err) {
		t.Fatalf("run after its session was deleted: %v", err)
	}

	// bad input: unknown or broken workflow, inputs that fail the schema
	if _, err := core.RunWorkflow(ctx, "nope", nil, WorkflowOptions{}); !errors.Is(err, ErrNoWorkflow) {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := core.RunWorkflow(ctx, "broken", nil, WorkflowOptions{}); !errors.Is(err, ErrNoWorkflow) || !strings.Contains(err.Error(), "workflows.yaml:14") {
		t.Fatalf("broken: %v", err)
	}
	if _, err := core.RunWorkflow(ctx, "double_plus_one", json.RawMessage(`{"n":"x"}`), WorkflowOptions{}); !IsWorkflowBadInput(err) {
		t.Fatalf("bad inputs: %v", err)
	}

	// an edited file is read again: tools follow
	if err := os.WriteFile(filepath.Join(dir, "workflows.yaml"), []byte(strings.ReplaceAll(workflowsYAML, "double_plus_one", "twice")), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(filepath.Join(dir, "workflows.yaml"), later, later)
	core.workflows.catalog.Refresh()
	core.syncWorkflowTools()
	if _, ok := core.registry().Get("workflow__twice"); !ok {
		t.Fatal("new workflow tool missing")
	}
	if _, ok := core.registry().Get("workflow__double_plus_one"); ok {
		t.Fatal("old workflow tool still registered")
	}
}

// Runs a dead process left running are interrupted when Hermes opens the data dir.
func TestWorkflowInterruptedAtOpen(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflows.yaml"), []byte(workflowsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(string) string { return "" }, IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := core.RunWorkflow(context.Background(), "double_plus_one", json.RawMessage(`{"n":1}`), WorkflowOptions{})
	if err != nil || r.Status != "done" {
		t.Fatalf("run = %+v, %v", r, err)
	}
	if _, err := core.db.Exec(`UPDATE workflow_runs SET status = 'running', owner = '999999999:1:gone' WHERE id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	core.Close()
	_, core2, _ := newWorkflowApp(t, dir)
	if got := core2.InterruptedWorkflows(); len(got) != 1 || got[0] != r.ID {
		t.Fatalf("interrupted = %v", got)
	}
	if again, _ := core2.WorkflowRun(context.Background(), r.ID); again.Status != "interrupted" {
		t.Fatalf("status = %s", again.Status)
	}
}
