package mcp

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"hermes/backend/tools"
)

// applyTools offers a fresh tool list: it compares each definition with the one
// the user approved, and registers, re-registers or unregisters tools so the
// registry matches. A tool whose definition changed since approval stays
// registered but switched off (the user must accept the change).
func (s *server) applyTools(list []remoteTool) {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	cfg := s.config()
	appr, _ := s.m.approvalOf(s.name)
	firstListing := len(appr.Tools) == 0
	record := map[string]string{}

	s.mu.Lock()
	own := maps.Clone(s.regs)
	prompts, hasResources := s.prompts, s.hasResources
	s.lastList = list
	s.mu.Unlock()
	reg := s.m.reg
	alloc := newNameAllocator(s.name, func(n string) bool {
		if own[n] {
			return false
		}
		_, ok := reg.Get(n)
		return ok
	})

	var states []*toolState
	seen := map[string]bool{}
	for _, rt := range list {
		ts := &toolState{st: ToolStatus{Remote: StripInvisible(rt.Name), Title: cleanText(rt.Title, 200), Hints: hintsOf(rt.Annotations)}}
		states = append(states, ts)
		switch {
		case rt.Name == "":
			ts.st.Skipped = "the server listed a tool without a name"
		case seen[rt.Name]:
			ts.st.Skipped = "the server listed this tool twice; the first is offered"
		case rt.Execution != nil && rt.Execution.TaskSupport == "required":
			ts.st.Skipped = "it only runs as an MCP task, which Hermes does not support"
		case !cfg.Tools.Allows(rt.Name):
			ts.st.Skipped = "excluded by the tools filter in mcp.json"
		}
		if ts.st.Skipped != "" {
			continue
		}
		seen[rt.Name] = true
		t, err := newServerTool(s, alloc.name(rt.Name), rt)
		if err != nil {
			ts.st.Skipped = "it cannot be offered: " + err.Error()
			continue
		}
		h := definitionHash(t)
		accepted, known := appr.Tools[rt.Name]
		switch {
		case firstListing:
			record[rt.Name] = h
		case !known:
			ts.st.New = true
			record[rt.Name] = h
		case accepted != h:
			ts.st.Changed = true
		}
		ts.tool = t
		ts.st.Name, ts.st.Description, ts.st.Annotations, ts.st.Hash = t.name, t.description, t.annots, h
		ts.st.AutoApprove = cfg.autoApproves(rt.Name) || cfg.autoApproves(t.name)
		ts.st.UserOff = slices.Contains(appr.DisabledTools, rt.Name)
		ts.st.Enabled = !ts.st.Changed && !ts.st.UserOff
	}
	builtin := s.builtinTools(alloc, hasResources, prompts)
	for _, ts := range builtin {
		ts.st.UserOff = slices.Contains(appr.DisabledTools, builtinKey(ts.st.Remote))
		ts.st.Enabled = !ts.st.UserOff
	}
	if len(record) > 0 {
		s.m.recordToolHashes(s.name, record)
	}

	s.mu.Lock()
	timeout := time.Duration(cfg.Timeout)
	keep := map[string]bool{}
	for _, ts := range append(slices.Clone(states), builtin...) {
		if ts.tool == nil {
			continue
		}
		s.registerLocked(ts, timeout, alloc)
		if ts.st.Name != "" {
			keep[ts.st.Name] = true
		}
	}
	for n := range s.regs {
		if !keep[n] {
			reg.Unregister(n)
			delete(s.regs, n)
		}
	}
	s.tools, s.builtin = states, builtin
	s.mu.Unlock()
	s.m.notify(s)
}

// registerLocked puts one tool in the registry under its name (a fresh one if
// another server took it meanwhile) and switches it on or off.
func (s *server) registerLocked(ts *toolState, timeout time.Duration, alloc *nameAllocator) {
	reg := s.m.reg
	var opts []tools.Option
	if timeout > 0 {
		opts = append(opts, tools.WithTimeout(timeout))
	}
	if ts.st.AutoApprove {
		opts = append(opts, tools.WithAutoApprove())
	}
	// The user's switch in Settings goes through the server, which remembers it.
	server := s.name
	opts = append(opts, tools.WithSwitch(func(name string, on bool) error { return s.m.SetToolEnabled(server, name, on) }))
	want := tools.DefinitionHash(ts.tool)
	if s.regs[ts.st.Name] {
		if in, ok := reg.Info(ts.st.Name); ok && in.DefinitionHash == want && in.Timeout == timeout && in.NeedsApproval == (ts.tool.Annotations().NeedsApproval() && !ts.st.AutoApprove) {
			_ = reg.Activate(ts.st.Name, ts.st.Enabled) // registered: cannot fail
			return
		}
		reg.Unregister(ts.st.Name)
		delete(s.regs, ts.st.Name)
	}
	for range 4 {
		err := reg.Register(ts.tool, opts...)
		if err == nil {
			s.regs[ts.st.Name] = true
			_ = reg.Activate(ts.st.Name, ts.st.Enabled)
			return
		}
		if !errors.Is(err, tools.ErrDuplicate) {
			ts.st.Skipped, ts.st.Enabled, ts.st.Name = fmt.Sprintf("the tools engine refused it: %v", err), false, ""
			ts.tool = nil
			return
		}
		renamed := alloc.name(ts.st.Remote)
		if st, ok := ts.tool.(*serverTool); ok {
			st.name = renamed
		} else if f, ok := ts.tool.(*tools.Func); ok {
			f.ToolName = renamed
		}
		ts.st.Name = renamed
	}
	ts.st.Skipped, ts.st.Enabled, ts.st.Name = "no free name for it in the tools engine", false, ""
	ts.tool = nil
}

// unregisterAll takes every tool of the server out of the registry (the server
// stopped); the list stays for the status panel, switched off.
func (s *server) unregisterAll() {
	s.mu.Lock()
	for n := range s.regs {
		s.m.reg.Unregister(n)
	}
	s.regs = map[string]bool{}
	for _, ts := range append(slices.Clone(s.tools), s.builtin...) {
		ts.st.Enabled = false
	}
	s.mu.Unlock()
	s.m.notify(s)
}

// builtinKey is how a built-in tool is named in Approval.DisabledTools.
func builtinKey(name string) string { return "builtin:" + name }
