package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func planOf(t *testing.T, src string) Plan {
	t.Helper()
	var p Plan
	if err := json.Unmarshal([]byte(src), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func knownPlanTools(name string) bool {
	switch name {
	case "fetch", "sum", "notify", "agent__researcher":
		return true
	}
	return false
}

// phasesOf writes a workflow's phases as "mode[a b] mode[c]".
func phasesOf(w *Workflow) string {
	var out []string
	for _, ph := range w.Phases {
		var ids []string
		for _, s := range ph.Steps {
			ids = append(ids, s.ID)
		}
		out = append(out, string(ph.Mode)+"["+strings.Join(ids, " ")+"]")
	}
	return strings.Join(out, " ")
}

func TestPlanLevelsBecomePhases(t *testing.T) {
	for _, tc := range []struct{ name, plan, want string }{
		{"one step", `{"goal":"g","steps":[{"id":"a","tool":"fetch"}]}`, "sequence[a]"},
		{"two independent then one after both",
			`{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"city":"Paris"}},{"id":"b","tool":"fetch","args":{"city":"Rome"}},
			 {"id":"c","tool":"sum","args":{"x":"{{steps.a.result.t}}","y":"{{steps.b.result.t}}"},"after":["a","b"]}]}`,
			"all[a b] sequence[c]"},
		{"levels by the longest chain, plan order kept inside a level",
			`{"goal":"g","steps":[{"id":"d","tool":"notify","after":["c","a"]},{"id":"c","tool":"sum","after":["b"]},
			 {"id":"b","tool":"fetch","after":["a"]},{"id":"a","tool":"fetch"},{"id":"e","tool":"agent__researcher","args":{"task":"x"}}]}`,
			"all[a e] sequence[b] sequence[c] sequence[d]"},
		{"a placeholder of a step reached through after",
			`{"goal":"g","steps":[{"id":"a","tool":"fetch"},{"id":"b","tool":"fetch","after":["a"]},
			 {"id":"c","tool":"sum","args":{"x":"{{steps.a.result}}"},"after":["b"]}]}`,
			"sequence[a] sequence[b] sequence[c]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := FromPlan(planOf(t, tc.plan), knownPlanTools)
			if err != nil {
				t.Fatal(err)
			}
			if got := phasesOf(w); got != tc.want {
				t.Fatalf("phases = %s, want %s", got, tc.want)
			}
			if !strings.HasPrefix(w.Name, "plan_") || len(w.Name) != len("plan_")+8 || w.Description != "g" || string(w.Inputs) != `{"type":"object"}` {
				t.Fatalf("workflow = %+v", w)
			}
			for _, ph := range w.Phases {
				for _, s := range ph.Steps {
					if len(s.Args) == 0 {
						t.Fatalf("step %s has no args", s.ID)
					}
				}
			}
		})
	}
	// the same plan has the same name; another plan another
	p := `{"goal":"g","steps":[{"id":"a","tool":"fetch"}]}`
	w1, _ := FromPlan(planOf(t, p), nil)
	w2, _ := FromPlan(planOf(t, p), nil)
	w3, _ := FromPlan(planOf(t, strings.Replace(p, `"g"`, `"h"`, 1)), nil)
	if w1.Name != w2.Name || w1.Name == w3.Name {
		t.Fatalf("names %s %s %s", w1.Name, w2.Name, w3.Name)
	}
}

func TestPlanRejections(t *testing.T) {
	for _, tc := range []struct{ name, plan, want string }{
		{"no steps", `{"goal":"g","steps":[]}`, "steps: the plan has no steps: give 1 to 12"},
		{"too many steps", `{"goal":"g","steps":[` + strings.TrimSuffix(strings.Repeat(`{"id":"a","tool":"fetch"},`, 13), ",") + `]}`,
			"steps: 13 steps; a plan has at most 12"},
		{"missing id", `{"goal":"g","steps":[{"tool":"fetch"}]}`, "step #1: id: is missing"},
		{"bad id", `{"goal":"g","steps":[{"id":"Fetch-1","tool":"fetch"}]}`, `step #1: id: "Fetch-1" is not a valid step id`},
		{"duplicate id", `{"goal":"g","steps":[{"id":"a","tool":"fetch"},{"id":"a","tool":"sum"}]}`, `step a: id: "a" is already step #1; step ids are unique`},
		{"missing tool", `{"goal":"g","steps":[{"id":"a"}]}`, "step a: tool: is missing"},
		{"unknown tool", `{"goal":"g","steps":[{"id":"a","tool":"rm_everything"}]}`, `step a: tool: there is no tool "rm_everything" that a plan may call`},
		{"a workflow", `{"goal":"g","steps":[{"id":"a","tool":"workflow__reset"}]}`, `step a: tool: "workflow__reset" is a workflow; a plan step calls a tool, not a workflow`},
		{"a plan in a plan", `{"goal":"g","steps":[{"id":"a","tool":"run_plan"}]}`, "step a: tool: a plan cannot run another plan"},
		{"unknown after", `{"goal":"g","steps":[{"id":"a","tool":"fetch","after":["zz"]}]}`, `step a: after: there is no step "zz" in the plan (steps: a)`},
		{"after itself", `{"goal":"g","steps":[{"id":"a","tool":"fetch","after":["a"]}]}`, "step a: after: a step cannot wait for itself"},
		{"cycle", `{"goal":"g","steps":[{"id":"a","tool":"fetch","after":["c"]},{"id":"b","tool":"fetch","after":["a"]},{"id":"c","tool":"fetch","after":["b"]}]}`,
			"step a: after: steps wait for each other in a cycle: a -> c -> b -> a"},
		{"args not an object", `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":[1]}]}`, "step a: args: arguments must be a mapping"},
		{"malformed placeholder", `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"x":"{{steps.b}}"}}]}`, "step a: args: placeholder {{steps.b}} names no result"},
		{"inputs", `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"x":"{{inputs.city}}"}}]}`, "step a: args: {{inputs.city}}: a plan has no inputs"},
		{"placeholder of an unknown step", `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"x":"{{steps.zz.result}}"}}]}`,
			`step a: args: {{steps.zz.result}}: there is no step "zz" in the plan`},
		{"placeholder of itself", `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"x":"{{steps.a.result}}"}}]}`, "step a: args: {{steps.a.result}}: a step cannot use its own result"},
		{"placeholder of a step not in after", `{"goal":"g","steps":[{"id":"a","tool":"fetch"},{"id":"b","tool":"sum","args":{"x":"{{steps.a.result.t}}"}}]}`,
			`step b: args: {{steps.a.result.t}}: step a is not in this step's after, so it may not have finished: add "a" to after`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := FromPlan(planOf(t, tc.plan), knownPlanTools)
			if err == nil {
				t.Fatalf("accepted: %s", phasesOf(w))
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "the plan is not valid: ") {
				t.Fatalf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	// every mistake at once, so that the model fixes them together
	_, err := FromPlan(planOf(t, `{"goal":"g","steps":[{"id":"a","tool":"nope"},{"id":"b","tool":"fetch","after":["x"]}]}`), knownPlanTools)
	if err == nil || !strings.Contains(err.Error(), `step a: tool: there is no tool "nope"`) || !strings.Contains(err.Error(), `step b: after: there is no step "x"`) {
		t.Fatalf("error = %v", err)
	}
}

// A revised plan keeps the done steps it repeats unchanged (and only when what
// they wait for is kept too); the engine does not run them again.
func TestPlanRevisionReusesDoneSteps(t *testing.T) {
	h := newHarness(t)
	h.tool("fetch", func(_ context.Context, a map[string]any) (any, error) { return map[string]any{"t": a["city"]}, nil })
	h.tool("sum", func(_ context.Context, a map[string]any) (any, error) {
		if a["x"] == "bad" {
			return nil, errors.New("cannot add bad")
		}
		return map[string]any{"s": a["x"]}, nil
	})
	known := func(n string) bool { _, ok := h.reg.Get(n); return ok }
	first := planOf(t, `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"city":"Paris"}},{"id":"b","tool":"fetch","args":{"city":"Rome"}},
		{"id":"c","tool":"sum","args":{"x":"bad"},"after":["a","b"]}]}`)
	w, err := FromPlan(first, known)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r1, err := h.eng.Start(ctx, w, nil, StartOptions{Kind: "plan", SessionID: ""})
	if err != nil || r1.Status != StatusFailed || stepStatuses(r1) != "a=done b=done c=failed" {
		t.Fatalf("first run = %s %+v, %v", stepStatuses(r1), r1, err)
	}
	// a kept as is; b's args changed; c fixed; d new after a
	second := planOf(t, `{"goal":"g","revises":"`+r1.ID+`","steps":[{"id":"a","tool":"fetch","args":{ "city" : "Paris" }},
		{"id":"b","tool":"fetch","args":{"city":"Milan"}},
		{"id":"c","tool":"sum","args":{"x":"{{steps.a.result.t}}"},"after":["a","b"]},{"id":"d","tool":"fetch","args":{"city":"Oslo"},"after":["b"]}]}`)
	prev, err := h.eng.Get(ctx, r1.ID)
	if err != nil {
		t.Fatal(err)
	}
	reuse, err := Reusable(prev, second, "")
	if err != nil || len(reuse) != 1 || reuse["a"].Status != StepDone {
		t.Fatalf("reuse = %+v, %v", reuse, err)
	}
	w2, err := FromPlan(second, known)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := h.eng.Start(ctx, w2, nil, StartOptions{Kind: "plan", Reuse: reuse})
	if err != nil || r2.Status != StatusDone || stepStatuses(r2) != "a=done b=done c=done d=done" {
		t.Fatalf("revised run = %s %+v, %v", stepStatuses(r2), r2, err)
	}
	if h.count("fetch") != 4 { // a, b in the first run; b, d in the second
		t.Fatalf("fetch ran %d times, want 4", h.count("fetch"))
	}
	stored, err := h.eng.Get(ctx, r2.ID)
	if err != nil || stored.Kind != "plan" {
		t.Fatalf("stored = %+v, %v", stored, err)
	}
	if a, _ := stored.Step("a"); string(a.Result) != `{"t":"Paris"}` || a.FinishedAt == nil {
		t.Fatalf("kept step a = %+v", a)
	}
	if c, _ := stored.Step("c"); string(c.Result) != `{"s":"Paris"}` {
		t.Fatalf("c = %+v (it used the kept result of a)", c)
	}

	// a step is kept only if what it waits for is kept: b changed, so c (same args, after b) runs again
	prev2, _ := h.eng.Get(ctx, r2.ID)
	third := second
	third.Revises = r2.ID
	third.Steps = []PlanStep{second.Steps[0], {ID: "b", Tool: "fetch", Args: json.RawMessage(`{"city":"Nice"}`)}, second.Steps[2]}
	reuse, err = Reusable(prev2, third, "")
	if err != nil || len(reuse) != 1 || reuse["a"].ID != "a" {
		t.Fatalf("reuse = %+v, %v", reuse, err)
	}

	// refusals: another conversation's run, a declared run, a running one
	if _, err := Reusable(prev, second, "s_other"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "another conversation") {
		t.Fatalf("other session: %v", err)
	}
	declared := prev
	declared.Kind = "declared"
	if _, err := Reusable(declared, second, ""); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not of a plan") {
		t.Fatalf("declared: %v", err)
	}
	running := prev
	running.Status = StatusRunning
	if _, err := Reusable(running, second, ""); !errors.Is(err, ErrConflict) {
		t.Fatalf("running: %v", err)
	}

	// a failed plan run resumes like a declared one (it keeps its definition)
	h.tool("flaky", func(_ context.Context, a map[string]any) (any, error) {
		if h.count("flaky") == 1 {
			return nil, errors.New("not yet")
		}
		return "fine", nil
	})
	w4, err := FromPlan(planOf(t, `{"goal":"g","steps":[{"id":"a","tool":"fetch","args":{"city":"Bern"}},{"id":"b","tool":"flaky","after":["a"]}]}`), known)
	if err != nil {
		t.Fatal(err)
	}
	r4, err := h.eng.Start(ctx, w4, nil, StartOptions{Kind: "plan"})
	if err != nil || r4.Status != StatusFailed {
		t.Fatalf("run = %+v, %v", r4, err)
	}
	before := h.count("fetch")
	r4, err = h.eng.Resume(ctx, r4.ID, ResumeOptions{})
	if err != nil || r4.Status != StatusDone || h.count("fetch") != before || h.count("flaky") != 2 {
		t.Fatalf("resume = %s %+v, %v (fetch %d -> %d)", stepStatuses(r4), r4, err, before, h.count("fetch"))
	}
}
