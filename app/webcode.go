package app

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// guarded is a call that needs a one-time code: key names the action, what says it in
// words on the terminal, and fingerprint is what the user approves; a code is void for
// anything else (an entry edited after its code was printed gets a new code).
type guarded struct {
	key, what, fingerprint string
}

// webGate says whether a call of one method with these arguments needs a
// one-time code, and which.
type webGate func(w *Web, args []string) (guarded, bool)

// gates are the calls web mode asks a one-time code for, by method: approving
// an MCP server (gateMCPApprove, beside App.MCPApprove), allowing a call of a
// tool that runs a program (gateApproval, beside App.ResolveApproval), and the
// two settings that let Hermes start a program or reach the internet
// (gateSetting, beside App.SetSetting). checkWebRules refuses to start web mode
// when a name here is no method of App.
func gates() map[string]webGate {
	return map[string]webGate{
		"MCPApprove":      gateMCPApprove,
		"ResolveApproval": gateApproval,
		"SetSetting":      gateSetting,
	}
}

// gate says whether a web call needs a one-time code.
func (w *Web) gate(method string, args []string) (guarded, bool) {
	if g := gates()[method]; g != nil {
		return g(w, args)
	}
	return guarded{}, false
}

// webRuleNames are the methods web mode has a rule for: a one-time code, the
// MCP lock (mcpWrites), the request's context (requestBound), a larger body
// (bodyLimit).
func (w *Web) webRuleNames() []string {
	var names []string
	for n := range gates() {
		names = append(names, n)
	}
	for n := range mcpWrites {
		names = append(names, n)
	}
	for n := range w.app.requestBound() {
		names = append(names, n)
	}
	return append(names, largeBodies...)
}

// checkWebRules fails when a rule names a method App does not bind: a renamed
// method would otherwise lose its rule without a word.
func checkWebRules(names []string, bound map[string]webMethod) error {
	var missing []string
	for _, n := range names {
		if _, ok := bound[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("serve: web mode has rules for methods App does not have: %s", strings.Join(missing, ", "))
	}
	return nil
}

// codeBook holds the codes that wait to be typed, one per action.
type codeBook struct {
	mu      sync.Mutex
	pending map[string]*oneTimeCode
	wrong   int         // wrong codes typed in this run
	issued  []time.Time // when the recent codes were printed
}

type oneTimeCode struct {
	code        string
	fingerprint string
	expires     time.Time
	tries       int
}

func newCodeBook() *codeBook { return &codeBook{pending: map[string]*oneTimeCode{}} }

// ConfirmReason is why web mode wants the one-time code of a gated call
// (CodeReply): the page says so beside the code's field.
type ConfirmReason string

const (
	// ConfirmRequired: a code was just printed in the terminal that runs `hermes serve`.
	ConfirmRequired ConfirmReason = "required"
	// ConfirmExpired: the code typed was old or used; a new one was printed.
	ConfirmExpired ConfirmReason = "expired"
	// ConfirmWrong: the code typed is not right (tries are left, or a new one was printed).
	ConfirmWrong ConfirmReason = "wrong"
	// ConfirmLocked: too many wrong codes; approve in the terminal or restart `hermes serve`.
	ConfirmLocked ConfirmReason = "locked"
	// ConfirmBusy: too many codes were asked for; wait a few minutes.
	ConfirmBusy ConfirmReason = "busy"
)

// CodeReply is web mode's answer to a gated call that has no valid one-time
// code (HTTP 428, 403 or 429).
//
//bindgen:send
type CodeReply struct {
	Error     string        `json:"error"`                // what to do, in English
	Confirm   ConfirmReason `json:"confirm,omitempty"`    // why; empty when making a code failed
	TriesLeft int           `json:"tries_left,omitempty"` // with ConfirmWrong: the tries this code has left
	ExpiresIn int           `json:"expires_in,omitempty"` // a new code's life, in seconds
}

// confirm checks the code typed for a guarded call. It returns status 0 when the call
// may run (the code is then used up); otherwise the HTTP status and the reply to send.
func (w *Web) confirm(g guarded, typed string) (int, CodeReply) {
	c := w.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	now := w.now()
	if c.wrong >= codeLockAfter {
		return http.StatusTooManyRequests, lockedBody()
	}
	typed = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, typed)
	reason, used := ConfirmRequired, false
	if typed != "" {
		reason = ConfirmExpired
	}
	if p := c.pending[g.key]; typed != "" && p != nil && now.Before(p.expires) && p.fingerprint == g.fingerprint {
		if subtle.ConstantTimeCompare([]byte(typed), []byte(p.code)) == 1 {
			delete(c.pending, g.key)
			return 0, CodeReply{}
		}
		c.wrong++
		p.tries++
		if c.wrong >= codeLockAfter {
			clear(c.pending)
			fmt.Fprintf(w.Notices, "hermes: %d wrong approval codes were typed; approvals from the browser are locked until `hermes serve` restarts\n", c.wrong)
			return http.StatusTooManyRequests, lockedBody()
		}
		if left := codeTries - p.tries; left > 0 {
			return http.StatusForbidden, CodeReply{Confirm: ConfirmWrong, TriesLeft: left,
				Error: fmt.Sprintf("That code is not right (%d %s left). Type the code printed in the terminal that runs `hermes serve`.", left, plural(left, "try", "tries"))}
		}
		delete(c.pending, g.key)
		reason, used = ConfirmWrong, true
	}
	recent := c.issued[:0]
	for _, at := range c.issued {
		if now.Sub(at) < codeTTL {
			recent = append(recent, at)
		}
	}
	c.issued = recent
	if len(c.issued) >= codeIssueLimit {
		return http.StatusTooManyRequests, CodeReply{Confirm: ConfirmBusy,
			Error: "Too many approval codes were asked for in the last few minutes. Wait a few minutes and try again."}
	}
	code, err := newCode()
	if err != nil {
		return http.StatusInternalServerError, CodeReply{Error: "make an approval code: " + err.Error()}
	}
	c.issued = append(c.issued, now)
	c.pending[g.key] = &oneTimeCode{code: code, fingerprint: g.fingerprint, expires: now.Add(codeTTL)}
	fmt.Fprintf(w.Notices, "\nhermes: approval code %s %s (valid %d minutes, once) to %s\n"+
		"hermes: type it in the browser only if you asked for this there\n\n",
		code[:3], code[3:], int(codeTTL/time.Minute), g.what)
	msg := "To approve this, type the one-time code just printed in the terminal that runs `hermes serve`."
	switch {
	case used:
		msg = "That code is not right and can no longer be used; a new code was printed in the terminal that runs `hermes serve`."
	case reason == ConfirmExpired:
		msg = "That code has expired or was already used; a new code was printed in the terminal that runs `hermes serve`."
	}
	return http.StatusPreconditionRequired, CodeReply{Confirm: reason, Error: msg, ExpiresIn: int(codeTTL / time.Second)}
}

func lockedBody() CodeReply {
	return CodeReply{Confirm: ConfirmLocked,
		Error: "Too many wrong approval codes: approving programs from the browser is locked until `hermes serve` restarts " +
			"(an MCP server can still be approved in the terminal with `hermes mcp approve NAME`)."}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newCode is six random digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}
