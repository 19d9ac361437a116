package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"hermes/backend/netguard"
	"hermes/backend/userfile"
)

// LoadConfig reads and parses a config file. A missing file is an empty config.
// The error is for a file that cannot be used at all (unreadable, not JSON);
// problems of single entries are in Config.Problems.
func LoadConfig(file string) (Config, error) {
	data, err := userfile.Read(file, 0)
	if errors.Is(err, os.ErrNotExist) {
		return Config{Servers: map[string]ServerConfig{}, raw: map[string]json.RawMessage{}}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read MCP config: %w", err)
	}
	return ParseConfig(file, data)
}

// ParseConfig parses the mcpServers shape of Claude Desktop's config. file names
// the file in problems. Positions are 1-based lines and columns (in bytes).
func ParseConfig(file string, data []byte) (Config, error) {
	return parseConfig(file, data, "mcpServers")
}

// parseConfig parses the servers under key (VS Code's mcp.json calls them
// "servers").
func parseConfig(file string, data []byte, key string) (Config, error) {
	p := &configParser{file: filepath.Base(file), data: data, lines: newLineIndex(data)}
	cfg := Config{Servers: map[string]ServerConfig{}, raw: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil
	}
	top, err := p.object(data, 0)
	if errors.As(err, new(errNotObject)) {
		return Config{}, p.problem("", "", 0, `must hold a JSON object such as {"mcpServers": {}}`)
	}
	if err != nil {
		return Config{}, err
	}
	var servers *member
	for i := range top {
		if top[i].key == key {
			if servers != nil {
				p.warn(&cfg, "", key, top[i].keyOff, key+" appears twice; the later one is used")
			}
			servers = &top[i]
		}
	}
	if servers == nil || string(servers.value) == "null" {
		return cfg, nil
	}
	entries, err := p.object(servers.value, servers.valueOff)
	if err != nil {
		if errors.As(err, new(errNotObject)) {
			return Config{}, p.problem("", key, servers.valueOff, "must be an object of servers by name")
		}
		return Config{}, err
	}
	seen := map[string]int64{}
	for _, e := range entries {
		if first, dup := seen[e.key]; dup {
			line, _ := p.lines.pos(first)
			p.warn(&cfg, e.key, "", e.keyOff, fmt.Sprintf("defined again (first at line %d); the later entry is used", line))
			cfg.Names = slicesDelete(cfg.Names, e.key)
			delete(cfg.Servers, e.key)
			cfg.Problems = dropErrors(cfg.Problems, e.key)
		}
		seen[e.key] = e.keyOff
		cfg.Names = append(cfg.Names, e.key)
		cfg.raw[e.key] = e.value
		if sc, ok := p.entry(&cfg, e); ok {
			cfg.Servers[e.key] = sc
		}
	}
	return cfg, nil
}

func slicesDelete(s []string, v string) []string {
	out := s[:0]
	for _, x := range s {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

// dropErrors forgets the errors of an entry that is defined again.
func dropErrors(ps []Problem, server string) []Problem {
	out := ps[:0]
	for _, p := range ps {
		if p.Server != server || p.Warning {
			out = append(out, p)
		}
	}
	return out
}

type configParser struct {
	file  string
	data  []byte
	lines lineIndex
}

// member is one key of a JSON object with where its key and value are.
type member struct {
	key      string
	keyOff   int64 // offset of the key's opening quote
	value    json.RawMessage
	valueOff int64
}

type errNotObject struct{}

func (errNotObject) Error() string { return "not an object" }

// object splits the JSON object in raw (at offset base of the file) into its
// members, in order.
func (p *configParser) object(raw []byte, base int64) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, p.syntax(err, base)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject{}
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, p.syntax(err, base)
		}
		key, _ := tok.(string) // inside an object a token here is always a key
		keyEnd := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, p.syntax(err, base)
		}
		keyOff := keyEnd - int64(len(quoteLen(raw, keyEnd)))
		out = append(out, member{key: key, keyOff: base + keyOff, value: v, valueOff: base + dec.InputOffset() - int64(len(v))})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, p.syntax(err, base)
	}
	if base == 0 { // the top level: nothing may follow
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, p.problem("", "", dec.InputOffset(), "unexpected data after the top-level object")
		}
	}
	return out, nil
}

// quoteLen returns the key token that ends at end (its quotes included).
func quoteLen(raw []byte, end int64) []byte {
	if end <= 0 || end > int64(len(raw)) {
		return nil
	}
	i := end - 2 // the closing quote is at end-1
	for ; i >= 0; i-- {
		if raw[i] == '"' {
			bs := 0
			for j := i - 1; j >= 0 && raw[j] == '\\'; j-- {
				bs++
			}
			if bs%2 == 0 {
				break
			}
		}
	}
	if i < 0 {
		return nil
	}
	return raw[i:end]
}

// syntax turns a decoder error into a problem of the whole file.
func (p *configParser) syntax(err error, base int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return p.problem("", "", base+se.Offset-1, "not valid JSON: "+se.Error())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return p.problem("", "", int64(len(p.data)), "not valid JSON: the file ends too early (a missing '}' or ']'?)")
	}
	return p.problem("", "", base, "not valid JSON: "+err.Error())
}

func (p *configParser) problem(server, field string, off int64, msg string) Problem {
	line, col := p.lines.pos(off)
	return Problem{File: p.file, Line: line, Column: col, Server: server, Field: field, Message: msg}
}

func (p *configParser) fail(cfg *Config, server, field string, off int64, msg string) {
	cfg.Problems = append(cfg.Problems, p.problem(server, field, off, msg))
}

func (p *configParser) warn(cfg *Config, server, field string, off int64, msg string) {
	pr := p.problem(server, field, off, msg)
	pr.Warning = true
	cfg.Problems = append(cfg.Problems, pr)
}

// entry validates one server entry; ok is false when it has an error.
func (p *configParser) entry(cfg *Config, e member) (ServerConfig, bool) {
	name := e.key
	before := len(cfg.Problems)
	failed := func() bool {
		for _, pr := range cfg.Problems[before:] {
			if !pr.Warning {
				return true
			}
		}
		return false
	}
	if strings.TrimSpace(name) == "" {
		p.fail(cfg, name, "", e.keyOff, "a server needs a name")
	}
	fields, err := p.object(e.value, e.valueOff)
	if err != nil {
		p.fail(cfg, name, "", e.valueOff, `must be an object such as {"command": "npx", "args": ["-y", "some-server"]}`)
		return ServerConfig{}, false
	}
	st := &entryState{}
	seen := map[string]bool{}
	for i, f := range fields {
		if seen[f.key] {
			p.warn(cfg, name, f.key, f.keyOff, "appears twice; the later value is used")
		}
		seen[f.key] = true
		p.entryField(cfg, name, fields, i, st)
	}
	sc := st.sc
	switch {
	case st.hasCommand && st.urlAt != nil:
		p.fail(cfg, name, "url", st.urlAt.keyOff, "an entry has either command (a local server) or url (a remote one), not both")
	case st.urlAt != nil:
		p.remoteEntry(cfg, name, fields, *st.urlAt, sc)
	case st.typeAt != nil && sc.Type != TransportStdio && !failed():
		p.fail(cfg, name, "url", st.typeAt.keyOff, fmt.Sprintf(`is missing; a %q server needs "url": "http://host:port/mcp"`, sc.Type))
	case !st.hasCommand && !failed():
		p.fail(cfg, name, "command", e.keyOff, "is missing; name the program to run, e.g. \"command\": \"npx\" (or give a remote server's \"url\")")
	default:
		for _, f := range fields {
			switch f.key {
			case "headers", "allow_internet", "ca_file":
				p.fail(cfg, name, f.key, f.keyOff, "applies to remote servers (url) only")
			}
		}
	}
	return sc, !failed()
}

// entryState is what an entry's fields said so far.
type entryState struct {
	sc            ServerConfig
	hasCommand    bool
	urlAt, typeAt *member // where url and type are, when given
}

// entryField reads field i of an entry into st.
func (p *configParser) entryField(cfg *Config, name string, fields []member, i int, st *entryState) {
	f, sc := fields[i], &st.sc
	switch f.key {
	case "command":
		if p.field(cfg, name, f, &sc.Command, "must be a string: the program to run") {
			st.hasCommand = true
			if strings.TrimSpace(sc.Command) == "" {
				p.fail(cfg, name, f.key, f.valueOff, "is empty; name the program to run, e.g. \"npx\"")
			}
		}
	case "args":
		p.field(cfg, name, f, &sc.Args, "must be an array of strings")
	case "env":
		if p.field(cfg, name, f, &sc.Env, "must be an object of string values") {
			p.checkEnv(cfg, name, f, sc.Env)
		}
	case "cwd":
		if p.field(cfg, name, f, &sc.Cwd, "must be a string: an absolute directory") && sc.Cwd != "" && !filepath.IsAbs(sc.Cwd) && !strings.HasPrefix(sc.Cwd, "~/") {
			p.fail(cfg, name, f.key, f.valueOff, fmt.Sprintf("%q is not an absolute path", sc.Cwd))
		}
	case "disabled":
		p.field(cfg, name, f, &sc.Disabled, "must be true or false")
	case "timeout":
		p.entryTimeout(cfg, name, f, sc)
	case "tools":
		sc.Tools = p.toolFilter(cfg, name, f)
	case "autoApprove":
		p.field(cfg, name, f, &sc.AutoApprove, "must be an array of tool names")
	case "type":
		if p.entryType(cfg, name, f, sc) {
			st.typeAt = &fields[i]
		}
	case "url", "serverUrl":
		if p.field(cfg, name, f, &sc.URL, "must be a string: the server's http:// or https:// address") {
			st.urlAt = &fields[i]
		}
	case "headers":
		if p.field(cfg, name, f, &sc.Headers, "must be an object of string values") {
			p.checkHeaders(cfg, name, f, sc.Headers)
		}
	case "allow_internet":
		p.field(cfg, name, f, &sc.AllowInternet, "must be true or false")
	case "ca_file":
		if p.field(cfg, name, f, &sc.CAFile, "must be a string: the path of a PEM file") && sc.CAFile != "" && !filepath.IsAbs(sc.CAFile) {
			p.fail(cfg, name, f.key, f.valueOff, fmt.Sprintf("%q is not an absolute path", sc.CAFile))
		}
	default:
		p.warn(cfg, name, f.key, f.keyOff, "unknown field; it is ignored")
	}
}

// entryTimeout reads a server's timeout: a duration in (0, maxTimeout].
func (p *configParser) entryTimeout(cfg *Config, name string, f member, sc *ServerConfig) {
	var s string
	if !p.field(cfg, name, f, &s, `must be a duration string such as "30s"`) {
		return
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		p.fail(cfg, name, f.key, f.valueOff, fmt.Sprintf(`%q is not a duration; write one such as "30s" or "2m"`, s))
	case d <= 0 || d > maxTimeout:
		p.fail(cfg, name, f.key, f.valueOff, fmt.Sprintf("%s is out of range; use more than 0 and at most %s", d, maxTimeout))
	default:
		sc.Timeout = Duration(d)
	}
}

// entryType reads a server's transport (Streamable HTTP's other spellings
// taken as "http"); it reports whether the field was a string.
func (p *configParser) entryType(cfg *Config, name string, f member, sc *ServerConfig) bool {
	var t string
	if !p.field(cfg, name, f, &t, `must be "stdio", "http" or "sse"`) {
		return false
	}
	switch t {
	case "stdio", "http", "sse":
		sc.Type = Transport(t)
	case "streamable-http", "streamableHttp", "streamable_http":
		sc.Type = TransportHTTP
	default:
		p.fail(cfg, name, f.key, f.valueOff, fmt.Sprintf(`%q is not a transport Hermes knows; use "stdio" (command), "http" (Streamable HTTP, the default for a url) or "sse" (legacy HTTP+SSE)`, t))
	}
	return true
}

// remoteEntry checks what only a remote entry has: a usable URL whose host the
// network rules allow, and no launch fields.
func (p *configParser) remoteEntry(cfg *Config, name string, fields []member, at member, sc ServerConfig) {
	for _, f := range fields {
		switch f.key {
		case "args", "env", "cwd":
			p.fail(cfg, name, f.key, f.keyOff, "applies to command servers only; a remote server (url) is not launched")
		}
	}
	if sc.Type == TransportStdio {
		p.fail(cfg, name, "type", at.keyOff, `"stdio" needs a command; a url is "http" or "sse"`)
	}
	u, err := url.Parse(sc.URL)
	switch {
	case err != nil || u.Host == "":
		p.fail(cfg, name, "url", at.valueOff, fmt.Sprintf("%q is not a URL; write one such as \"http://192.168.1.20:8080/mcp\"", sc.URL))
		return
	case u.Scheme != "http" && u.Scheme != "https":
		p.fail(cfg, name, "url", at.valueOff, fmt.Sprintf("%q must start with http:// or https://", sc.URL))
		return
	case u.User != nil:
		p.fail(cfg, name, "url", at.valueOff, "must not hold a user name or password; send credentials as a header with ${VAR}")
		return
	}
	if err := netguard.CheckHost(u.Hostname(), sc.AllowInternet, `"allow_internet": true`); err != nil {
		p.fail(cfg, name, "url", at.valueOff, err.Error())
		return
	}
	if u.Scheme == "http" && !netguard.HostIsLocal(u.Hostname()) {
		p.warn(cfg, name, "url", at.valueOff, "plain http to an internet host: headers and messages travel unencrypted; use https")
	}
}

// checkHeaders refuses header names HTTP does not allow and values that would
// split a request.
func (p *configParser) checkHeaders(cfg *Config, server string, f member, headers map[string]string) {
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !httpguts.ValidHeaderFieldName(k) {
			p.fail(cfg, server, "headers", f.valueOff, fmt.Sprintf("%q is not a valid header name", k))
		}
		if headers[k] == Redacted {
			p.fail(cfg, server, "headers", f.valueOff, fmt.Sprintf("the value of %q is %s; give the value itself or ${VAR} of an environment variable", k, Redacted))
		}
		if strings.ContainsAny(headers[k], "\r\n\x00") {
			p.fail(cfg, server, "headers", f.valueOff, fmt.Sprintf("the value of %q holds a line break or NUL byte", k))
		}
	}
}

// field decodes one field's value into dst; a wrong type is a problem at the
// value that says what is expected.
func (p *configParser) field(cfg *Config, server string, f member, dst any, want string) bool {
	if err := json.Unmarshal(f.value, dst); err != nil {
		off := f.valueOff
		// A value of the wrong type is pointed at where it starts; a wrong
		// element inside it, at that element.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Offset > 0 && te.Offset < int64(len(f.value)) {
			off += te.Offset - 1
		}
		p.fail(cfg, server, f.key, off, want)
		return false
	}
	return true
}

func (p *configParser) checkEnv(cfg *Config, server string, f member, env map[string]string) {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			p.fail(cfg, server, "env", f.valueOff, fmt.Sprintf("%q is not a valid variable name", k))
		}
		if strings.ContainsRune(env[k], 0) {
			p.fail(cfg, server, "env", f.valueOff, fmt.Sprintf("the value of %s holds a NUL byte", k))
		}
	}
}

func (p *configParser) toolFilter(cfg *Config, server string, f member) *ToolFilter {
	members, err := p.object(f.value, f.valueOff)
	if err != nil {
		p.fail(cfg, server, "tools", f.valueOff, `must be an object such as {"include": ["read_*"], "exclude": ["write_*"]}`)
		return nil
	}
	var tf ToolFilter
	for _, m := range members {
		var dst *[]string
		switch m.key {
		case "include":
			dst = &tf.Include
		case "exclude":
			dst = &tf.Exclude
		default:
			p.warn(cfg, server, "tools."+m.key, m.keyOff, "unknown field; it is ignored")
			continue
		}
		m.key = "tools." + m.key
		if !p.field(cfg, server, m, dst, "must be an array of glob patterns") {
			continue
		}
		for _, pat := range *dst {
			if _, err := path.Match(pat, ""); err != nil {
				p.fail(cfg, server, m.key, m.valueOff, fmt.Sprintf("%q is not a valid glob pattern", pat))
			}
		}
	}
	return &tf
}

// lineIndex maps byte offsets to lines and columns.
type lineIndex []int64 // offset at which each line starts

func newLineIndex(data []byte) lineIndex {
	li := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			li = append(li, int64(i+1))
		}
	}
	return li
}

// pos returns the 1-based line and column of off.
func (li lineIndex) pos(off int64) (line, col int) {
	if off < 0 {
		off = 0
	}
	i := sort.Search(len(li), func(i int) bool { return li[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, int(off-li[i]) + 1
}
