package workflow

import (
	"encoding/json"
	"fmt"
	"hermes/backend/lazyre"
	"os"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"hermes/backend/subagent"
	"hermes/backend/tools"
	"hermes/backend/yamlfile"
)

// FileName is the workflows file in the data dir.
const FileName = "workflows.yaml"

// Error is a mistake in the workflows file and where it is.
type Error struct {
	File     string
	Line     int
	Workflow string // the workflow's name (or #N); "" outside one
	Phase    string // the phase's name (or #N); "" outside one
	Step     string // the step's id (or #N); "" outside one
	Field    string // e.g. "timeout", "args.phone"
	Msg      string
}

func (e *Error) Error() string {
	return yamlfile.Where(e.File, e.Line, []string{placeName("workflow", e.Workflow), placeName("phase", e.Phase), placeName("step", e.Step)}, e.Field, e.Msg)
}

// placeName names a place ("step fetch"), or is "" outside one.
func placeName(kind, name string) string {
	if name == "" {
		return ""
	}
	return kind + " " + name
}

// Options are what loading checks against.
type Options struct {
	// KnownTool reports whether a step may call the tool; nil accepts any name.
	KnownTool func(name string) bool
}

// Load reads the workflows file at path. A missing file declares none. It
// returns the workflows that are right and an *Error for each mistake; a
// workflow with a mistake is left out, the others load.
func Load(path string, opts Options) ([]*Workflow, []error) {
	data, ok, err := yamlfile.Read(path)
	if err != nil {
		return nil, []error{&Error{File: path, Msg: err.Error()}}
	}
	if !ok {
		return nil, nil
	}
	return Parse(path, data, opts)
}

// Parse reads a workflows file's content; file names it in errors.
func Parse(file string, data []byte, opts Options) ([]*Workflow, []error) {
	doc, line, msg, err := yamlfile.Parse(data)
	if err != nil {
		return nil, []error{&Error{File: file, Line: line, Msg: msg}}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	p := &loader{file: file, opts: opts, names: map[string]int{}}
	if root.Kind != yaml.MappingNode {
		p.fail(root, where{}, "", "the file must be a mapping with a list under \"workflows:\"")
		return nil, p.errs
	}
	f := p.fields(root, where{}, "", []string{"version", "workflows"})
	if v := f["version"]; v != nil && (v.Kind != yaml.ScalarNode || v.Value != "1") {
		p.fail(v, where{}, "version", "only version 1 is known")
	}
	list := f["workflows"]
	if list == nil || yamlfile.IsNull(list) {
		return nil, p.errs
	}
	if list.Kind != yaml.SequenceNode {
		p.fail(list, where{}, "workflows", "must be a list of workflows (each item starts with \"- name:\")")
		return nil, p.errs
	}
	var out []*Workflow
	for i, item := range list.Content {
		if w := p.workflow(i, item); w != nil {
			out = append(out, w)
		}
	}
	return out, p.errs
}

// where is the place of a mistake inside the file.
type where struct{ workflow, phase, step string }

type loader struct {
	file  string
	opts  Options
	errs  []error
	names map[string]int // workflow name -> line
}

func (p *loader) fail(n *yaml.Node, at where, field, format string, a ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Workflow: at.workflow, Phase: at.phase, Step: at.step,
		Field: field, Msg: fmt.Sprintf(format, a...)})
}

// peek is the text of a mapping's key, to name the thing in errors found
// before the key is read.
func peek(n *yaml.Node, key string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return strings.TrimSpace(n.Content[i+1].Value)
		}
	}
	return ""
}

// fields reads a mapping's keys, reporting unknown and repeated ones.
func (p *loader) fields(n *yaml.Node, at where, prefix string, known []string) map[string]*yaml.Node {
	return p.check(at).Fields(n, prefix, known)
}

// check is the shared field reader, reporting as this loader does.
func (p *loader) check(at where) yamlfile.Checker {
	return yamlfile.Checker{Fail: func(n *yaml.Node, field, msg string) { p.fail(n, at, field, "%s", msg) }}
}

// str reads a text field; a required one that is absent or empty is reported.
func (p *loader) str(n, parent *yaml.Node, at where, field string, required bool) (string, bool) {
	return p.check(at).Str(n, parent, field, required)
}

// duration reads a duration field in (0, max].
func (p *loader) duration(n *yaml.Node, at where, field string, max time.Duration) (Duration, bool) {
	if n == nil {
		return 0, true
	}
	s, _ := p.str(n, n, at, field, true)
	d, err := time.ParseDuration(s)
	switch {
	case s == "":
		return 0, false
	case err != nil:
		p.fail(n, at, field, "%q is not a duration: write it like 5s, 1500ms or 2m", s)
		return 0, false
	case d <= 0 || d > max:
		p.fail(n, at, field, "must be more than 0 and at most %s", max)
		return 0, false
	}
	return Duration(d), true
}

var workflowName = lazyre.New(`^[a-zA-Z0-9_-]{1,54}$`)

// step is a step being checked, with its place for the order of placeholders.
type stepInfo struct {
	phase, index int
	parallel     bool
	refs         []*ref
	node         *yaml.Node
	at           where
}

// before reports whether a runs (and finishes) before b starts.
func (a *stepInfo) before(b *stepInfo) bool {
	if a.phase != b.phase {
		return a.phase < b.phase
	}
	return !a.parallel && a.index < b.index
}

func (p *loader) workflow(i int, n *yaml.Node) *Workflow {
	before := len(p.errs)
	at := where{workflow: fmt.Sprintf("#%d", i+1)}
	if n.Kind != yaml.MappingNode {
		p.fail(n, at, "", "each workflow is a mapping with name, description, inputs and phases")
		return nil
	}
	if name := peek(n, "name"); workflowName.MatchString(name) && p.names[name] == 0 {
		at.workflow = name
	}
	f := p.fields(n, at, "", []string{"name", "description", "inputs", "deadline", "phases"})
	w := &Workflow{Line: n.Line}
	name, ok := p.str(f["name"], n, at, "name", true)
	switch {
	case !ok:
	case !workflowName.MatchString(name):
		p.fail(f["name"], at, "name", "%q is not a valid workflow name: use 1 to 54 letters, digits, '_' or '-' (the model sees it as the tool %s<name>)", name, ToolPrefix)
	case p.names[name] != 0:
		p.fail(f["name"], at, "name", "%q is already declared at line %d", name, p.names[name])
	default:
		p.names[name] = f["name"].Line
		at.workflow = name
	}
	w.Name = name
	if d, ok := p.str(f["description"], n, at, "description", true); ok {
		w.Description = strings.TrimSpace(d)
	}

	// inputs: a JSON Schema of an object
	var props map[string]bool
	w.Inputs = json.RawMessage(`{"type":"object"}`)
	if in := f["inputs"]; in != nil && !yamlfile.IsNull(in) {
		if schema, ok := p.schema(in, at, "inputs"); ok {
			var top map[string]any
			_ = json.Unmarshal(schema, &top)
			if top["type"] != "object" {
				p.fail(in, at, "inputs.type", "must be \"object\" (the inputs are named values)")
			}
			if m, ok := top["properties"].(map[string]any); ok {
				props = map[string]bool{}
				for k := range m {
					props[k] = true
				}
			}
			w.Inputs = schema
		}
	}
	if d, ok := p.duration(f["deadline"], at, "deadline", MaxDeadline); ok {
		w.Deadline = d
	}

	// phases and steps
	steps := map[string]*stepInfo{}
	var order []string
	pn := f["phases"]
	switch {
	case pn == nil || yamlfile.IsNull(pn):
		p.fail(n, at, "phases", "is missing: a list of phases, each with steps")
	case pn.Kind != yaml.SequenceNode || len(pn.Content) == 0:
		p.fail(pn, at, "phases", "must be a non-empty list of phases (each item starts with \"- name:\")")
	default:
		for pi, item := range pn.Content {
			ph := p.phase(pi, item, at, steps, &order)
			w.Phases = append(w.Phases, ph)
		}
	}

	// placeholders: inputs that exist, steps that finish before
	for _, id := range order {
		s := steps[id]
		for _, r := range s.refs {
			if r.step == "" {
				if len(r.path) > 0 && props != nil && !props[r.path[0]] {
					p.fail(s.node, s.at, "args", "{{%s}}: the inputs have no property %q (declared: %s)", r.text, r.path[0], strings.Join(yamlfile.SortedKeys(props), ", "))
				}
				continue
			}
			t, ok := steps[r.step]
			switch {
			case !ok:
				p.fail(s.node, s.at, "args", "{{%s}}: there is no step %q in this workflow (steps: %s)", r.text, r.step, strings.Join(order, ", "))
			case r.step == id:
				p.fail(s.node, s.at, "args", "{{%s}}: a step cannot use its own result (a cycle)", r.text)
			case !t.before(s):
				if cycle := findCycle(steps, r.step, id); cycle != nil {
					p.fail(s.node, s.at, "args", "{{%s}}: steps refer to each other in a cycle: %s", r.text, strings.Join(append([]string{id}, cycle...), " -> "))
				} else if t.phase == s.phase && s.parallel {
					p.fail(s.node, s.at, "args", "{{%s}}: step %s runs at the same time as this one (mode %s); a step can only use results of steps that finished before it: move it to an earlier phase", r.text, r.step, w.Phases[s.phase].Mode)
				} else {
					p.fail(s.node, s.at, "args", "{{%s}}: step %s runs later (in phase %s); a step can only use results of steps before it", r.text, r.step, steps[r.step].at.phase)
				}
			}
		}
	}
	if len(p.errs) > before {
		return nil
	}
	return w
}

// findCycle reports a path of references from 'from' back to 'to', or nil.
func findCycle(steps map[string]*stepInfo, from, to string) []string {
	seen := map[string]bool{}
	var walk func(id string) []string
	walk = func(id string) []string {
		if id == to {
			return []string{id}
		}
		if seen[id] {
			return nil
		}
		seen[id] = true
		s := steps[id]
		if s == nil {
			return nil
		}
		for _, r := range s.refs {
			if r.step == "" {
				continue
			}
			if rest := walk(r.step); rest != nil {
				return append([]string{id}, rest...)
			}
		}
		return nil
	}
	return walk(from)
}

func (p *loader) phase(pi int, n *yaml.Node, wat where, steps map[string]*stepInfo, order *[]string) Phase {
	at := wat
	at.phase = fmt.Sprintf("#%d", pi+1)
	ph := Phase{Name: at.phase, Mode: ModeSequence}
	if n.Kind != yaml.MappingNode {
		p.fail(n, at, "", "each phase is a mapping with name, mode and steps")
		return ph
	}
	if name := peek(n, "name"); name != "" {
		at.phase = name
	}
	f := p.fields(n, at, "", []string{"name", "mode", "steps"})
	if name, ok := p.str(f["name"], n, at, "name", false); ok && name != "" {
		ph.Name = name
		at.phase = name
	}
	if mn := f["mode"]; mn != nil {
		m, _ := p.str(mn, n, at, "mode", true)
		switch Mode(m) {
		case ModeSequence, ModeAll, ModeFirst:
			ph.Mode = Mode(m)
		default:
			if m != "" {
				p.fail(mn, at, "mode", "%q is not one of sequence (one after another), all (at once, each must succeed), first (at once, the first to succeed wins)", m)
			}
		}
	}
	sn := f["steps"]
	switch {
	case sn == nil || yamlfile.IsNull(sn):
		p.fail(n, at, "steps", "the phase has no steps: add at least one (- {id: ..., tool: ...})")
		return ph
	case sn.Kind != yaml.SequenceNode:
		p.fail(sn, at, "steps", "must be a list of steps")
		return ph
	case len(sn.Content) == 0:
		p.fail(sn, at, "steps", "the phase has no steps: add at least one (- {id: ..., tool: ...})")
		return ph
	}
	for si, item := range sn.Content {
		if s, info := p.step(si, item, at); info != nil {
			info.phase, info.index, info.parallel = pi, si, ph.Mode != ModeSequence
			if prev, dup := steps[s.ID]; dup {
				p.fail(item, info.at, "id", "%q is already a step at line %d; step ids are unique in a workflow", s.ID, prev.node.Line)
			} else {
				steps[s.ID] = info
				*order = append(*order, s.ID)
			}
			ph.Steps = append(ph.Steps, s)
		}
	}
	return ph
}

// step reads a step; info is nil when it has no usable id.
func (p *loader) step(si int, n *yaml.Node, pat where) (Step, *stepInfo) {
	at := pat
	at.step = fmt.Sprintf("#%d", si+1)
	var s Step
	if n.Kind != yaml.MappingNode {
		p.fail(n, at, "", "each step is a mapping with id, tool and args")
		return s, nil
	}
	if id := peek(n, "id"); stepIDPattern.MatchString(id) {
		at.step = id
	}
	f := p.fields(n, at, "", []string{"id", "tool", "agent", "task", "context", "args", "timeout", "retries", "backoff", "idempotent"})
	id, ok := p.str(f["id"], n, at, "id", true)
	if ok && !stepIDPattern.MatchString(id) {
		p.fail(f["id"], at, "id", "%q is not a valid step id: start with a letter or '_', then letters, digits, '_' or '-'", id)
		ok = false
	}
	if ok {
		at.step = id
	}
	s.ID = id
	info := &stepInfo{node: n, at: at}
	s.Args = json.RawMessage(`{}`)
	if f["agent"] != nil {
		if !p.agentStep(f, n, at, &s, info) {
			ok = false
		}
	} else if tool, tok := p.str(f["tool"], n, at, "tool", true); tok {
		s.Tool = tool
		if !tools.ValidName(tool) {
			p.fail(f["tool"], at, "tool", "%q is not a valid tool name", tool)
		} else if strings.HasPrefix(tool, ToolPrefix) {
			p.fail(f["tool"], at, "tool", "%q is a workflow; a step calls a tool, not another workflow", tool)
		} else if p.opts.KnownTool != nil && !p.opts.KnownTool(tool) {
			p.fail(f["tool"], at, "tool", "there is no tool %q (see `hermes tools list`; an MCP tool is SERVER__TOOL)", tool)
		}
	}
	if an := f["args"]; an != nil && !yamlfile.IsNull(an) && f["agent"] == nil {
		if an.Kind != yaml.MappingNode {
			p.fail(an, at, "args", "must be a mapping of the tool's argument names to values")
		} else {
			var v any
			if err := an.Decode(&v); err != nil {
				p.fail(an, at, "args", "cannot be read: %s", yamlfile.OneLine(err))
			} else if b, err := json.Marshal(v); err != nil {
				p.fail(an, at, "args", "cannot be turned into JSON (are all keys text?): %v", err)
			} else if _, refs, err := parseArgs(b); err != nil {
				p.fail(argNode(an), at, "args", "%v", err)
			} else {
				s.Args = b
				info.node = an
				info.refs = refs
			}
		}
	}
	if d, ok := p.duration(f["timeout"], at, "timeout", MaxStepTimeout); ok {
		s.Timeout = d
	}
	if d, ok := p.duration(f["backoff"], at, "backoff", MaxBackoff); ok {
		s.Backoff = d
	}
	if rn := f["retries"]; rn != nil {
		var r int
		if rn.Kind != yaml.ScalarNode || rn.Decode(&r) != nil || r < 0 || r > MaxRetries {
			p.fail(rn, at, "retries", "must be a whole number from 0 to %d, not %q", MaxRetries, rn.Value)
		} else {
			s.Retries = r
		}
	}
	if in := f["idempotent"]; in != nil {
		var b bool
		if in.Kind != yaml.ScalarNode || in.Decode(&b) != nil {
			p.fail(in, at, "idempotent", "must be true or false, not %q", in.Value)
		} else {
			s.Idempotent = b
		}
	}
	if !ok {
		return s, nil
	}
	return s, info
}

// agentStep reads a step that delegates to a sub-agent of agents.yaml:
// {agent: NAME, task: "...", context: "..."} calls agent__NAME with task and context.
func (p *loader) agentStep(f map[string]*yaml.Node, n *yaml.Node, at where, s *Step, info *stepInfo) bool {
	for _, other := range []string{"tool", "args"} {
		if f[other] != nil {
			p.fail(f[other], at, other, "a step with agent gives task (and context), not %s", other)
			return false
		}
	}
	name, ok := p.str(f["agent"], n, at, "agent", true)
	if !ok {
		return false
	}
	s.Tool = subagent.ToolPrefix + name
	if !tools.ValidName(s.Tool) {
		p.fail(f["agent"], at, "agent", "%q is not a valid agent name", name)
		return false
	}
	args := map[string]string{}
	if args["task"], ok = p.str(f["task"], n, at, "task", true); !ok {
		return false
	}
	if p.opts.KnownTool != nil && !p.opts.KnownTool(s.Tool) {
		p.fail(f["agent"], at, "agent", "there is no sub-agent %q switched on (see `hermes agent list`)", name)
		return false
	}
	if f["context"] != nil {
		if args["context"], ok = p.str(f["context"], n, at, "context", false); !ok {
			return false
		}
	}
	b, _ := json.Marshal(args)
	_, refs, err := parseArgs(b)
	if err != nil {
		p.fail(f["task"], at, "task", "%v", err)
		return false
	}
	s.Args, info.node, info.refs = b, f["task"], refs
	return true
}

// argNode is the first scalar of args with a placeholder, for a more precise
// line, or args itself.
func argNode(n *yaml.Node) *yaml.Node {
	var found *yaml.Node
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if found != nil {
			return
		}
		if x.Kind == yaml.ScalarNode && strings.Contains(x.Value, "{{") {
			found = x
			return
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(n)
	if found == nil {
		return n
	}
	return found
}

// schema converts a YAML schema to JSON and compiles it with the tools'
// JSON Schema rules.
func (p *loader) schema(n *yaml.Node, at where, field string) (json.RawMessage, bool) {
	return p.check(at).Schema(n, field, func(field string, b []byte) error {
		_, err := tools.CompileSchema(field, b)
		return err
	})
}

// Catalog is the workflows file, read again when it changes.
type Catalog struct {
	path string
	opts Options

	mu    sync.Mutex
	stamp string // size and modification time of the file last read
	list  []*Workflow
	errs  []error
}

// NewCatalog reads the file at path.
func NewCatalog(path string, opts Options) *Catalog {
	c := &Catalog{path: path, opts: opts}
	c.Refresh()
	return c
}

// Path is the file.
func (c *Catalog) Path() string { return c.path }

// Refresh reads the file again if it changed (or force); it reports whether it did.
func (c *Catalog) Refresh() bool { return c.refresh(false) }

// Reload reads the file again (the tools it may call changed).
func (c *Catalog) Reload() { c.refresh(true) }

func (c *Catalog) refresh(force bool) bool {
	stamp := "missing"
	if fi, err := os.Stat(c.path); err == nil {
		stamp = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !force && stamp == c.stamp {
		return false
	}
	c.list, c.errs = Load(c.path, c.opts)
	c.stamp = stamp
	return true
}

// List returns the workflows that loaded and the mistakes of the others.
func (c *Catalog) List() ([]*Workflow, []error) {
	c.Refresh()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.list, c.errs
}

// Get returns a workflow by name.
func (c *Catalog) Get(name string) (*Workflow, bool) {
	list, _ := c.List()
	for _, w := range list {
		if w.Name == name {
			return w, true
		}
	}
	return nil, false
}
