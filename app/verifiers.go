package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/memory"
	"hermes/backend/subagent"
	"hermes/backend/tools"
	"hermes/backend/workflow"
)

// toolVerifiers are the memory_verifiers setting: the key prefix of a pending
// fact names the tool that verifies it (the second sign-off). The setting is
// read at each use, so a change applies at once.
type toolVerifiers struct{ c *Core }

func (v toolVerifiers) For(key string) memory.Verifier {
	s, err := v.c.settings.Load(context.Background())
	if err != nil || len(s.MemoryVerifiers) == 0 {
		return nil
	}
	tool, ok := s.MemoryVerifiers[memory.LongestPrefix(key, s.MemoryVerifiers)]
	if !ok {
		return nil
	}
	return memory.VerifierFunc(func(ctx context.Context, m memory.Memory) (bool, string, error) {
		return v.c.verifyWith(ctx, tool, m)
	})
}

// verifyWith asks a tool about a pending fact, through the tools engine
// (validation, breaker, timeout, audit log). It runs in the background, so only
// a tool that runs without asking may verify.
func (c *Core) verifyWith(ctx context.Context, tool string, m memory.Memory) (bool, string, error) {
	// A sub-agent, a workflow or a plan runs other tools in turns (and runs) of
	// its own, a workflow's in the background: a verifier is one tool that answers.
	if strings.HasPrefix(tool, subagent.ToolPrefix) || strings.HasPrefix(tool, workflow.ToolPrefix) || tool == workflow.PlanTool {
		return false, "", fmt.Errorf("verifier %s runs other tools (a sub-agent, a workflow or a plan); a verifier must be a single tool that answers by itself (an http tool, an MCP tool)", tool)
	}
	info, ok := c.tools.reg.Info(tool)
	switch {
	case !ok:
		return false, "", fmt.Errorf("verifier %s is not a tool Hermes has now (`hermes tools list` names them)", tool)
	case info.NeedsApproval:
		return false, "", fmt.Errorf("verifier %s asks before each call; a verifier must run without asking (an http tool on this computer or the LAN, or one with auto_approve)", tool)
	}
	args, err := json.Marshal(memory.VerifyArgs{Key: m.Key, Value: m.Value, Text: m.Text})
	if err != nil {
		return false, "", fmt.Errorf("verifier %s: %w", tool, err)
	}
	// Unattended: should the tool start asking between the check above and the
	// call, the engine refuses the call instead of showing a prompt from nowhere.
	o := c.runTool(ctx, tools.TurnInfo{RequestID: "verify-" + m.ID, Unattended: true}, "verify", tool, args)
	if !o.OK() {
		return false, "", fmt.Errorf("verifier %s: %s", tool, o.Error)
	}
	ok, why, err := memory.ParseVerdict(o.Result, o.Content)
	if err != nil {
		return false, "", fmt.Errorf("verifier %s: %w", tool, err)
	}
	return ok, why, nil
}
