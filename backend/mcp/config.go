package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"time"
)

// ServerConfig is one entry of mcpServers: the fields Claude Desktop uses
// (command, args, env for a local server; url, type, headers for a remote one)
// and Hermes's own optional ones.
type ServerConfig struct {
	Command     string            `json:"command,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"` // values may reference ${VAR} of Hermes's environment
	Cwd         string            `json:"cwd,omitempty"`
	Disabled    bool              `json:"disabled,omitempty"`
	Timeout     Duration          `json:"timeout,omitempty"` // per request; default Options.RequestTimeout
	Tools       *ToolFilter       `json:"tools,omitempty"`
	AutoApprove []string          `json:"autoApprove,omitempty"` // tool names (the server's) that never ask

	// A remote server (Streamable HTTP, or the legacy HTTP+SSE transport).
	URL  string    `json:"url,omitempty"`
	Type Transport `json:"type,omitempty"` // "stdio", "http" (the default with a url) or "sse"
	// Headers are sent with every request; values may reference ${VAR} of
	// Hermes's environment, read at connect time and never shown.
	Headers map[string]string `json:"headers,omitempty"`
	// AllowInternet lets the entry reach a host outside loopback and the private
	// LAN ranges.
	AllowInternet bool `json:"allow_internet,omitempty"`
	// CAFile is a PEM file of the CA that signed a LAN server's certificate.
	CAFile string `json:"ca_file,omitempty"`
}

// Transport is how Hermes talks to a server: a local program (stdio),
// Streamable HTTP, or legacy HTTP+SSE.
type Transport string

// Transports of a server entry.
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
	TransportSSE   Transport = "sse"
)

// Remote reports whether the entry is a remote (HTTP) server.
func (c ServerConfig) Remote() bool { return c.URL != "" }

// Transport is "stdio", "http" or "sse".
func (c ServerConfig) Transport() Transport {
	switch {
	case !c.Remote():
		return TransportStdio
	case c.Type == TransportSSE:
		return TransportSSE
	}
	return TransportHTTP
}

// Redacted is the text shown instead of a header's value.
const Redacted = "[REDACTED]"

// redacted returns a copy whose header values read [REDACTED], for anything
// shown to the user or written to a log.
func (c ServerConfig) redacted() ServerConfig {
	c = c.clone()
	for k := range c.Headers {
		c.Headers[k] = Redacted
	}
	return c
}

// HeaderNames are the entry's header names, sorted.
func (c ServerConfig) HeaderNames() []string {
	names := slices.Collect(maps.Keys(c.Headers))
	slices.Sort(names)
	return names
}

// ToolFilter chooses which of a server's tools are offered, by glob (path.Match)
// on the server's tool names: a tool is offered when it matches an include
// pattern (or there are none) and no exclude pattern.
type ToolFilter struct {
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// Allows reports whether the filter offers tool.
func (f *ToolFilter) Allows(tool string) bool {
	if f == nil {
		return true
	}
	match := func(patterns []string) bool {
		for _, p := range patterns {
			if ok, _ := path.Match(p, tool); ok { // patterns are checked on load
				return true
			}
		}
		return false
	}
	return (len(f.Include) == 0 || match(f.Include)) && !match(f.Exclude)
}

// autoApproves reports whether the entry lists tool in autoApprove.
func (c ServerConfig) autoApproves(tool string) bool { return slices.Contains(c.AutoApprove, tool) }

// equal reports whether two entries launch and behave the same.
func (c ServerConfig) equal(o ServerConfig) bool {
	a, _ := json.Marshal(c) // plain data: never fails
	b, _ := json.Marshal(o)
	return string(a) == string(b)
}

// clone returns a deep copy.
func (c ServerConfig) clone() ServerConfig {
	c.Args = slices.Clone(c.Args)
	c.Env = maps.Clone(c.Env)
	c.AutoApprove = slices.Clone(c.AutoApprove)
	c.Headers = maps.Clone(c.Headers)
	if c.Tools != nil {
		t := ToolFilter{Include: slices.Clone(c.Tools.Include), Exclude: slices.Clone(c.Tools.Exclude)}
		c.Tools = &t
	}
	return c
}

// Duration is a time.Duration written as a string such as "30s" or "2m".
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New(`must be a duration string such as "30s"`)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf(`%q is not a duration; write one such as "30s" or "2m"`, s)
	}
	*d = Duration(v)
	return nil
}

// maxTimeout bounds an entry's request timeout.
const maxTimeout = time.Hour

// Problem is something wrong in a config file, with where it is. A problem that
// is not a warning disables its entry (or, without a server, the whole file).
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Server  string `json:"server,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

// Error reads like "mcp.json:12:5: server "fs": field "timeout": ...".
func (p Problem) Error() string {
	s := fmt.Sprintf("%s:%d:%d: ", p.File, p.Line, p.Column)
	if p.Server != "" {
		s += fmt.Sprintf("server %q: ", p.Server)
	}
	if p.Field != "" {
		s += fmt.Sprintf("field %q: ", p.Field)
	}
	if p.Warning {
		s += "warning: "
	}
	return s + p.Message
}

// Config is a parsed config file.
type Config struct {
	// Servers holds the entries that are valid; a broken entry is left out and
	// disables only itself.
	Servers map[string]ServerConfig
	// Names lists every entry, valid or not, in file order.
	Names []string
	// Problems are the errors and warnings found, in file order.
	Problems []Problem

	raw map[string]json.RawMessage // every entry as written
}

// EntryError is the error that disabled an entry, or nil when it is valid.
func (c Config) EntryError(name string) error {
	var errs []error
	for _, p := range c.Problems {
		if p.Server == name && !p.Warning {
			errs = append(errs, p)
		}
	}
	return errors.Join(errs...)
}

// Warnings are the warnings about an entry that still works.
func (c Config) Warnings(name string) []Problem {
	var out []Problem
	for _, p := range c.Problems {
		if p.Server == name && p.Warning {
			out = append(out, p)
		}
	}
	return out
}
