package subagent

import (
	"fmt"
	"hermes/backend/lazyre"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"hermes/backend/tools"
	"hermes/backend/yamlfile"
)

// Error is a mistake in the agents file and where it is.
type Error struct {
	File  string
	Line  int    // 0 when unknown (e.g. a definition checked before it is saved)
	Agent string // the agent's name (or #N); "" outside one
	Field string // e.g. "memory", "tools"
	Msg   string
}

func (e *Error) Error() string {
	scope := ""
	if e.Agent != "" {
		scope = "agent " + e.Agent
	}
	return yamlfile.Where(e.File, e.Line, []string{scope}, e.Field, e.Msg)
}

// agentName is the rule for a sub-agent's name (the model sees agent__<name>).
var agentName = lazyre.New(`^[a-z][a-z0-9_]{0,39}$`)

// entryFields are the keys an entry of the agents list may have.
var entryFields = []string{"name", "description", "system", "model", "tools", "memory", "max_rounds", "disabled"}

// Load reads the agents file at path and returns the effective sub-agents,
// sorted by name: the built-in ones merged with the file's. An entry with a
// built-in's name replaces it; one with only name and disabled switches it off
// (it is still returned, Disabled, so it can be switched back on). Built-in
// names keep Builtin set; entries the file declares have Line set. A missing
// file declares none. Each mistake is an *Error; a broken entry is left out,
// the others load.
func Load(path string) ([]*Definition, []error) {
	declared, errs := read(path)
	return merge(declared), errs
}

// read returns the file's entries that are right and the mistakes.
func read(file string) ([]*Definition, []error) {
	data, ok, err := yamlfile.Read(file)
	if err != nil {
		return nil, []error{&Error{File: file, Msg: err.Error()}}
	}
	if !ok {
		return nil, nil
	}
	return parse(file, data)
}

// parse reads the agents file's content; file names it in errors.
func parse(file string, data []byte) ([]*Definition, []error) {
	doc, line, msg, err := yamlfile.Parse(data)
	if err != nil {
		return nil, []error{&Error{File: file, Line: line, Msg: msg}}
	}
	if len(doc.Content) == 0 || yamlfile.IsNull(doc.Content[0]) {
		return nil, nil
	}
	p := &loader{file: file, names: map[string]int{}}
	list := p.top(doc.Content[0])
	var out []*Definition
	for i, item := range list {
		if d := p.agent(i, item); d != nil {
			out = append(out, d)
		}
	}
	return out, p.errs
}

// merge lays the file's entries over the built-in ones, sorted by name.
func merge(declared []*Definition) []*Definition {
	byName := map[string]*Definition{}
	for _, b := range Builtins() {
		byName[b.Name] = b
	}
	for _, d := range declared {
		byName[d.Name] = d
	}
	out := make([]*Definition, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// builtin is a fresh copy of the built-in agent named name, or nil.
func builtin(name string) *Definition {
	for _, b := range Builtins() {
		if b.Name == name {
			return b
		}
	}
	return nil
}

type loader struct {
	file  string
	errs  []error
	names map[string]int // agent name -> line
}

func (p *loader) fail(n *yaml.Node, agent, field, format string, a ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Agent: agent, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// check is the shared field reader, reporting inside the agent named agent.
func (p *loader) check(agent string) yamlfile.Checker {
	return yamlfile.Checker{Fail: func(n *yaml.Node, field, msg string) { p.fail(n, agent, field, "%s", msg) }}
}

// top checks the file's top level and returns the items of its agents list.
func (p *loader) top(root *yaml.Node) []*yaml.Node {
	if root.Kind != yaml.MappingNode {
		p.fail(root, "", "", "the file must be a mapping with a list under \"agents:\"")
		return nil
	}
	f := p.check("").Fields(root, "", []string{"version", "agents"})
	if v := f["version"]; v != nil && (v.Kind != yaml.ScalarNode || v.Value != "1") {
		p.fail(v, "", "version", "only version 1 is known")
	}
	list := f["agents"]
	switch {
	case list == nil || yamlfile.IsNull(list):
		return nil
	case list.Kind != yaml.SequenceNode:
		p.fail(list, "", "agents", "must be a list of agents (each item starts with \"- name:\")")
		return nil
	}
	return list.Content
}

// valueOf is the value of key in the mapping n, or nil.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// label names the i-th entry in errors: its name when it is a usable one.
func (p *loader) label(i int, n *yaml.Node) string {
	if v := valueOf(n, "name"); v != nil && v.Kind == yaml.ScalarNode && agentName.MatchString(v.Value) && p.names[v.Value] == 0 {
		return v.Value
	}
	return fmt.Sprintf("#%d", i+1)
}

// agent reads the i-th entry; nil when it has a mistake.
func (p *loader) agent(i int, n *yaml.Node) *Definition {
	before := len(p.errs)
	if n.Kind != yaml.MappingNode {
		p.fail(n, fmt.Sprintf("#%d", i+1), "", "each agent is a mapping with name, description and system")
		return nil
	}
	at := p.label(i, n)
	f := p.check(at).Fields(n, "", entryFields)
	name := p.name(f["name"], n, at)
	if b := builtin(name); b != nil && switchOnly(n) {
		return p.switched(b, f["disabled"], n, before)
	}
	d := &Definition{Name: name, Line: n.Line, Memory: MemoryNone, Builtin: builtin(name) != nil}
	d.Description = p.text(f["description"], n, at, "description", true)
	d.System = p.text(f["system"], n, at, "system", true)
	d.Model = p.text(f["model"], n, at, "model", false)
	d.Tools = p.tools(f["tools"], at)
	d.Memory = p.memory(f["memory"], at)
	d.MaxRounds = p.rounds(f["max_rounds"], at)
	d.Disabled = p.flag(f["disabled"], at)
	if len(p.errs) > before {
		return nil
	}
	return d
}

// switchOnly reports whether the entry n has no keys but name and disabled:
// for a built-in's name it switches the built-in off (or leaves it on).
func switchOnly(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k != "name" && k != "disabled" {
			return false
		}
	}
	return true
}

// switched is the built-in b as the entry n switches it.
func (p *loader) switched(b *Definition, disabled, n *yaml.Node, before int) *Definition {
	b.Disabled = p.flag(disabled, b.Name)
	b.Line = n.Line
	if len(p.errs) > before {
		return nil
	}
	return b
}

// name reads and checks the entry's name; "" after a mistake.
func (p *loader) name(n, parent *yaml.Node, at string) string {
	name, ok := p.check(at).Str(n, parent, "name", true)
	switch {
	case !ok:
		return ""
	case !agentName.MatchString(name) || !tools.ValidName(ToolPrefix+name):
		p.fail(n, at, "name", "%q is not a valid agent name: start with a lowercase letter, then up to 39 lowercase letters, digits or '_' (the model sees it as the tool %s<name>)", name, ToolPrefix)
		return ""
	case p.names[name] != 0:
		p.fail(n, at, "name", "%q is already declared at line %d", name, p.names[name])
		return ""
	}
	p.names[name] = max(n.Line, 1)
	return name
}

// text reads a text field, trimmed.
func (p *loader) text(n, parent *yaml.Node, at, field string, required bool) string {
	s, _ := p.check(at).Str(n, parent, field, required)
	return strings.TrimSpace(s)
}

// tools reads the list of tool names or globs.
func (p *loader) tools(n *yaml.Node, at string) []string {
	if n == nil || yamlfile.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.fail(n, at, "tools", "must be a list of tool names or globs, e.g. [current_time, \"weather__*\"]")
		return nil
	}
	var out []string
	for _, item := range n.Content {
		s, ok := p.check(at).Str(item, n, "tools", true)
		if !ok {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			p.fail(item, at, "tools", "%q is not a valid tool name or glob (use * and ? as wildcards; close every '[')", s)
			continue
		}
		if strings.HasPrefix(s, ToolPrefix) {
			p.fail(item, at, "tools", "%q is a sub-agent; a sub-agent cannot call another sub-agent", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

// memory reads the memory access; MemoryNone when absent.
func (p *loader) memory(n *yaml.Node, at string) string {
	if n == nil {
		return MemoryNone
	}
	m, ok := p.check(at).Str(n, n, "memory", true)
	switch {
	case !ok:
	case m == MemoryNone || m == MemoryRead:
		return m
	default:
		p.fail(n, at, "memory", "%q is not one of %s (no memory), %s (its task recalls memories; memory_search if its tools allow it)", m, MemoryNone, MemoryRead)
	}
	return MemoryNone
}

// rounds reads max_rounds in 1..MaxRoundsLimit; 0 when absent.
func (p *loader) rounds(n *yaml.Node, at string) int {
	if n == nil {
		return 0
	}
	var r int
	if n.Kind != yaml.ScalarNode || n.Decode(&r) != nil || r < 1 || r > MaxRoundsLimit {
		p.fail(n, at, "max_rounds", "must be a whole number from 1 to %d, not %q", MaxRoundsLimit, n.Value)
		return 0
	}
	return r
}

// flag reads the disabled field; false when absent.
func (p *loader) flag(n *yaml.Node, at string) bool {
	var b bool
	if n != nil && (n.Kind != yaml.ScalarNode || n.Decode(&b) != nil) {
		p.fail(n, at, "disabled", "must be true or false, not %q", n.Value)
	}
	return b
}

// Catalog is the agents file, read again when it changes.
type Catalog struct {
	path string

	mu     sync.Mutex
	loaded bool
	stamp  string // size and modification time of the file last read
	list   []*Definition
	errs   []error
}

// NewCatalog reads the agents file at path.
func NewCatalog(path string) *Catalog {
	c := &Catalog{path: path}
	c.Refresh()
	return c
}

// Path is the agents file.
func (c *Catalog) Path() string { return c.path }

// stampOf identifies a version of the file by its size and modification time.
func stampOf(file string) string {
	fi, err := os.Stat(file)
	if err != nil {
		return "absent"
	}
	return fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
}

// Refresh reads the file again if it changed since it was last read; it
// reports whether it did.
func (c *Catalog) Refresh() bool {
	stamp := stampOf(c.path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded && stamp == c.stamp {
		return false
	}
	c.list, c.errs = Load(c.path)
	c.stamp, c.loaded = stamp, true
	return true
}

// List returns the effective sub-agents (switched-off ones included) and the
// mistakes in the file.
func (c *Catalog) List() ([]*Definition, []error) {
	c.Refresh()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.list, c.errs
}

// Get returns a sub-agent by name, a switched-off one too (check Disabled).
func (c *Catalog) Get(name string) (*Definition, bool) {
	list, _ := c.List()
	for _, d := range list {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Enabled returns the sub-agents that are switched on, sorted by name.
func (c *Catalog) Enabled() []*Definition {
	list, _ := c.List()
	var out []*Definition
	for _, d := range list {
		if !d.Disabled {
			out = append(out, d)
		}
	}
	return out
}
