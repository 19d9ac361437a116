package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/tools"
	"hermes/backend/workflow"
)

// newPlanApp opens a data dir whose tools.yaml has command tools (scripts that
// count their runs in NAME.count in their own dir), offers run_plan, and
// approves every call as --yes does.
func newPlanApp(t *testing.T) (*App, *Core, *llmtest.Server, string) {
	t.Helper()
	dataDir, dir := t.TempDir(), t.TempDir()
	scripts := map[string]string{
		"weather": `echo "$1" >> DIR/weather.count; sleep 0.3; printf '{"city": "%s", "sky": "sunny in %s"}\n' "$1" "$1"`,
		"combine": `echo x >> DIR/combine.count; printf '{"text": "%s + %s"}\n' "$1" "$2"`,
		"mark":    `echo "$1" >> DIR/mark.count; printf '{"marked": "%s"}\n' "$1"`,
		"broken":  `echo x >> DIR/broken.count; echo "the service is down" >&2; exit 1`,
	}
	for name, body := range scripts {
		body = "#!/bin/sh\n" + strings.ReplaceAll(body, "DIR", dir) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".sh"), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	toolsYAML := strings.ReplaceAll(`version: 1
tools:
  - name: weather
    description: The weather in a city.
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
    command: {argv: [DIR/weather.sh, "{{city}}"]}
  - name: combine
    description: Combine two texts.
    parameters: {type: object, properties: {a: {type: string}, b: {type: string}}, required: [a, b]}
    command: {argv: [DIR/combine.sh, "{{a}}", "{{b}}"]}
  - name: mark
    description: Leave a mark.
    parameters: {type: object, properties: {label: {type: string}}, required: [label]}
    command: {argv: [DIR/mark.sh, "{{label}}"]}
  - name: broken
    description: Always fails.
    parameters: {type: object, properties: {label: {type: string}}}
    command: {argv: [DIR/broken.sh]}
`, "DIR", dir)
	if err := os.WriteFile(filepath.Join(dataDir, "tools.yaml"), []byte(toolsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	a, core, fake := newWorkflowApp(t, dataDir)
	if errs := core.ToolFileErrors(); len(errs) != 0 {
		t.Fatalf("tools.yaml: %v", errs)
	}
	core.SetApprover(tools.AllowAll{}) // the command tools ask; --yes
	if err := core.registerPlanTool(); err != nil {
		t.Fatal(err)
	}
	if err := core.registerPlanTool(); err != nil { // idempotent
		t.Fatalf("second registration: %v", err)
	}
	return a, core, fake, dir
}

// requests keeps what the fake model was sent.
type requests struct {
	mu   sync.Mutex
	list []api.ChatRequest
}

func (r *requests) add(req api.ChatRequest) {
	r.mu.Lock()
	r.list = append(r.list, req)
	r.mu.Unlock()
}

func (r *requests) all() []api.ChatRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]api.ChatRequest(nil), r.list...)
}

func offered(req api.ChatRequest, name string) bool {
	for _, tl := range req.Tools {
		if tl.Function.Name == name {
			return true
		}
	}
	return false
}

func step(id, tool string, args map[string]any, after ...string) map[string]any {
	s := map[string]any{"id": id, "tool": tool, "args": args}
	if len(after) > 0 {
		s["after"] = after
	}
	return s
}

// The model plans two independent steps and one after both: the two run at the
// same time, the third gets their results, the run is stored (done, in the
// conversation), and the model's next request carries the results.
func TestPlanTwoIndependentStepsRunInParallel(t *testing.T) {
	a, core, fake, dir := newPlanApp(t)
	ctx := context.Background()
	var reqs requests
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		reqs.add(req)
		if n, last := toolRounds(req); n > 0 {
			return llmtest.Reply{Chunks: []string{"plan said: " + last}}
		}
		return llmtest.Reply{ToolCalls: []api.ToolCall{call(workflow.PlanTool, map[string]any{
			"goal": "compare the weather in Paris and Rome",
			"steps": []any{
				step("paris", "weather", map[string]any{"city": "Paris"}),
				step("rome", "weather", map[string]any{"city": "Rome"}),
				step("both", "combine", map[string]any{"a": "{{steps.paris.result.sky}}", "b": "{{steps.rome.result.sky}}"}, "paris", "rome"),
			}})}}
	}
	res, err := a.Chat.SendMessage("req-plan", "", "run the weather tool for Paris and Rome and combine them please")
	if err != nil {
		t.Fatal(err)
	}
	sent := reqs.all()
	if len(sent) != 2 || !offered(sent[0], workflow.PlanTool) {
		t.Fatalf("model requests = %d; run_plan offered: %v", len(sent), len(sent) > 0 && offered(sent[0], workflow.PlanTool))
	}
	if len(res.Tools) != 1 || res.Tools[0].Status != "ok" {
		t.Fatalf("tools = %+v", res.Tools)
	}
	_, fed := toolRounds(sent[1])
	if !strings.HasPrefix(fed, `{"run_id":"wr_`) || !strings.Contains(fed, `"status":"done"`) ||
		!strings.Contains(fed, "sunny in Paris + sunny in Rome") || !strings.Contains(fed, `"paris"`) {
		t.Fatalf("the model was fed %q", fed)
	}
	var out struct {
		RunID   string                     `json:"run_id"`
		Status  string                     `json:"status"`
		Results map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal([]byte(fed), &out); err != nil || len(out.Results) != 3 {
		t.Fatalf("result %q: %v", fed, err)
	}

	r, err := core.WorkflowRun(ctx, out.RunID)
	if err != nil || r.Status != workflow.StatusDone || r.Kind != "plan" || r.SessionID != res.Session.ID ||
		!strings.HasPrefix(r.Workflow, "plan_") || r.Definition == nil || len(r.Definition.Phases) != 2 || r.Definition.Phases[0].Mode != workflow.ModeAll {
		t.Fatalf("stored run = %+v, %v", r, err)
	}
	paris, _ := r.Step("paris")
	rome, _ := r.Step("rome")
	if paris.StartedAt == nil || rome.StartedAt == nil || paris.FinishedAt == nil || rome.FinishedAt == nil ||
		!paris.StartedAt.Before(*rome.FinishedAt) || !rome.StartedAt.Before(*paris.FinishedAt) {
		t.Fatalf("the two steps did not overlap: paris %v-%v, rome %v-%v", paris.StartedAt, paris.FinishedAt, rome.StartedAt, rome.FinishedAt)
	}
	start, end := *paris.StartedAt, *paris.FinishedAt
	if rome.StartedAt.Before(start) {
		start = *rome.StartedAt
	}
	if rome.FinishedAt.After(end) {
		end = *rome.FinishedAt
	}
	if span := end.Sub(start); span >= 550*time.Millisecond {
		t.Fatalf("the two 0.3 s steps took %s together: not parallel", span)
	}
	both, _ := r.Step("both")
	if both.Status != workflow.StepDone || !strings.Contains(both.Args, "sunny in Paris") || !strings.Contains(both.Args, "sunny in Rome") ||
		!both.StartedAt.After(*paris.FinishedAt) || !both.StartedAt.After(*rome.FinishedAt) {
		t.Fatalf("both = %+v", both)
	}
	if got := planCount(t, filepath.Join(dir, "weather.count")); len(got) != 2 {
		t.Fatalf("weather ran %v", got)
	}
	runs, err := core.WorkflowRuns(ctx, res.Session.ID, 10)
	if err != nil || len(runs) != 1 || runs[0].ID != out.RunID {
		t.Fatalf("session runs = %+v, %v", runs, err)
	}
}

// planCount reads the lines a script wrote in its count file.
func planCount(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// A plan whose second step fails: the model is told which step failed and how
// to go on, and revises the plan with a fixed step; the done step is not run
// again (its stored result is used) and the revised run is done. The failed
// run stays resumable like a declared one.
func TestPlanRevisedAfterAFailedStep(t *testing.T) {
	a, core, fake, dir := newPlanApp(t)
	ctx := context.Background()
	var reqs requests
	runID := regexp.MustCompile(`wr_[0-9a-f]+`)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		reqs.add(req)
		n, last := toolRounds(req)
		switch n {
		case 0:
			return llmtest.Reply{ToolCalls: []api.ToolCall{call(workflow.PlanTool, map[string]any{
				"goal": "mark, then report",
				"steps": []any{
					step("first", "mark", map[string]any{"label": "one"}),
					step("report", "broken", map[string]any{"label": "{{steps.first.result.marked}}"}, "first"),
				}})}}
		case 1:
			return llmtest.Reply{ToolCalls: []api.ToolCall{call(workflow.PlanTool, map[string]any{
				"goal":    "mark, then report",
				"revises": runID.FindString(last),
				"steps": []any{
					step("first", "mark", map[string]any{"label": "one"}),
					step("report", "mark", map[string]any{"label": "after-{{steps.first.result.marked}}"}, "first"),
				}})}}
		}
		return llmtest.Reply{Chunks: []string{"done: " + last}}
	}
	res, err := a.Chat.SendMessage("req-revise", "", "run the mark tool twice in a plan please")
	if err != nil {
		t.Fatal(err)
	}
	sent := reqs.all()
	if len(sent) != 3 {
		t.Fatalf("model requests = %d, want 3 (plan, revised plan, answer)", len(sent))
	}
	_, problem := toolRounds(sent[1])
	var told struct{ Error, Message string }
	if err := json.Unmarshal([]byte(problem), &told); err != nil || told.Error != "tool_error" {
		t.Fatalf("the model was told %q: %v", problem, err)
	}
	failed := told.Message
	id1 := runID.FindString(failed)
	for _, want := range []string{"plan run " + id1 + " failed", "first (mark) done", "report (broken) failed", "the service is down", `"revises": "` + id1 + `"`} {
		if id1 == "" || !strings.Contains(failed, want) {
			t.Fatalf("the model was told %q; want it to contain %q", failed, want)
		}
	}
	_, fed := toolRounds(sent[2])
	var out struct {
		RunID   string                     `json:"run_id"`
		Status  string                     `json:"status"`
		Results map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal([]byte(fed), &out); err != nil || out.Status != "done" || out.RunID == id1 || !strings.Contains(string(out.Results["report"]), "after-one") {
		t.Fatalf("revised result %q: %v", fed, err)
	}
	if got := planCount(t, filepath.Join(dir, "mark.count")); strings.Join(got, ",") != "one,after-one" {
		t.Fatalf("mark ran for %v; the kept step must not run again", got)
	}
	if got := planCount(t, filepath.Join(dir, "broken.count")); len(got) != 1 {
		t.Fatalf("broken ran %d times", len(got))
	}
	r2, err := core.WorkflowRun(ctx, out.RunID)
	if err != nil || r2.Status != workflow.StatusDone || r2.Kind != "plan" || r2.SessionID != res.Session.ID {
		t.Fatalf("revised run = %+v, %v", r2, err)
	}
	r1, err := core.WorkflowRun(ctx, id1)
	if err != nil || r1.Status != workflow.StatusFailed {
		t.Fatalf("first run = %+v, %v", r1, err)
	}
	kept, _ := r2.Step("first")
	orig, _ := r1.Step("first")
	if kept.Status != workflow.StepDone || string(kept.Result) != string(orig.Result) || !kept.StartedAt.Equal(*orig.StartedAt) {
		t.Fatalf("kept step = %+v, original %+v", kept, orig)
	}

	// bad revisions are refused with a reason: an unknown run, another conversation's run
	if _, err := core.RunPlan(ctx, workflow.Plan{Goal: "g", Revises: "wr_000000000000", Steps: []workflow.PlanStep{{ID: "a", Tool: "mark", Args: json.RawMessage(`{"label":"x"}`)}}},
		WorkflowOptions{SessionID: res.Session.ID}); !IsWorkflowBadInput(err) || !strings.Contains(err.Error(), "revises: there is no workflow run") {
		t.Fatalf("unknown revises: %v", err)
	}
	if _, err := core.RunPlan(ctx, workflow.Plan{Goal: "g", Revises: id1, Steps: []workflow.PlanStep{{ID: "a", Tool: "mark", Args: json.RawMessage(`{"label":"x"}`)}}},
		WorkflowOptions{}); !IsWorkflowBadInput(err) || !strings.Contains(err.Error(), "another conversation") {
		t.Fatalf("other conversation: %v", err)
	}
	// a bad plan is refused before anything runs, naming the step and field; the tools a plan may call are the offered ones
	for _, tc := range []struct {
		tool, want string
	}{{"no_such_tool", `step a: tool: there is no tool "no_such_tool"`}, {workflow.PlanTool, "a plan cannot run another plan"}} {
		if _, err := core.RunPlan(ctx, workflow.Plan{Goal: "g", Steps: []workflow.PlanStep{{ID: "a", Tool: tc.tool}}}, WorkflowOptions{}); !IsWorkflowBadInput(err) || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("tool %s: %v", tc.tool, err)
		}
	}

	// the failed run resumes like a declared one (its definition is stored): the done step is not run again
	if _, err := core.ResumeWorkflow(ctx, id1, WorkflowOptions{}); err != nil {
		t.Fatal(err)
	}
	r1, err = core.WorkflowRun(ctx, id1)
	if err != nil || r1.Status != workflow.StatusFailed {
		t.Fatalf("resumed run = %+v, %v", r1, err)
	}
	if got := planCount(t, filepath.Join(dir, "broken.count")); len(got) != 2 {
		t.Fatalf("broken ran %d times after the resume, want 2", len(got))
	}
	if got := planCount(t, filepath.Join(dir, "mark.count")); len(got) != 2 {
		t.Fatalf("mark ran %v after the resume; its done step must not run again", got)
	}
}
