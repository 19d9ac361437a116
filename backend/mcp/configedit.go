package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"hermes/backend/userfile"
)

// editConfig changes the servers of the config file at file and writes it back
// atomically. fn gets the entries as written, in file order, and returns them
// changed; other top-level keys are kept. A file with syntax errors is never
// rewritten.
func editConfig(file string, fn func(names []string, entries map[string]json.RawMessage) ([]string, error)) error {
	data, err := userfile.Read(file, 0)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("edit MCP config: %w", err)
	}
	cfg, err := ParseConfig(file, data)
	if err != nil {
		return fmt.Errorf("edit MCP config: the file has errors; fix them first: %w", err)
	}
	var top []member
	if len(bytes.TrimSpace(data)) > 0 {
		p := &configParser{file: filepath.Base(file), data: data, lines: newLineIndex(data)}
		if top, err = p.object(data, 0); err != nil {
			return fmt.Errorf("edit MCP config: %w", err)
		}
	}
	names, err := fn(slices.Clone(cfg.Names), cfg.raw)
	if err != nil {
		return err
	}

	var b bytes.Buffer
	b.WriteByte('{')
	wrote := false
	writeKey := func(k string) {
		if wrote {
			b.WriteByte(',')
		}
		wrote = true
		kb, _ := json.Marshal(k) // a string
		b.Write(kb)
		b.WriteByte(':')
	}
	writeServers := func() {
		writeKey("mcpServers")
		b.WriteByte('{')
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(n)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(cfg.raw[n])
		}
		b.WriteByte('}')
	}
	done := false
	for _, m := range top {
		if m.key == "mcpServers" {
			if !done {
				writeServers()
				done = true
			}
			continue
		}
		writeKey(m.key)
		b.Write(m.value)
	}
	if !done {
		writeServers()
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("edit MCP config: %w", err)
	}
	out.WriteByte('\n')
	return writeFileAtomic(file, out.Bytes(), 0o600)
}

// writeFileAtomic replaces file with data: a crash leaves the old or the new file.
func writeFileAtomic(file string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(file), err)
	}
	return nil
}

// setEntryField sets (or, with value nil, removes) one field of a raw entry,
// keeping its other fields as written.
func setEntryField(raw json.RawMessage, field string, value any) (json.RawMessage, error) {
	p := &configParser{file: "entry", data: raw, lines: newLineIndex(raw)}
	members, err := p.object(raw, 0)
	if err != nil {
		return nil, fmt.Errorf("the entry is not an object: %w", err)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	put := func(k string, v []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	set := false
	var vb []byte
	if value != nil {
		if vb, err = json.Marshal(value); err != nil {
			return nil, err
		}
	}
	for _, m := range members {
		if m.key == field {
			if value != nil && !set {
				put(field, vb)
				set = true
			}
			continue
		}
		put(m.key, m.value)
	}
	if value != nil && !set {
		put(field, vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
