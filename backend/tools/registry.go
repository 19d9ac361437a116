package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
)

// Errors callers can test for.
var (
	ErrInvalidTool = errors.New("invalid tool")
	ErrDuplicate   = errors.New("a tool with this name is already registered")
	ErrNotFound    = errors.New("no such tool")
)

// Registry holds the tools that exist now. MCP tools come and go, so tools can be
// registered and unregistered at any time; it is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	entries map[string]*entry
	// schemas are parameter schemas compiled once for every tool that declares
	// the same bytes (each sub-agent's agent__ tool does); see paramsOf.
	schemas map[string]*paramSchema
}

// paramSchema is a parameter schema as a tool's entry needs it: compiled for
// the validator, converted for the model, canonical for DefinitionHash, each
// made once when first needed (at registration for a tool from outside). It
// is only read once made, so tools share it.
type paramSchema struct {
	compiled *schema
	model    func() (api.ToolFunctionParameters, error)
	hashed   func() json.RawMessage
}

// maxSchemas bounds the cache of compiled schemas (tools come and go with
// their MCP servers): past it, it starts again empty.
const maxSchemas = 512

// entry is a registered tool with everything prepared once at registration.
type entry struct {
	tool        Tool
	groups      []string
	params      *schema
	result      *schema // nil when the tool declares none
	modelParams func() (api.ToolFunctionParameters, error)
	hash        func() string // DefinitionHash, made when first asked
	timeout     time.Duration // 0: the executor's default
	autoApprove bool
	ownSchemas  bool // Hermes' own tool: its schemas compile when first used (WithOwnSchemas)
	enabled     bool
	// owner switches the tool when the user does (SetEnabled); nil: the flag alone
	owner func(name string, on bool) error
}

// Option adjusts how a tool is registered.
type Option func(*entry)

// WithGroups tags the tool with groups (GroupReadOnly, GroupTask, GroupMemory or
// others); without it a read-only tool is in GroupReadOnly and any other in GroupTask.
func WithGroups(groups ...string) Option {
	return func(e *entry) { e.groups = slices.Clone(groups) }
}

// WithTimeout sets the tool's per-call timeout instead of the executor's default.
func WithTimeout(d time.Duration) Option {
	return func(e *entry) { e.timeout = d }
}

// WithAutoApprove lets calls run without asking although the annotations would
// ask (the user configured it so, e.g. an MCP server's autoApprove list).
func WithAutoApprove() Option {
	return func(e *entry) { e.autoApprove = true }
}

// WithOwnSchemas marks one of Hermes' own tools (built-in, knowledge,
// memory, plan): its schemas compile when it is first called instead of at
// registration, so a command that calls no tool does not start the JSON
// Schema compiler (README, "Start-up"). Their tests compile every one
// (CheckSchemas). A tool from outside (tools.yaml, MCP, a user's sub-agent
// or workflow) is checked when registered.
func WithOwnSchemas() Option {
	return func(e *entry) { e.ownSchemas = true }
}

// WithSwitch gives the user's on/off switch of the tool to its owner: SetEnabled
// calls fn, which records the choice and applies it with Activate (e.g. an MCP
// server that remembers switched-off tools across restarts).
func WithSwitch(fn func(name string, on bool) error) Option {
	return func(e *entry) { e.owner = fn }
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{entries: map[string]*entry{}, schemas: map[string]*paramSchema{}}
}

// paramsOf is t's parameter schema, compiled and converted once for all the
// tools that declare the same bytes; checked at once unless own (WithOwnSchemas).
func (r *Registry) paramsOf(t Tool, own bool) (*paramSchema, error) {
	raw := t.Parameters()
	r.mu.RLock()
	p := r.schemas[string(raw)]
	r.mu.RUnlock()
	fresh := p == nil
	if fresh {
		p = &paramSchema{
			compiled: onFirstUse(t.Name()+"/parameters", raw),
			model:    sync.OnceValues(func() (api.ToolFunctionParameters, error) { return modelParameters(raw) }),
			hashed:   sync.OnceValue(func() json.RawMessage { return rawOrNull(canonicalRaw(raw)) }),
		}
	}
	if !own {
		if err := p.compiled.check(); err != nil {
			return nil, fmt.Errorf("register tool %q: %w: %v", t.Name(), ErrInvalidTool, err)
		}
		if _, err := p.model(); err != nil {
			return nil, fmt.Errorf("register tool %q: %w: %v", t.Name(), ErrInvalidTool, err)
		}
	}
	if !fresh {
		return p, nil
	}
	r.mu.Lock()
	if len(r.schemas) >= maxSchemas {
		clear(r.schemas)
	}
	r.schemas[string(raw)] = p
	r.mu.Unlock()
	return p, nil
}

// Register adds a tool. Its name must suit the model, be unused, and its schemas
// must compile; the parameter schema must describe an object.
func (r *Registry) Register(t Tool, opts ...Option) error {
	if err := checkTool(t); err != nil {
		return err
	}
	e := &entry{tool: t, enabled: true}
	for _, o := range opts {
		o(e)
	}
	params, err := r.paramsOf(t, e.ownSchemas)
	if err != nil {
		return err
	}
	if err := prepare(e, params); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.entries[t.Name()]; dup {
		return fmt.Errorf("register tool %q: %w; unregister it first or choose another name", t.Name(), ErrDuplicate)
	}
	r.entries[t.Name()] = e
	return nil
}

// checkTool refuses a tool without a name the model can use or a description.
func checkTool(t Tool) error {
	if t == nil {
		return fmt.Errorf("register tool: %w: nil tool", ErrInvalidTool)
	}
	name := t.Name()
	if !ValidName(name) {
		return fmt.Errorf("register tool %q: %w: a name is 1 to 64 letters, digits, '_' or '-'", name, ErrInvalidTool)
	}
	if t.Description() == "" {
		return fmt.Errorf("register tool %q: %w: the description is empty; the model needs it to choose the tool", name, ErrInvalidTool)
	}
	return nil
}

// prepare completes e, its options applied, with its parameter schema p
// (paramsOf).
func prepare(e *entry, p *paramSchema) error {
	t := e.tool
	name := t.Name()
	e.params, e.modelParams = p.compiled, p.model
	if rs, ok := t.(ResultSchemer); ok && len(rs.ResultSchema()) > 0 {
		e.result = onFirstUse(name+"/result", rs.ResultSchema())
		if !e.ownSchemas {
			if err := e.result.check(); err != nil {
				return fmt.Errorf("register tool %q: %w: %v", name, ErrInvalidTool, err)
			}
		}
	}
	if e.timeout < 0 {
		return fmt.Errorf("register tool %q: %w: negative timeout %s", name, ErrInvalidTool, e.timeout)
	}
	if len(e.groups) == 0 {
		e.groups = defaultGroups(t.Annotations())
	}
	if slices.Contains(e.groups, GroupReadOnly) && (!t.Annotations().ReadOnly || t.Annotations().NeedsApproval()) {
		return fmt.Errorf("register tool %q: %w: tagged %q but its annotations say it changes things or runs commands", name, ErrInvalidTool, GroupReadOnly)
	}
	e.hash = sync.OnceValue(func() string { return definitionHash(t, p.hashed()) })
	return nil
}

// Unregister removes a tool; it reports whether the tool was there.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.entries[name]
	delete(r.entries, name)
	return ok
}

// SetEnabled switches a tool on or off without unregistering it (a UI toggle); a
// disabled tool is neither shown to the model nor run.
func (r *Registry) SetEnabled(name string, on bool) error {
	r.mu.Lock()
	e, ok := r.entries[name]
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("enable tool %q: %w", name, ErrNotFound)
	}
	if e.owner != nil {
		return e.owner(name, on) // not under the lock: the owner calls Activate
	}
	return r.Activate(name, on)
}

// Activate switches a tool on or off as it is: the registry's own flag, for the
// tool's owner (SetEnabled is the user's switch).
func (r *Registry) Activate(name string, on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[name]
	if !ok {
		return fmt.Errorf("enable tool %q: %w", name, ErrNotFound)
	}
	e.enabled = on
	return nil
}

// Get returns a registered tool.
func (r *Registry) Get(name string) (Tool, bool) {
	e := r.lookup(name)
	if e == nil {
		return nil, false
	}
	return e.tool, true
}

func (r *Registry) lookup(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.entries[name]
}

// active returns the entry of an enabled tool, or nil.
func (r *Registry) active(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.entries[name]; e != nil && e.enabled {
		return e
	}
	return nil
}

// Info describes a registered tool (for the UI, the CLI and approvals).
type Info struct {
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	Parameters     json.RawMessage `json:"parameters"`
	Annotations    Annotations     `json:"annotations"`
	Groups         []string        `json:"groups"`
	Timeout        time.Duration   `json:"timeout"` // 0: the executor's default
	DefinitionHash string          `json:"definition_hash"`
	NeedsApproval  bool            `json:"needs_approval"`
	Enabled        bool            `json:"enabled"`
}

func (e *entry) info() Info {
	return Info{
		Name: e.tool.Name(), Description: e.tool.Description(), Parameters: e.tool.Parameters(),
		Annotations: e.tool.Annotations(), Groups: slices.Clone(e.groups), Timeout: e.timeout,
		DefinitionHash: e.hash(), NeedsApproval: e.needsApproval(), Enabled: e.enabled,
	}
}

func (e *entry) needsApproval() bool {
	return e.tool.Annotations().NeedsApproval() && !e.autoApprove
}

// List describes every registered tool, sorted by name.
func (r *Registry) List() []Info {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Info, 0, len(r.entries))
	for _, e := range r.entries {
		out = append(out, e.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Info describes one tool.
func (r *Registry) Info(name string) (Info, bool) {
	e := r.lookup(name)
	if e == nil {
		return Info{}, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return e.info(), true
}

// InGroup is a filter for Schemas and the executor: the tools a turn of group g
// may see (see the Group constants; the task group includes read-only tools).
func (r *Registry) InGroup(g string) func(Tool) bool {
	return func(t Tool) bool {
		r.mu.RLock()
		defer r.mu.RUnlock()
		e := r.entries[t.Name()]
		return e != nil && inGroup(e.groups, e.tool.Annotations(), g)
	}
}

// Tools returns the enabled tools that pass filter (nil: all), sorted by name.
func (r *Registry) Tools(filter func(Tool) bool) []Tool {
	r.mu.RLock()
	es := make([]*entry, 0, len(r.entries))
	for _, e := range r.entries {
		if e.enabled {
			es = append(es, e)
		}
	}
	r.mu.RUnlock()
	sort.Slice(es, func(i, j int) bool { return es[i].tool.Name() < es[j].tool.Name() })
	var out []Tool
	for _, e := range es {
		if filter == nil || filter(e.tool) {
			out = append(out, e.tool)
		}
	}
	return out
}

// Schemas returns the schemas of the enabled tools that pass filter (nil: all),
// sorted by name so the prompt is stable, in the form Ollama sends to the model.
func (r *Registry) Schemas(filter func(Tool) bool) api.Tools {
	var out api.Tools
	for _, t := range r.Tools(filter) {
		e := r.lookup(t.Name())
		if e == nil {
			continue
		}
		params, _ := e.modelParams() // an own tool's converts (CheckSchemas), another's did at registration
		out = append(out, api.Tool{Type: "function", Function: api.ToolFunction{
			Name: t.Name(), Description: t.Description(), Parameters: params,
		}})
	}
	return out
}

// CheckSchemas compiles every registered tool's schemas that are not yet
// (WithOwnSchemas): the tests of Hermes' own tools call it.
func (r *Registry) CheckSchemas() error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var errs []error
	for _, e := range r.entries {
		errs = append(errs, e.params.check())
		if _, err := e.modelParams(); err != nil {
			errs = append(errs, fmt.Errorf("tool %q: %w", e.tool.Name(), err))
		}
		if e.result != nil {
			errs = append(errs, e.result.check())
		}
	}
	return errors.Join(errs...)
}
