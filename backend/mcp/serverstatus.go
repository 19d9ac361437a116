package mcp

import (
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// status is the server as the UI shows it.
func (s *server) status() Status {
	approval, approved := s.m.approvalOf(s.name)
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{
		Name: s.name, State: s.state, Error: s.lastErr, Config: s.next.cfg.redacted(), Command: CommandLine(s.cfg),
		Transport: s.cfg.Transport(), HeaderNames: s.cfg.HeaderNames(), Internet: s.cfg.internetHost(),
		Approved: approved && approval.CommandHash == CommandHash(s.cfg), Disabled: s.cfg.Disabled,
		PID: s.pid, Restarts: s.restarts, RetryAt: s.retryAt,
		ServerName: StripInvisible(s.info.Name), Version: StripInvisible(s.info.Version), Protocol: StripInvisible(s.protocol), Instructions: s.instructions,
		HasResources: s.hasResources, Resources: s.resources, StderrTail: s.stderr.Tail(4 << 10), Tools: []ToolStatus{},
	}
	if s.cfgErr != "" {
		st.Error = s.cfgErr
	}
	if s.cfg.Remote() {
		st.URL = displayURL(s.cfg.URL)
	}
	if s.pid != 0 {
		st.StartedAt = s.startedAt
	}
	st.Warnings = append(slices.Clone(s.cfgWarnings), s.warnings...)
	if s.sess != nil && s.sess.framer != nil {
		over, lastOver, noise, lastNoise := s.sess.framer.stats()
		if over > 0 {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%d oversized message(s) dropped; last: %s", over, lastOver))
		}
		if noise > 0 {
			st.Warnings = append(st.Warnings, fmt.Sprintf("the server wrote %d line(s) to stdout that are not JSON-RPC, e.g. %q; MCP servers must log to stderr", noise, lastNoise))
		}
	}
	for _, t := range s.tools {
		st.Tools = append(st.Tools, t.st)
		st.ToolsChanged = st.ToolsChanged || t.st.Changed
	}
	for _, t := range s.builtin {
		st.Tools = append(st.Tools, t.st)
	}
	for _, p := range s.prompts {
		st.Prompts = append(st.Prompts, promptInfo(s.name, p))
	}
	return st
}

func promptInfo(server string, p mcp.Prompt) PromptInfo {
	pi := PromptInfo{Server: server, Name: StripInvisible(p.Name), Title: cleanText(p.Title, 200), Description: cleanText(p.Description, maxDescription)}
	for _, a := range p.Arguments {
		pi.Arguments = append(pi.Arguments, PromptArgument{Name: StripInvisible(a.Name), Description: cleanText(a.Description, 512), Required: a.Required})
	}
	return pi
}
