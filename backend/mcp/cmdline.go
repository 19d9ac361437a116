package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// CommandLine renders how a server is launched, exactly, for the user to approve:
// the working directory, the declared environment (with ${VAR} references as
// written, not their values) and the argv, each word quoted for a POSIX shell.
func CommandLine(c ServerConfig) string {
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
func CommandHash(c ServerConfig) string {
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
