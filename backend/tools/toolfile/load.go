// Package toolfile reads tools.yaml, the file in the data dir where a user who is
// not a developer declares tools: a name, a description, a JSON Schema of the
// parameters, and an executor that calls a local HTTP endpoint or runs a program
// (never through a shell: a shell given the model's text as a script is refused
// unless the tool says allow_shell: true). A mistake disables only the tool it
// is in, and is reported with its line and field.
package toolfile

import (
	"encoding/json"
	"fmt"
	"hermes/backend/lazyre"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"golang.org/x/net/http/httpguts"

	"hermes/backend/egress"
	"hermes/backend/netguard"
	"hermes/backend/proc"
	"hermes/backend/tools"
	"hermes/backend/yamlfile"
)

// FileName is the tools file in the data dir.
const FileName = "tools.yaml"

// maxFileSize caps the tools file.

// maxTimeout caps a declared timeout.
const maxTimeout = 10 * time.Minute

// Error is a mistake in the tools file and where it is.
type Error struct {
	File  string
	Line  int
	Tool  string // the tool's name (or #N when it has none); "" outside a tool
	Field string // e.g. "http.url", "parameters"
	Msg   string
}

func (e *Error) Error() string {
	tool := ""
	if e.Tool != "" {
		tool = "tool " + e.Tool
	}
	return yamlfile.Where(e.File, e.Line, []string{tool}, e.Field, e.Msg)
}

// Options are what loading needs from the machine; nil fields use the real ones.
type Options struct {
	LookupEnv func(string) (string, bool)       // environment variables (${VAR} in headers and env)
	LookPath  func(string) (string, error)      // finding a command's program
	Stat      func(string) (os.FileInfo, error) // checking a command's dir
	// Net dials the HTTP tools (offline_only, the record of connections); nil
	// dials with the tool's own rule and records nothing.
	Net *egress.Net
	// Records keeps the record of the commands running, so that a Hermes
	// started after one was killed stops what its calls left (proc.InFlight);
	// nil keeps none.
	Records *proc.Recorder
}

func (o Options) withDefaults() Options {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Stat == nil {
		o.Stat = os.Stat
	}
	return o
}

// Load reads the tools file at path. A missing file declares no tools. It returns
// the tools that are right and an *Error for each mistake; a tool with a mistake
// is left out, the others still load.
func Load(path string, opts Options) ([]*Tool, []error) {
	data, ok, err := yamlfile.Read(path)
	if err != nil {
		return nil, []error{&Error{File: path, Msg: err.Error()}}
	}
	if !ok {
		return nil, nil
	}
	return Parse(path, data, opts)
}

// Parse reads a tools file's content; file names it in errors.
func Parse(file string, data []byte, opts Options) ([]*Tool, []error) {
	opts = opts.withDefaults()
	doc, line, msg, err := yamlfile.Parse(data)
	if err != nil {
		return nil, []error{&Error{File: file, Line: line, Msg: msg}}
	}
	if len(doc.Content) == 0 {
		return nil, nil // empty file
	}
	root := doc.Content[0]
	p := &loader{file: file, opts: opts, names: map[string]int{}}
	if root.Kind != yaml.MappingNode {
		p.fail(root, "", "", "the file must be a mapping with a list under \"tools:\"")
		return nil, p.errs
	}
	var list *yaml.Node
	fields := p.fields(root, "", "", []string{"version", "tools"})
	if v := fields["version"]; v != nil && (v.Kind != yaml.ScalarNode || v.Value != "1") {
		p.fail(v, "", "version", "only version 1 is known")
	}
	if list = fields["tools"]; list == nil || yamlfile.IsNull(list) {
		return nil, p.errs
	}
	if list.Kind != yaml.SequenceNode {
		p.fail(list, "", "tools", "must be a list of tools (each item starts with \"- name:\")")
		return nil, p.errs
	}
	var out []*Tool
	for i, item := range list.Content {
		if t := p.tool(i, item); t != nil {
			out = append(out, t)
		}
	}
	return out, p.errs
}

// loader collects errors while reading one file.
type loader struct {
	file  string
	opts  Options
	errs  []error
	names map[string]int // tool name -> line
}

func (p *loader) fail(n *yaml.Node, tool, field, format string, a ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Tool: tool, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// fields reads a mapping's keys, reporting unknown and repeated ones.
func (p *loader) fields(n *yaml.Node, tool, prefix string, known []string) map[string]*yaml.Node {
	return p.check(tool).Fields(n, prefix, known)
}

// check is the shared field reader, reporting as this loader does.
func (p *loader) check(tool string) yamlfile.Checker {
	return yamlfile.Checker{Fail: func(n *yaml.Node, field, msg string) { p.fail(n, tool, field, "%s", msg) }}
}

func join(prefix, field string) string {
	if prefix == "" {
		return field
	}
	return prefix + "." + field
}

// str reads a scalar text field. A required field that is absent or empty is
// reported "is missing" at the field, or at parent when the field is absent.
func (p *loader) str(n, parent *yaml.Node, tool, field string, required bool) (string, bool) {
	return p.check(tool).Str(n, parent, field, required)
}

func (p *loader) boolean(n *yaml.Node, tool, field string) (bool, bool) {
	if n == nil {
		return false, true
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		p.fail(n, tool, field, "must be true or false, not %q", n.Value)
		return false, false
	}
	return b, true
}

// tool reads one tool; nil when anything in it is wrong.
func (p *loader) tool(i int, n *yaml.Node) *Tool {
	before := len(p.errs)
	label := fmt.Sprintf("#%d", i+1)
	if n.Kind != yaml.MappingNode {
		p.fail(n, label, "", "each tool is a mapping with name, description, parameters, and http or command")
		return nil
	}
	f := p.fields(n, label, "", []string{"name", "description", "parameters", "result_schema", "timeout", "annotations", "auto_approve", "http", "command", "allow_shell"})
	t := &Tool{line: n.Line}
	if sn := f["allow_shell"]; sn != nil {
		p.fail(sn, label, "allow_shell", "goes under command: (command: {argv: [...], allow_shell: true})")
	}
	label = p.toolName(f, n, label, t)
	if d, ok := p.str(f["description"], n, label, "description", true); ok {
		t.description = strings.TrimSpace(d)
	}
	props := p.toolSchemas(f, n, label, t)
	p.toolTimeout(f, n, label, t)
	p.toolExecutor(f, n, label, props, t)
	p.toolApproval(f, label, t)
	if len(p.errs) > before {
		return nil
	}
	return t
}

// toolName checks the tool's name (valid, declared once) and returns how
// messages name the tool from then on.
func (p *loader) toolName(f map[string]*yaml.Node, n *yaml.Node, label string, t *Tool) string {
	name, ok := p.str(f["name"], n, label, "name", true)
	switch {
	case !ok:
	case !tools.ValidName(name):
		p.fail(f["name"], label, "name", "%q is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'", name)
	case p.names[name] != 0:
		p.fail(f["name"], label, "name", "%q is already declared at line %d", name, p.names[name])
	default:
		p.names[name] = f["name"].Line
		label = strconv.Quote(name)
	}
	t.name = name
	return label
}

// toolSchemas reads the parameter schema (an object: its property names are
// returned, for the placeholders to be checked against) and the result
// schema.
func (p *loader) toolSchemas(f map[string]*yaml.Node, n *yaml.Node, label string, t *Tool) map[string]bool {
	var props map[string]bool
	if pn := f["parameters"]; pn == nil {
		p.fail(n, label, "parameters", "is missing: give a JSON Schema with type: object (use {type: object} for none)")
	} else if schema, ok := p.schema(pn, label, "parameters"); ok {
		var top map[string]any // a map: a struct would match "tYpe" to type, JSON Schema does not
		_ = json.Unmarshal(schema, &top)
		if top["type"] != "object" {
			p.fail(pn, label, "parameters.type", "must be \"object\"")
		}
		props = map[string]bool{}
		if m, ok := top["properties"].(map[string]any); ok {
			for k := range m {
				props[k] = true
			}
		}
		t.params = schema
	}
	if rn := f["result_schema"]; rn != nil {
		if schema, ok := p.schema(rn, label, "result_schema"); ok {
			t.result = schema
		}
	}
	return props
}

func (p *loader) toolTimeout(f map[string]*yaml.Node, n *yaml.Node, label string, t *Tool) {
	tn := f["timeout"]
	if tn == nil {
		return
	}
	s, _ := p.str(tn, n, label, "timeout", false)
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		p.fail(tn, label, "timeout", "%q is not a duration: write it like 5s, 1500ms or 2m", s)
	case d <= 0 || d > maxTimeout:
		p.fail(tn, label, "timeout", "must be more than 0 and at most %s", maxTimeout)
	default:
		t.timeout = d
	}
}

// toolExecutor reads the one executor: http or command.
func (p *loader) toolExecutor(f map[string]*yaml.Node, n *yaml.Node, label string, props map[string]bool, t *Tool) {
	hn, cn := f["http"], f["command"]
	switch {
	case hn != nil && cn != nil:
		p.fail(cn, label, "command", "a tool has either http or command, not both")
	case hn == nil && cn == nil:
		p.fail(n, label, "http", "an executor is missing: add http (call a URL) or command (run a program)")
	case hn != nil:
		p.http(hn, label, props, t)
	default:
		p.command(cn, label, props, t)
	}
}

// toolApproval settles the annotations: those the user declares override the
// executor's defaults, a command always asks (auto_approve is refused for
// one), and a shell command says so in its description.
func (p *loader) toolApproval(f map[string]*yaml.Node, label string, t *Tool) {
	if an := f["annotations"]; an != nil {
		if an.Kind != yaml.MappingNode {
			p.fail(an, label, "annotations", "must be a mapping (read_only, destructive, open_world)")
		} else {
			af := p.fields(an, label, "annotations", []string{"read_only", "destructive", "open_world"})
			if v, ok := p.boolean(af["read_only"], label, "annotations.read_only"); ok && af["read_only"] != nil {
				t.annotations.ReadOnly = v
			}
			if v, ok := p.boolean(af["destructive"], label, "annotations.destructive"); ok && af["destructive"] != nil {
				t.annotations.Destructive = v
			}
			if v, ok := p.boolean(af["open_world"], label, "annotations.open_world"); ok && af["open_world"] != nil {
				t.annotations.OpenWorld = t.annotations.OpenWorld || v // allow_internet cannot be declared away
			}
		}
	}
	cn := f["command"]
	if cn != nil {
		t.annotations.Command = true // always asks
		t.annotations.ReadOnly = false
	}
	if an := f["auto_approve"]; an != nil {
		if v, ok := p.boolean(an, label, "auto_approve"); ok && v {
			if cn != nil {
				p.fail(an, label, "auto_approve", "a command always asks before it runs; remove auto_approve")
			} else {
				t.autoApprove = true
			}
		}
	}
	if t.shell {
		t.description = ShellNote + " " + t.description
		t.annotations.Shell = true
	}
}

// schema converts a YAML schema to JSON and compiles it.
func (p *loader) schema(n *yaml.Node, tool, field string) (json.RawMessage, bool) {
	return p.check(tool).Schema(n, field, compileSchema)
}

func compileSchema(field string, b []byte) error {
	_, err := tools.CompileSchema(field, b)
	return err
}

var envRef = lazyre.New(`\$\{([^}]*)\}`)
var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expandEnv fills ${VAR} from the environment; a missing or malformed name is an error.
func (p *loader) expandEnv(n *yaml.Node, tool, field, s string) (string, bool) {
	ok := true
	out := envRef.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		if !envName.MatchString(name) {
			p.fail(n, tool, field, "%q is not a valid environment variable name", name)
			ok = false
			return ""
		}
		v, set := p.opts.LookupEnv(name)
		if !set {
			p.fail(n, tool, field, "environment variable %s is not set; set it before starting Hermes", name)
			ok = false
		}
		return v
	})
	return out, ok
}

// placeholders checks that a template's placeholders are declared parameters.
func (p *loader) placeholders(n *yaml.Node, tool, field string, t template, props map[string]bool) bool {
	ok := true
	for _, a := range t.args() {
		if props != nil && !props[a] {
			p.fail(n, tool, field, "placeholder {{%s}} is not a parameter (declared: %s)", a, strings.Join(yamlfile.SortedKeys(props), ", "))
			ok = false
		}
	}
	return ok
}

func (p *loader) http(n *yaml.Node, tool string, props map[string]bool, t *Tool) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, tool, "http", "must be a mapping with method, url, headers, allow_internet")
		return
	}
	f := p.fields(n, tool, "http", []string{"method", "url", "headers", "allow_internet"})
	method := http.MethodGet
	if mn := f["method"]; mn != nil {
		s, _ := p.str(mn, n, tool, "http.method", false)
		method = strings.ToUpper(s)
		if !slices.Contains([]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}, method) {
			p.fail(mn, tool, "http.method", "%q is not one of GET, HEAD, POST, PUT, PATCH, DELETE", s)
		}
	}
	allowInternet, _ := p.boolean(f["allow_internet"], tool, "http.allow_internet")
	var u template
	var host string
	un := f["url"]
	if raw, ok := p.str(un, n, tool, "http.url", true); ok {
		var err error
		if u, err = parseTemplate(raw); err != nil {
			p.fail(un, tool, "http.url", "%v", err)
		} else if p.placeholders(un, tool, "http.url", u, props) {
			host = p.checkURL(un, tool, raw, allowInternet)
		}
	}
	headers := http.Header{}
	var secret []string // headers whose value comes from ${VAR}
	if hn := f["headers"]; hn != nil {
		if hn.Kind != yaml.MappingNode {
			p.fail(hn, tool, "http.headers", "must be a mapping of header names to values")
		}
		for i := 0; hn.Kind == yaml.MappingNode && i+1 < len(hn.Content); i += 2 {
			k, v := hn.Content[i], hn.Content[i+1]
			field := "http.headers." + k.Value
			val, ok := p.str(v, hn, tool, field, true)
			switch {
			case !ok:
			case strings.Contains(val, "{{"):
				p.fail(v, tool, field, "placeholders are not allowed in headers; secrets come from ${VAR}")
			case !httpguts.ValidHeaderFieldName(k.Value):
				p.fail(k, tool, field, "%q is not a valid header name", k.Value)
			default:
				if expanded, ok := p.expandEnv(v, tool, field, val); ok {
					if strings.ContainsAny(expanded, "\r\n") {
						p.fail(v, tool, field, "the value contains a line break")
					} else {
						headers.Add(k.Value, expanded)
						if envRef.MatchString(val) {
							secret = append(secret, k.Value)
						}
					}
				}
			}
		}
	}
	// Anything beyond this machine asks first (open world), even a GET on the LAN.
	t.annotations = tools.Annotations{ReadOnly: method == "GET" || method == "HEAD", Destructive: method != "GET" && method != "HEAD",
		OpenWorld: allowInternet || !loopbackHost(host)}
	t.run = newHTTPExec(method, u, headers, secret, p.opts.Net.Dialer(egress.Rule{Part: "tool:" + t.name, Guard: true,
		Internet: allowInternet, Hint: "allow_internet: true in tools.yaml", Timeout: 5 * time.Second})).run
}

// loopbackHost reports whether host (from a URL, without port) is this machine:
// localhost or a loopback address.
func loopbackHost(host string) bool {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.Unmap().IsLoopback()
	}
	return strings.EqualFold(strings.TrimSuffix(host, "."), "localhost")
}

// checkURL checks the scheme and host of a URL template; placeholders may not
// choose where the request goes. It returns the host when it is allowed.
func (p *loader) checkURL(n *yaml.Node, tool, raw string, allowInternet bool) string {
	scheme, rest, found := strings.Cut(raw, "://")
	if !found || (scheme != "http" && scheme != "https") {
		p.fail(n, tool, "http.url", "must start with http:// or https://")
		return ""
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if strings.Contains(authority, "{{") {
		p.fail(n, tool, "http.url", "placeholders may not be in the host: the model must not choose where requests go")
		return ""
	}
	u, err := url.Parse(scheme + "://" + authority)
	if err != nil || u.Hostname() == "" {
		p.fail(n, tool, "http.url", "%q has no valid host", raw)
		return ""
	}
	if u.User != nil {
		p.fail(n, tool, "http.url", "must not contain a user name or password; put secrets in headers with ${VAR}")
		return ""
	}
	if err := netguard.CheckHost(u.Hostname(), allowInternet, "allow_internet: true"); err != nil {
		p.fail(n, tool, "http.url", "%v", err)
		return ""
	}
	return u.Hostname()
}

func (p *loader) command(n *yaml.Node, tool string, props map[string]bool, t *Tool) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, tool, "command", "must be a mapping with argv (and optionally env, dir, allow_shell)")
		return
	}
	f := p.fields(n, tool, "command", []string{"argv", "env", "dir", "allow_shell"})
	c := &commandExec{rec: p.opts.Records}
	raw, fromModel, complete := p.argv(f["argv"], n, tool, props, c)
	allowShell, _ := p.boolean(f["allow_shell"], tool, "command.allow_shell")
	if complete {
		t.shell = p.injection(f["argv"], tool, raw, fromModel, allowShell)
	}
	p.commandEnv(f["env"], tool, c)
	if home, ok := p.opts.LookupEnv("HOME"); ok {
		c.dir = home
	}
	if dn := f["dir"]; dn != nil {
		if d, ok := p.str(dn, n, tool, "command.dir", false); ok && d != "" {
			if fi, err := p.opts.Stat(d); !filepath.IsAbs(d) || err != nil || !fi.IsDir() {
				p.fail(dn, tool, "command.dir", "%q must be an absolute path to an existing directory", d)
			} else {
				c.dir = d
			}
		}
	}
	t.annotations = tools.Annotations{Command: true}
	t.run = c.run
}

// argv reads the program (found and made absolute; never a placeholder) and
// its arguments into c; it returns argv as written, the placeholders in it,
// and whether every item was read.
func (p *loader) argv(an, n *yaml.Node, tool string, props map[string]bool, c *commandExec) (raw, fromModel []string, complete bool) {
	switch {
	case an == nil:
		p.fail(n, tool, "command.argv", "is missing: the program and its arguments as a list, e.g. [/usr/bin/echo, \"{{text}}\"]")
		return nil, nil, true
	case an.Kind != yaml.SequenceNode || len(an.Content) == 0:
		p.fail(an, tool, "command.argv", "must be a non-empty list: the program, then its arguments (no shell is used)")
		return nil, nil, true
	}
	complete = true
	for i, item := range an.Content {
		field := fmt.Sprintf("command.argv[%d]", i)
		s, ok := p.str(item, an, tool, field, true)
		raw = append(raw, s)
		if !ok {
			complete = false
			continue
		}
		tm, err := parseTemplate(s)
		if err != nil {
			p.fail(item, tool, field, "%v", err)
			continue
		}
		if i == 0 {
			p.program(item, tool, field, s, tm, c)
			continue
		}
		fromModel = append(fromModel, tm.args()...)
		if p.placeholders(item, tool, field, tm, props) {
			c.argv = append(c.argv, tm)
		}
	}
	return raw, fromModel, complete
}

// program sets the command's program: a path that exists and can run, not a
// placeholder (the model must not choose what runs).
func (p *loader) program(item *yaml.Node, tool, field, s string, tm template, c *commandExec) {
	if len(tm.args()) > 0 {
		p.fail(item, tool, field, "the program may not be a placeholder: the model must not choose what runs")
		return
	}
	path, err := p.opts.LookPath(s)
	if err != nil {
		p.fail(item, tool, field, "program %q not found or not executable: %v", s, err)
		return
	}
	if !filepath.IsAbs(path) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	c.path = path
}

// injection refuses a shell script or an inline program that the model's
// values are put into (shell or code injection) unless allow_shell accepts
// the risk; it returns whether the command runs one (its approval says so).
func (p *loader) injection(an *yaml.Node, tool string, raw, fromModel []string, allowShell bool) (shell bool) {
	if shellAt, sh, flag := shellScript(raw); shellAt >= 0 && len(fromModel) > 0 {
		if allowShell {
			shell = true
		} else {
			p.fail(an.Content[shellAt], tool, fmt.Sprintf("command.argv[%d]", shellAt),
				"%q runs its text as a shell script, and this command puts the model's {{%s}} into it: the model could make it run "+
					"any command (shell injection). Give the arguments to the program itself, without a shell "+
					"(argv: [/path/to/program, \"{{%s}}\"]), or, if you accept the risk, add allow_shell: true under command: "+
					"(every call then asks first, and the approval says it runs a shell)",
				sh+" "+flag, fromModel[0], fromModel[0])
		}
	}
	if at, name, how := inlineProgram(raw); at >= 0 {
		if allowShell {
			shell = true
		} else {
			p.fail(an.Content[at], tool, fmt.Sprintf("command.argv[%d]", at),
				"%s runs this text as a program (%s), and the model's value is put inside it: the model could make it run "+
					"any code (code injection). Pass the value as an argument of its own after the program text "+
					"(e.g. [python3, -c, \"import sys; print(sys.argv[1])\", \"{{q}}\"]), or, if you accept the risk, add allow_shell: true under command: "+
					"(every call then asks first, and the approval says it runs code)",
				name, how)
		}
	}
	return shell
}

// commandEnv is a minimal environment (PATH, HOME, LANG, TMPDIR, SYSTEMROOT
// as Hermes has them) and then what the entry declares (en), ${VAR}s expanded.
func (p *loader) commandEnv(en *yaml.Node, tool string, c *commandExec) {
	for _, k := range []string{"PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT"} {
		if v, ok := p.opts.LookupEnv(k); ok {
			c.env = append(c.env, k+"="+v)
		}
	}
	if en == nil {
		return
	}
	if en.Kind != yaml.MappingNode {
		p.fail(en, tool, "command.env", "must be a mapping of variable names to values")
	}
	for i := 0; en.Kind == yaml.MappingNode && i+1 < len(en.Content); i += 2 {
		k, v := en.Content[i], en.Content[i+1]
		field := "command.env." + k.Value
		if !envName.MatchString(k.Value) {
			p.fail(k, tool, field, "%q is not a valid environment variable name", k.Value)
			continue
		}
		if val, ok := p.str(v, en, tool, field, false); ok {
			if expanded, ok := p.expandEnv(v, tool, field, val); ok {
				c.env = append(c.env, k.Value+"="+expanded)
			}
		}
	}
}
