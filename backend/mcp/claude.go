package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"hermes/backend/userfile"
)

// DefaultClaudeConfigPath is where Claude Desktop keeps its config on this OS
// (~/.config/Claude/claude_desktop_config.json on Linux).
func DefaultClaudeConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find Claude Desktop config: %w", err)
	}
	return filepath.Join(dir, "Claude", "claude_desktop_config.json"), nil
}

// ImportResult says what an import did.
type ImportResult struct {
	Added     []string  `json:"added"`     // new entries, not yet approved
	Unchanged []string  `json:"unchanged"` // already there, the same
	Conflicts []string  `json:"conflicts"` // already there, different: Hermes's entry was kept
	Skipped   []Problem `json:"skipped"`   // entries of the source with errors
}

// ImportClaudeConfig merges the servers of a Claude Desktop config file (from;
// VS Code's mcp.json, whose servers are under "servers", too) into Hermes's
// config file (into). Entries are copied as written; an entry
// Hermes already has is never overwritten. Imported servers still need the
// user's approval before they start.
func ImportClaudeConfig(from, into string) (ImportResult, error) {
	var res ImportResult
	if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
		return res, fmt.Errorf("import Claude Desktop config: %s does not exist", from)
	}
	src, err := loadSource(from)
	if err != nil {
		return res, fmt.Errorf("import Claude Desktop config: %w", err)
	}
	for _, p := range src.Problems {
		if !p.Warning {
			res.Skipped = append(res.Skipped, p)
		}
	}
	err = editConfig(into, func(names []string, entries map[string]json.RawMessage) ([]string, error) {
		for _, name := range src.Names {
			sc, ok := src.Servers[name]
			if !ok {
				continue // broken: reported in Skipped
			}
			if raw, exists := entries[name]; exists {
				cur, perr := ParseConfig(into, wrapEntry(name, raw))
				if c, ok := cur.Servers[name]; perr == nil && ok && c.equal(sc) {
					res.Unchanged = append(res.Unchanged, name)
				} else {
					res.Conflicts = append(res.Conflicts, name)
				}
				continue
			}
			entries[name] = src.raw[name]
			names = append(names, name)
			res.Added = append(res.Added, name)
		}
		return names, nil
	})
	if err != nil {
		return res, fmt.Errorf("import Claude Desktop config: %w", err)
	}
	return res, nil
}

// loadSource reads a config to import: Claude Desktop's mcpServers, or VS
// Code's servers when there is no mcpServers.
func loadSource(file string) (Config, error) {
	data, err := userfile.Read(file, 0)
	if err != nil {
		return Config{}, fmt.Errorf("read MCP config: %w", err)
	}
	cfg, err := ParseConfig(file, data)
	if err != nil || len(cfg.Names) > 0 {
		return cfg, err
	}
	return parseConfig(file, data, "servers")
}

// wrapEntry makes a one-entry config document, to parse a raw entry alone.
func wrapEntry(name string, raw json.RawMessage) []byte {
	kb, _ := json.Marshal(name) // a string
	return []byte(`{"mcpServers":{` + string(kb) + `:` + string(raw) + `}}`)
}
