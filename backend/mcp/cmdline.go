package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strings"

	"hermes/backend/netguard"
)

// CommandLine renders how a server is launched, exactly, for the user to approve:
// the working directory, the declared environment (with ${VAR} references as
// written, not their values) and the argv, each word quoted for a POSIX shell.
//
// For a remote server it is what the user approves instead: the transport, the
// exact URL, the names (never the values) of the headers sent, and whether the
// host is on the internet.
func CommandLine(c ServerConfig) string {
	if c.Remote() {
		return remoteLine(c)
	}
	var parts []string
	if c.Cwd != "" {
		parts = append(parts, "cd", shellQuote(c.Cwd), "&&")
	}
	if len(c.Env) > 0 {
		keys := make([]string, 0, len(c.Env))
		for k := range c.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts = append(parts, "env")
		for _, k := range keys {
			parts = append(parts, shellQuote(k+"="+c.Env[k]))
		}
	}
	parts = append(parts, shellQuote(c.Command))
	for _, a := range c.Args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CommandHash identifies what the user approved when approving a server: the
// command, its arguments, the declared environment and the working directory.
// Any change to them asks again.
//
// For a remote server: the URL, the transport, the header names (the values are
// secrets that may change, e.g. a rotated token), allow_internet and ca_file.
func CommandHash(c ServerConfig) string {
	if c.Remote() {
		b, _ := json.Marshal(struct { // plain data: never fails
			URL           string    `json:"url"`
			Transport     Transport `json:"transport"`
			Headers       []string  `json:"headers"`
			AllowInternet bool      `json:"allow_internet"`
			CAFile        string    `json:"ca_file"`
		}{c.URL, c.Transport(), c.HeaderNames(), c.AllowInternet, c.CAFile})
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	}
	env := make([][2]string, 0, len(c.Env))
	for k, v := range c.Env {
		env = append(env, [2]string{k, v})
	}
	slices.SortFunc(env, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	b, _ := json.Marshal(struct { // strings only: never fails
		Command string      `json:"command"`
		Args    []string    `json:"args"`
		Env     [][2]string `json:"env"`
		Cwd     string      `json:"cwd"`
	}{c.Command, c.Args, env, c.Cwd})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// remoteLine describes a remote entry for approval.
func remoteLine(c ServerConfig) string {
	kind := "Streamable HTTP"
	if c.Transport() == TransportSSE {
		kind = "HTTP+SSE (legacy)"
	}
	line := kind + " " + displayURL(c.URL)
	if names := c.HeaderNames(); len(names) > 0 {
		line += " with headers " + strings.Join(names, ", ")
	}
	if c.CAFile != "" {
		line += "; trusts the CA in " + c.CAFile
	}
	if c.internetHost() {
		line += "; an internet host: messages and tool arguments leave this computer"
	}
	return line
}

// displayURL is a URL without any user:password part.
func displayURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}

// internetHost reports whether a remote entry's host is outside loopback and
// the private LAN by its look (where it resolves is checked at connect time).
func (c ServerConfig) internetHost() bool {
	if !c.Remote() {
		return false
	}
	u, err := url.Parse(c.URL)
	return err == nil && !netguard.HostIsLocal(u.Hostname())
}
