package agent

import (
	"encoding/json"

	"hermes/backend/tools"
)

// ToolDetails is what a stored tool message keeps of its call (session.Message.Details),
// so a reloaded conversation shows what the live one showed. Arguments are redacted
// as in the audit log.
type ToolDetails struct {
	CallID    string `json:"callId,omitempty"`
	Args      string `json:"args"`
	Status    string `json:"status"` // the exact outcome: ok, error, denied, blocked, timeout, cancelled
	ErrorKind string `json:"errorKind,omitempty"`
	Error     string `json:"error,omitempty"`
	LatencyUs int64  `json:"latencyUs"`
	Breaker   string `json:"breaker,omitempty"`
}

// ReplyDetails is what a stored reply keeps of its turn.
type ReplyDetails struct {
	Stop       *tools.StopReason `json:"stop,omitempty"`
	Unverified bool              `json:"unverified,omitempty"`
}

func toolDetails(o tools.Outcome) string {
	return encodeDetails(ToolDetails{CallID: o.CallID, Args: tools.RedactArgs(o.Args), Status: string(o.Status),
		ErrorKind: o.ErrorKind, Error: o.Error, LatencyUs: o.Latency.Microseconds(), Breaker: o.Breaker})
}

func replyDetails(stop *tools.StopReason, unverified bool) string {
	if stop == nil && !unverified {
		return ""
	}
	return encodeDetails(ReplyDetails{Stop: stop, Unverified: unverified})
}

func encodeDetails(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// ParseToolDetails reads a tool message's details; ok is false when there are none
// (a message stored before they were kept, or imported).
func ParseToolDetails(details string) (d ToolDetails, ok bool) {
	if details == "" || json.Unmarshal([]byte(details), &d) != nil || d.Status == "" {
		return ToolDetails{}, false
	}
	return d, true
}

// ParseReplyDetails reads a reply's details (zero when there are none).
func ParseReplyDetails(details string) ReplyDetails {
	var d ReplyDetails
	if details != "" {
		_ = json.Unmarshal([]byte(details), &d)
	}
	return d
}
