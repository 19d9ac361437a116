package workflow

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hermes/backend/lazyre"
	"strings"

	"hermes/backend/tools"
)

// A plan is a multi-step task the model makes itself, for a request that needs
// several tool calls without a declared workflow: steps, each a tool call with
// its arguments, and the steps each one waits for ("after"). FromPlan turns it
// into a Workflow that the same engine runs, stores and resumes.
//
// Phases come from the dependencies: a step's level is 1 + the highest level of
// the steps in its after (0 without after); each level is one phase, in order,
// whose steps run at once (mode all) when there are several. A step's args may
// use {{steps.ID.result.FIELD}} of the steps it waits for (directly or through
// their own after), never {{inputs...}}: a plan has no inputs.
//
// Revision: a plan that revises an earlier plan run (Revises) keeps the done
// steps of that run that it repeats unchanged: same id, same tool, same args,
// and every step in its after kept too (so their results, which the args may
// use, are the same). Those steps are not run again; their stored results are
// used. Every other step runs. See Reusable.

// PlanTool is the tool through which the model runs a plan.
const PlanTool = "run_plan"

// MaxPlanSteps bounds the steps of one plan.
const MaxPlanSteps = 12

// Plan is a model-made plan: the arguments of the run_plan tool.
type Plan struct {
	Goal    string     `json:"goal"`
	Steps   []PlanStep `json:"steps"`
	Revises string     `json:"revises,omitempty"` // the id of an earlier plan run whose done steps are kept
}

// PlanStep is one tool call of a plan.
type PlanStep struct {
	ID    string          `json:"id"`
	Tool  string          `json:"tool"`
	Args  json.RawMessage `json:"args,omitempty"`
	After []string        `json:"after,omitempty"` // the steps that must finish first
}

// PlanParams is the JSON Schema of a Plan (the run_plan tool's parameters).
var PlanParams = json.RawMessage(`{"type":"object","properties":{` +
	`"goal":{"type":"string","description":"What the plan achieves, in one sentence."},` +
	`"steps":{"type":"array","minItems":1,"maxItems":` + fmt.Sprint(MaxPlanSteps) + `,"description":"The tool calls. Steps without after, or whose after steps are done, run at the same time.","items":{"type":"object","properties":{` +
	`"id":{"type":"string","pattern":"^[a-z][a-z0-9_]*$","maxLength":64,"description":"A short name of the step, e.g. weather_paris."},` +
	`"tool":{"type":"string","description":"The tool to call (one of the tools offered to you)."},` +
	`"args":{"type":"object","description":"The tool's arguments. A text may use {{steps.ID.result.FIELD}}: the result of a step named in after."},` +
	`"after":{"type":"array","items":{"type":"string"},"description":"The ids of the steps that must finish before this one (those whose results it uses)."}},` +
	`"required":["id","tool"],"additionalProperties":false}},` +
	`"revises":{"type":"string","description":"Only to go on after a plan run failed: its run_id. Its done steps that you give again with the same id, tool and args are kept, not run again."}},` +
	`"required":["goal","steps"],"additionalProperties":false}`)

var planStepID = lazyre.New(`^[a-z][a-z0-9_]{0,63}$`)

// FromPlan checks a plan and turns it into a workflow (named plan_<hash>) whose
// phases are the plan's dependency levels. known reports whether a step may
// call a tool (nil accepts any name). A bad plan is ErrInvalid, with every
// mistake named by step and field so that the model can fix it.
func FromPlan(p Plan, known func(tool string) bool) (*Workflow, error) {
	c := &planCheck{p: p, known: known, index: map[string]int{}, graph: map[string]*stepInfo{},
		refs: make([][]*ref, len(p.Steps)), args: make([]json.RawMessage, len(p.Steps))}
	switch {
	case len(p.Steps) == 0:
		c.fail("", "steps", "the plan has no steps: give 1 to %d", MaxPlanSteps)
	case len(p.Steps) > MaxPlanSteps:
		c.fail("", "steps", "%d steps; a plan has at most %d: split the task, or plan the first part and go on with revises", len(p.Steps), MaxPlanSteps)
	}
	c.checkIDs() // first: after and placeholders name them
	for i := range p.Steps {
		c.checkStep(i)
	}
	if len(c.errs) > 0 {
		return nil, planError(c.errs)
	}
	if c.hasCycle() {
		return nil, planError(c.errs)
	}
	level := c.levels()
	if len(c.errs) > 0 {
		return nil, planError(c.errs)
	}
	return c.workflow(level), nil
}

// planCheck is one FromPlan: the plan, what is known of its steps so far and
// every mistake found, named by step and field.
type planCheck struct {
	p      Plan
	known  func(tool string) bool
	errs   []string
	index  map[string]int       // id -> position
	ids    []string             // the valid ids, in order
	places []string             // how each step is named in a message
	graph  map[string]*stepInfo // after as references, for findCycle
	refs   [][]*ref             // each step's placeholders
	args   []json.RawMessage    // each step's arguments ({} for none)
}

func (c *planCheck) fail(place, field, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	switch {
	case place != "" && field != "":
		msg = place + ": " + field + ": " + msg
	case place != "":
		msg = place + ": " + msg
	case field != "":
		msg = field + ": " + msg
	}
	c.errs = append(c.errs, msg)
}

// checkIDs: each step has a valid id, used once.
func (c *planCheck) checkIDs() {
	c.places = make([]string, len(c.p.Steps))
	for i, s := range c.p.Steps {
		c.places[i] = fmt.Sprintf("step #%d", i+1)
		switch {
		case s.ID == "":
			c.fail(c.places[i], "id", "is missing: give each step a short name such as fetch_weather")
		case !planStepID.MatchString(s.ID):
			c.fail(c.places[i], "id", "%q is not a valid step id: use lower-case letters, digits and '_', starting with a letter (at most 64)", s.ID)
		default:
			c.places[i] = "step " + s.ID
			if j, dup := c.index[s.ID]; dup {
				c.fail(c.places[i], "id", "%q is already step #%d; step ids are unique in a plan", s.ID, j+1)
				continue
			}
			c.index[s.ID] = i
			c.ids = append(c.ids, s.ID)
		}
	}
}

// checkStep: step i's tool, its after, its args and their placeholders.
func (c *planCheck) checkStep(i int) {
	s, at := c.p.Steps[i], c.places[i]
	c.checkTool(at, s.Tool)
	info := &stepInfo{}
	seen := map[string]bool{}
	for _, a := range s.After {
		switch _, ok := c.index[a]; {
		case a == s.ID:
			c.fail(at, "after", "a step cannot wait for itself")
		case !ok:
			c.fail(at, "after", "there is no step %q in the plan (steps: %s)", a, strings.Join(c.ids, ", "))
		case !seen[a]:
			seen[a] = true
			info.refs = append(info.refs, &ref{text: "after " + a, step: a})
		}
	}
	if s.ID != "" {
		if _, ok := c.graph[s.ID]; !ok {
			c.graph[s.ID] = info
		}
	}
	c.args[i] = s.Args
	if len(strings.TrimSpace(string(s.Args))) == 0 || string(s.Args) == "null" {
		c.args[i] = json.RawMessage(`{}`)
	}
	_, r, err := parseArgs(c.args[i])
	if err != nil {
		c.fail(at, "args", "%v", err)
		return
	}
	c.refs[i] = r
	for _, x := range r {
		if x.step == "" {
			c.fail(at, "args", "{{%s}}: a plan has no inputs: write the value itself", x.text)
		} else if x.step == s.ID {
			c.fail(at, "args", "{{%s}}: a step cannot use its own result (a cycle)", x.text)
		} else if _, ok := c.index[x.step]; !ok {
			c.fail(at, "args", "{{%s}}: there is no step %q in the plan (steps: %s)", x.text, x.step, strings.Join(c.ids, ", "))
		}
	}
}

// checkTool: a step calls a tool a plan may call.
func (c *planCheck) checkTool(at, tool string) {
	switch {
	case tool == "":
		c.fail(at, "tool", "is missing: name the tool to call")
	case tool == PlanTool:
		c.fail(at, "tool", "a plan cannot run another plan: put its steps in this plan")
	case strings.HasPrefix(tool, ToolPrefix):
		c.fail(at, "tool", "%q is a workflow; a plan step calls a tool, not a workflow (call %s on its own instead)", tool, tool)
	case !tools.ValidName(tool):
		c.fail(at, "tool", "%q is not a valid tool name", tool)
	case c.known != nil && !c.known(tool):
		c.fail(at, "tool", "there is no tool %q that a plan may call: use one of the tools offered to you", tool)
	}
}

// hasCycle: steps wait for each other in a cycle (the loader's cycle finder,
// over after instead of placeholders); the first is named.
func (c *planCheck) hasCycle() bool {
	for _, s := range c.p.Steps {
		for _, a := range c.graph[s.ID].refs {
			if cycle := findCycle(c.graph, a.step, s.ID); cycle != nil {
				c.fail("step "+s.ID, "after", "steps wait for each other in a cycle: %s", strings.Join(append([]string{s.ID}, cycle...), " -> "))
				return true
			}
		}
	}
	return false
}

// levels are the steps' dependency levels; a placeholder may only name a step
// that finishes before its own (one it waits for).
func (c *planCheck) levels() map[string]int {
	level := map[string]int{}
	var levelOf func(id string) int
	levelOf = func(id string) int {
		if l, ok := level[id]; ok {
			return l
		}
		l := 0
		for _, a := range c.graph[id].refs {
			l = max(l, levelOf(a.step)+1)
		}
		level[id] = l
		return l
	}
	for i, s := range c.p.Steps {
		levelOf(s.ID)
		for _, x := range c.refs[i] {
			if !waitsFor(c.graph, s.ID, x.step) {
				c.fail("step "+s.ID, "args", "{{%s}}: step %s is not in this step's after, so it may not have finished: add %q to after", x.text, x.step, x.step)
			}
		}
	}
	return level
}

// workflow is the plan as a workflow (named plan_<hash>): a phase a level,
// its steps run together when there are several.
func (c *planCheck) workflow(level map[string]int) *Workflow {
	top := 0
	for _, l := range level {
		top = max(top, l)
	}
	w := &Workflow{Name: planName(c.p), Description: strings.TrimSpace(c.p.Goal), Inputs: json.RawMessage(`{"type":"object"}`)}
	if w.Description == "" {
		w.Description = "a plan made by the model"
	}
	for l := 0; l <= top; l++ {
		ph := Phase{Name: fmt.Sprintf("phase_%d", l+1), Mode: ModeSequence}
		for i, s := range c.p.Steps {
			if level[s.ID] == l {
				ph.Steps = append(ph.Steps, Step{ID: s.ID, Tool: s.Tool, Args: c.args[i]})
			}
		}
		if len(ph.Steps) > 1 {
			ph.Mode = ModeAll
		}
		w.Phases = append(w.Phases, ph)
	}
	return w
}

// waitsFor reports whether step id waits for step other, directly or through
// the steps it waits for.
func waitsFor(graph map[string]*stepInfo, id, other string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(x string) bool {
		if seen[x] {
			return false
		}
		seen[x] = true
		for _, a := range graph[x].refs {
			if a.step == other || walk(a.step) {
				return true
			}
		}
		return false
	}
	return walk(id)
}

func planError(errs []string) error {
	return kindErrorf(ErrInvalid, "the plan is not valid: %s. Fix these and call %s again", strings.Join(errs, "; "), PlanTool)
}

// planName is plan_ and a short hash of the plan's goal and steps.
func planName(p Plan) string {
	b, _ := json.Marshal(struct {
		Goal  string     `json:"goal"`
		Steps []PlanStep `json:"steps"`
	}{p.Goal, p.Steps}) // strings and valid JSON only
	sum := sha256.Sum256(b)
	return "plan_" + hex.EncodeToString(sum[:4])
}

// Reusable picks the steps of an earlier plan run that a revised plan keeps:
// done there, with the same id, tool and args in both, and every step in the
// new step's after kept too. prev must be a plan run of the same conversation
// (sessionID) that is not running. The states are as stored (results, times,
// attempts), for StartOptions.Reuse.
func Reusable(prev Run, p Plan, sessionID string) (map[string]StepState, error) {
	switch {
	case prev.Kind != "plan":
		return nil, kindErrorf(ErrInvalid, "revises: %s is a run of the workflow %s, not of a plan: revises names the run_id of an earlier %s call", prev.ID, prev.Workflow, PlanTool)
	case prev.SessionID != sessionID:
		return nil, kindErrorf(ErrInvalid, "revises: plan run %s belongs to another conversation: make a new plan without revises", prev.ID)
	case prev.Status == StatusRunning:
		return nil, kindErrorf(ErrConflict, "revises: plan run %s is still running: wait for it to end", prev.ID)
	case prev.Definition == nil:
		return nil, kindErrorf(ErrInvalid, "revises: plan run %s has no stored plan", prev.ID)
	}
	after := map[string][]string{}
	for _, s := range p.Steps {
		after[s.ID] = s.After
	}
	keep := map[string]StepState{}
	decided := map[string]bool{}
	var kept func(s PlanStep) bool
	kept = func(s PlanStep) bool {
		if done, ok := decided[s.ID]; ok {
			return done
		}
		decided[s.ID] = false // a cycle (FromPlan rejects them) keeps nothing
		st, ok := prev.Step(s.ID)
		_, old := prev.Definition.stepAt(s.ID)
		if !ok || old == nil || st.Status != StepDone || old.Tool != s.Tool || !sameJSON(old.Args, s.Args) {
			return false
		}
		for _, a := range s.After {
			dep, found := planStep(p, a)
			if !found || !kept(dep) {
				return false
			}
		}
		decided[s.ID] = true
		keep[s.ID] = st
		return true
	}
	for _, s := range p.Steps {
		kept(s)
	}
	return keep, nil
}

func planStep(p Plan, id string) (PlanStep, bool) {
	for _, s := range p.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return PlanStep{}, false
}

// sameJSON reports whether two JSON values are equal (key order and spacing
// aside); empty is {}.
func sameJSON(a, b json.RawMessage) bool {
	norm := func(r json.RawMessage) string {
		if len(strings.TrimSpace(string(r))) == 0 || string(r) == "null" {
			return "{}"
		}
		v, err := decodeJSON(r)
		if err != nil {
			return "\x00" + string(r)
		}
		out, _ := json.Marshal(v) // maps marshal with sorted keys
		return string(out)
	}
	return norm(a) == norm(b)
}
