package app

import "hermes/backend/tools"

// Approval types: who is asked before a tool call that needs approval (the
// window's dialog, a terminal prompt, or a policy such as --yes), what they are
// asked, and their answer.
type (
	// Approver decides on a tool call that needs approval (Core.SetApprover installs one).
	Approver = tools.Approver
	// ApprovalRequest is the call to decide on: the tool, its description and arguments.
	ApprovalRequest = tools.ApprovalRequest
	// Decision is the answer: allow or not, and for how long.
	Decision = tools.Decision
)

// Scopes of an allowing Decision.
const (
	ScopeOnce    = tools.ScopeOnce    // this call only
	ScopeSession = tools.ScopeSession // this tool, as defined now, for the rest of the session
)
