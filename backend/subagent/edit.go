package subagent

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"hermes/backend/yamlfile"
)

// Sentinel errors of the edits; the errors returned wrap them.
var (
	// ErrInvalid: the definition (or the file) breaks a rule; an *Error says which.
	ErrInvalid = errors.New("invalid agent definition")
	// ErrNotFound: no agent has that name.
	ErrNotFound = errors.New("no such agent")
	// ErrBuiltin: the agent ships with Hermes and the file does not declare it.
	ErrBuiltin = errors.New("the agent is built in")
)

// Save writes d to the agents file at path: a new entry when original is ""
// (or names a built-in the file does not declare), else it replaces the entry
// named original (d may rename it), keeping the entry's comments and the other
// entries as written. d is checked with Load's rules first; a mistake is an
// error wrapping ErrInvalid and an *Error. A built-in's name writes a full
// entry, which replaces the built-in. A missing file is created.
func Save(path string, d Definition, original string) error {
	if err := save(path, d, original); err != nil {
		return fmt.Errorf("save agent: %w", err)
	}
	return nil
}

func save(path string, d Definition, original string) error {
	entry, err := entryNode(d)
	if err != nil {
		return err
	}
	if err := validate(path, entry); err != nil {
		return err
	}
	f, err := openFile(path)
	if err != nil {
		return err
	}
	at := -1
	if original != "" {
		if at = f.find(original); at < 0 && builtin(original) == nil {
			return fmt.Errorf("%w %q in %s", ErrNotFound, original, path)
		}
	}
	if other := f.find(d.Name); other >= 0 && other != at {
		line := f.list.Content[other].Line
		return fmt.Errorf("%w: %w", ErrInvalid, &Error{File: path, Agent: d.Name, Field: "name", Msg: fmt.Sprintf("%q is already declared at line %d", d.Name, line)})
	}
	if at < 0 {
		f.list.Content = append(f.list.Content, entry)
	} else {
		overwrite(f.list.Content[at], entry)
	}
	return f.write()
}

// entryNode is d as an entry of the agents list, in the file's field order.
func entryNode(d Definition) (*yaml.Node, error) {
	d.Description = strings.TrimSpace(d.Description)
	d.System = strings.TrimSpace(d.System)
	if d.Memory == MemoryNone {
		d.Memory = "" // the default goes unwritten
	}
	var n yaml.Node
	if err := n.Encode(d); err != nil {
		return nil, err
	}
	return &n, nil
}

// validate checks an entry with Load's rules.
func validate(file string, entry *yaml.Node) error {
	p := &loader{file: file, names: map[string]int{}}
	if p.agent(0, entry); len(p.errs) > 0 {
		return fmt.Errorf("%w: %w", ErrInvalid, errors.Join(p.errs...))
	}
	return nil
}

// overwrite makes the mapping old say what entry says, keeping the comments
// of the keys and values it keeps.
func overwrite(old, entry *yaml.Node) {
	old.Style &^= yaml.FlowStyle
	keep := map[string]bool{}
	for i := 0; i+1 < len(entry.Content); i += 2 {
		keep[entry.Content[i].Value] = true
		setKey(old, entry.Content[i].Value, entry.Content[i+1])
	}
	for i := 0; i+1 < len(old.Content); {
		if keep[old.Content[i].Value] {
			i += 2
		} else {
			old.Content = append(old.Content[:i], old.Content[i+2:]...)
		}
	}
}

// setKey sets key in the mapping m to v (appending it when absent); a value it
// replaces leaves v its comments and a list's flow style.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		prev := m.Content[i+1]
		v.HeadComment, v.LineComment, v.FootComment = prev.HeadComment, prev.LineComment, prev.FootComment
		if prev.Kind == yaml.SequenceNode && v.Kind == yaml.SequenceNode {
			v.Style |= prev.Style & yaml.FlowStyle
		}
		m.Content[i+1] = v
		return
	}
	m.Content = append(m.Content, str(key), v)
}

// dropKey removes key from the mapping m.
func dropKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func yes() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"} }

// Delete removes the entry named name from the agents file at path. A
// built-in the file does not declare cannot be deleted (ErrBuiltin: switch it
// off instead); an unknown name is ErrNotFound. Deleting the entry of a
// built-in's name brings the built-in back.
func Delete(path, name string) error {
	if err := remove(path, name); err != nil {
		return fmt.Errorf("delete agent: %w", err)
	}
	return nil
}

func remove(path, name string) error {
	f, err := openFile(path)
	if err != nil {
		return err
	}
	at := f.find(name)
	switch {
	case at >= 0:
		f.list.Content = append(f.list.Content[:at], f.list.Content[at+1:]...)
		return f.write()
	case builtin(name) != nil:
		return fmt.Errorf("%q: %w; switch it off instead", name, ErrBuiltin)
	}
	return fmt.Errorf("%w %q", ErrNotFound, name)
}

// SetEnabled switches the agent named name on or off in the agents file at
// path: it removes or sets disabled: true on the file's entry. A built-in the
// file does not declare is switched off by an entry {name, disabled: true};
// switching it on removes such an entry.
func SetEnabled(path, name string, on bool) error {
	if err := setEnabled(path, name, on); err != nil {
		op := "disable"
		if on {
			op = "enable"
		}
		return fmt.Errorf("%s agent: %w", op, err)
	}
	return nil
}

func setEnabled(path, name string, on bool) error {
	f, err := openFile(path)
	if err != nil {
		return err
	}
	at := f.find(name)
	switch {
	case at < 0 && builtin(name) == nil:
		return fmt.Errorf("%w %q", ErrNotFound, name)
	case at < 0 && on:
		return nil // a built-in the file does not mention is on
	case at < 0:
		f.list.Content = append(f.list.Content, switchOff(name))
	case on && builtin(name) != nil && switchOnly(f.list.Content[at]):
		f.list.Content = append(f.list.Content[:at], f.list.Content[at+1:]...)
	case on:
		dropKey(f.list.Content[at], "disabled")
	default:
		setKey(f.list.Content[at], "disabled", yes())
	}
	return f.write()
}

// switchOff is the entry {name: NAME, disabled: true}.
func switchOff(name string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle,
		Content: []*yaml.Node{str("name"), str(name), str("disabled"), yes()}}
}

// agentsFile is the agents file parsed for editing.
type agentsFile struct {
	path string
	doc  *yaml.Node // the document
	list *yaml.Node // its agents list
}

// openFile parses the agents file at path for editing; a missing or empty
// file becomes "version: 1" with no agents. A file that is not valid YAML, or
// whose agents are not a list, is not edited.
func openFile(path string) (*agentsFile, error) {
	data, ok, err := yamlfile.Read(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode}
	if ok {
		parsed, line, msg, err := yamlfile.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalid, &Error{File: path, Line: line, Msg: msg + "; fix it first"})
		}
		doc = &parsed
	}
	if len(doc.Content) == 0 || yamlfile.IsNull(doc.Content[0]) {
		doc.Kind = yaml.DocumentNode
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map",
			Content: []*yaml.Node{str("version"), {Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}}}}
	}
	list, err := agentsList(path, doc.Content[0])
	if err != nil {
		return nil, err
	}
	return &agentsFile{path: path, doc: doc, list: list}, nil
}

// agentsList is the agents list of the top mapping root, added when absent.
func agentsList(path string, root *yaml.Node) (*yaml.Node, error) {
	bad := func(n *yaml.Node, msg string) error {
		return fmt.Errorf("%w: %w", ErrInvalid, &Error{File: path, Line: n.Line, Field: "agents", Msg: msg + "; fix it first"})
	}
	if root.Kind != yaml.MappingNode {
		return nil, bad(root, "the file must be a mapping with a list under \"agents:\"")
	}
	list := valueOf(root, "agents")
	switch {
	case list == nil:
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, str("agents"), list)
	case yamlfile.IsNull(list):
		list.Kind, list.Tag, list.Value = yaml.SequenceNode, "!!seq", ""
	case list.Kind != yaml.SequenceNode:
		return nil, bad(list, "must be a list of agents")
	}
	list.Style &^= yaml.FlowStyle // "agents: []" grows into a block list
	return list, nil
}

// find is the index of the entry named name in the list, or -1.
func (f *agentsFile) find(name string) int {
	for i, item := range f.list.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		if v := valueOf(item, "name"); v != nil && v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) == name {
			return i
		}
	}
	return -1
}

// write replaces the file with the edited document.
func (f *agentsFile) write() error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f.doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return replaceFile(f.path, b.Bytes())
}

// replaceFile writes data to a temporary file next to file and renames it
// over file, so a crash leaves either the old or the new content (mode 0600).
func replaceFile(file string, data []byte) (err error) {
	dir := filepath.Dir(file)
	if err = os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	steps := []func() error{
		func() error { _, e := tmp.Write(data); return e },
		func() error { return tmp.Chmod(0o600) },
		tmp.Sync,
	}
	for _, step := range steps {
		if err = step(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
